"""The version a write says it was based on, refused when the match has not reached it."""

from __future__ import annotations

from .rules.refusals import Invalid

VERSION_AHEAD = "version_ahead"  # the error's code (docs/api.md)


class VersionAhead(Invalid):
    """A write based on a version the match never had: no phone or program can have seen it, so it is
    a bad value (422 at ``version``), not a change made elsewhere in the meantime (409)."""

    def __init__(self, sent: int, current: int) -> None:
        super().__init__("version", VERSION_AHEAD, f"version {sent} is ahead of the match, which is at version "
                         f"{current}; send the version you read, or none")


def check_not_ahead(sent: int | None, current: int) -> None:
    if sent is not None and sent > current:
        raise VersionAhead(sent, current)
