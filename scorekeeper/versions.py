"""The version a write says it was based on, refused when the match has not reached it."""

from __future__ import annotations

from .rules.refusals import Invalid

VERSION_AHEAD = "version_ahead"  # the error's code (docs/api.md)


def check_not_ahead(sent: int | None, current: int) -> None:
    """A write based on a version the match never had is refused: no phone or program can have seen it, so it
    is a bad value (``Invalid`` at ``version``), not a change made elsewhere in the meantime (a ``Conflict``)."""
    if sent is not None and sent > current:
        raise Invalid("version", VERSION_AHEAD, f"version {sent} is ahead of the match, which is at version "
                                                f"{current}; send the version you read, or none")
