"""The sample matches (``seeds/*.json``): loaded by ``scorekeeper seed`` and offered on an empty home page.

A seeded sample has a link worked out from the app's secret key and the file's name, so a second
``scorekeeper seed`` finds the samples it loaded before instead of adding them again, and nobody
without the key can guess the link. A phone that taps "Try a sample match" gets its own copy.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .rules.errors import RulesError
from .rules.match import Match
from .rules.matchfile import loads_match
from .rules.scoring import score_match


def seeds_dir() -> Path:
    """The bundled samples: inside the package when installed from a wheel, beside it in a checkout."""
    package = Path(__file__).resolve().parent
    inside = package / "seeds"
    return inside if inside.is_dir() else package.parent / "seeds"


@dataclass(frozen=True)
class Sample:
    """One sample match file: its key (the file's name without ``.json``) and the match."""

    key: str
    match: Match


class BadSample(ValueError):
    """A sample file that is not a match the rules accept; the message starts with the file's name."""


def read_samples(folder: Path) -> list[Sample]:
    """Every ``*.json`` in ``folder``, read and scored, so that a bad file is found before any is loaded."""
    samples = []
    for path in sorted(folder.glob("*.json")):
        try:
            match = loads_match(path.read_text(encoding="utf-8"))
            score_match(match)
        except RulesError as error:
            raise BadSample(f"{path.name}: {error}") from None
        samples.append(Sample(path.stem, match))
    return samples


@cache
def bundled_samples() -> dict[str, Sample]:
    """The bundled samples by key, read once per process (an empty home page offers them)."""
    return {sample.key: sample for sample in read_samples(seeds_dir())}


def sample_public_id(secret_key: str | bytes, key: str) -> str:
    """The link of the seeded sample ``key``: 128 bits of an HMAC under the app's secret key."""
    secret = secret_key.encode() if isinstance(secret_key, str) else secret_key
    digest = hmac.new(secret, f"sample-match:{key}".encode(), hashlib.sha256).digest()[:16]
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")
