"""The instance folder: private to its owner, with a secret key made once however many processes start together."""

from __future__ import annotations

import os
import secrets
import tempfile
from pathlib import Path


def make_private_folder(path: str) -> None:
    """Create the instance folder 0700, or take group and other access away from one made before."""
    os.makedirs(path, mode=0o700, exist_ok=True)
    current = os.stat(path)
    if current.st_uid == os.geteuid() and current.st_mode & 0o077:
        os.chmod(path, current.st_mode & 0o700)


class StartupError(RuntimeError):
    """The app cannot start as configured (a bad key file, a database it does not recognise); the message
    names the file or database and what to do."""


def secret_key(instance_path: str) -> str:
    """A random key kept in the instance folder (0600), so sessions survive a restart.

    The first start writes the key to a temporary file, fsyncs it and links it into place, which fails if
    another process got there first: then that process's key is read. So processes starting together all
    use one key, and none ever reads a half-written file. An empty or unreadable key file is an error.
    """
    key_file = Path(instance_path) / "secret_key"
    if not key_file.exists():
        key = secrets.token_hex(32)
        fd, temporary = tempfile.mkstemp(prefix=".secret_key.", dir=instance_path)  # O_EXCL, mode 0600
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(key)
                out.flush()
                os.fsync(out.fileno())
            try:
                os.link(temporary, key_file)
            except FileExistsError:
                pass  # another process's key is in place: use it
            except OSError:  # a file system without hard links: create the file in place instead
                if _write_new_file(key_file, key):
                    return key
            else:
                _fsync_dir(instance_path)
                return key
        finally:
            os.unlink(temporary)
    return _read_secret_key(key_file)


def _write_new_file(path: Path, text: str) -> bool:
    """Create ``path`` (0600) holding ``text``; False if it exists already."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return False
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)
        out.flush()
        os.fsync(out.fileno())
    return True


def _read_secret_key(key_file: Path) -> str:
    remedy = ("delete it to have a new key made at the next start (signed-in sessions and open forms are "
              "then refused once), or set SECRET_KEY")
    try:
        key = key_file.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "it is not text"
        raise StartupError(f"cannot read the secret key file {key_file}: {reason}; fix its permissions, "
                           f"or {remedy}") from None
    if not key:
        raise StartupError(f"the secret key file {key_file} is empty; {remedy}")
    return key


def _fsync_dir(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
