"""The version a write says it was based on, refused when the match has not reached it."""

from __future__ import annotations

VERSION_AHEAD = "version_ahead"  # the error's code (docs/api.md)


class VersionAhead(Exception):
    """A write based on a version the match never had: no phone or program can have seen it, so it is
    a bad value (422 at ``version``), not a change made elsewhere in the meantime (409)."""

    def __init__(self, sent: int, current: int) -> None:
        super().__init__(f"version {sent} is ahead of the match, which is at version {current}; "
                         "send the version you read, or none")
        self.message = str(self)


def check_not_ahead(sent: int | None, current: int) -> None:
    if sent is not None and sent > current:
        raise VersionAhead(sent, current)
