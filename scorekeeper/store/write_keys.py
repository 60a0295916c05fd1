"""The keys writes are named with (a form's hidden key, the API's ``Idempotency-Key``).

A key is stored with its write, in the write's transaction, under a unique (match, key) constraint. A
write whose key is found already is not done again: it answers what the first one did, so a double
tap, a retry or a phone coming back online counts once, whichever process it reaches. Keys older than
``WRITE_KEY_KEPT`` are deleted by the next keyed write to their match.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Iterable
from datetime import timedelta
from typing import NamedTuple

from sqlalchemy import delete, select

from ..db import get_session
from ..models import MatchRow, WriteKeyRow, utc_now
from ..rules.limits import MAX_WRITE_KEY, MIN_WRITE_KEY
from ..rules.refusals import Invalid

WRITE_KEY_KEPT = timedelta(days=1)  # how long a write's key answers its repeats

_WRITE_KEY = re.compile(rf"[A-Za-z0-9_.:~-]{{{MIN_WRITE_KEY},{MAX_WRITE_KEY}}}")


KEY_REUSED = "key_reused"  # a write key sent again with another request


class KeyReused(Invalid):
    """A write key sent again with another write (another body or address): nothing is done."""

    def __init__(self, key: str) -> None:
        super().__init__(None, KEY_REUSED,
                         f"the key {key!r} was sent before with a different request; send a new key for a new write")


@dataclasses.dataclass(frozen=True)
class WriteKey:
    """The key a client named a write with, and a fingerprint of the write it asked for."""

    value: str
    fingerprint: str

    @classmethod
    def of(cls, value: str, *request_parts: str) -> WriteKey:
        """A key for ``value`` (checked with ``is_write_key`` first) and the parts of the request that
        a repeat must send again unchanged."""
        digest = hashlib.sha256("\n".join(request_parts).encode("utf-8", "surrogatepass")).hexdigest()
        return cls(value, digest)


def is_write_key(text: str) -> bool:
    """Whether ``text`` may name a write: 8 to 64 letters, digits and ``- _ . : ~`` (a UUID fits)."""
    return _WRITE_KEY.fullmatch(text) is not None


class StoredKey(NamedTuple):
    """What the first write under a key left: the deal it touched and the version it made."""

    number: int | None
    version: int


def stored_write(row: MatchRow, key: WriteKey) -> StoredKey | None:
    """The write done to the match under ``key``, if any (``KeyReused`` when it asked for something else)."""
    found = get_session().scalars(select(WriteKeyRow).where(
        (WriteKeyRow.match_id == row.id) & (WriteKeyRow.key == key.value))).first()
    if found is None:
        return None
    if found.fingerprint != key.fingerprint:
        raise KeyReused(key.value)
    return StoredKey(found.number, found.version)


def store_key(row: MatchRow, key: WriteKey, number: int | None) -> None:
    """Keep the write's key in its transaction (the match is claimed, so its old keys are ours to tidy)."""
    session, now = get_session(), utc_now()
    session.execute(delete(WriteKeyRow).where(
        (WriteKeyRow.match_id == row.id) & (WriteKeyRow.created_at < now - WRITE_KEY_KEPT)))
    session.add(WriteKeyRow(match_id=row.id, key=key.value, fingerprint=key.fingerprint, number=number,
                            version=row.version, created_at=now))


def stored_keys(row: MatchRow, keys: Iterable[str]) -> set[str]:
    """Which of these write keys name a write already done to the match."""
    wanted = list(keys)
    if not wanted:
        return set()
    return set(get_session().scalars(select(WriteKeyRow.key).where(
        (WriteKeyRow.match_id == row.id) & WriteKeyRow.key.in_(wanted))))
