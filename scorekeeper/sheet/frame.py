"""The score sheet page around its live part, drawn once per match and kept with the page for the next version.

Most of the sheet page (the head, the title, the links, the share section, the footer) depends on the match's
link, name and watch link and on whether it is the watch page, never on its deals: only the live part does
(``templates/matches/_sheet_live.html``), and the version's ETag that the live part's box carries. So the page
is drawn with marks where those two go (``Frame``), and the page of each next version is that frame with the
version's live part and ETag put in: a new version draws its live part alone. A frame is found again only for
the same ``FrameKey``; a renamed match draws a new one.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

# Where a version's own parts go in the frame. Escaped text cannot produce them: it never holds a raw "<".
LIVE_MARK = Markup("<!--frame:live-->")
ETAG_MARK = Markup("<!--frame:etag-->")


@dataclass(frozen=True)
class FrameKey:
    """What the page around the live part depends on."""

    public_id: str
    name: str
    watch_id: str
    watching: bool


@dataclass(frozen=True)
class Frame:
    """The page drawn with ``ETAG_MARK`` and ``LIVE_MARK`` in place of a version's ETag and live part."""

    key: FrameKey
    html: str

    def __post_init__(self) -> None:
        if self.html.count(LIVE_MARK) != 1 or self.html.count(ETAG_MARK) != 1:
            raise ValueError("a sheet frame holds each mark exactly once")

    def page(self, live: str, etag: str) -> str:
        """The page of a version: its live part and ETag put in (the ETag first: the live part is not searched)."""
        return self.html.replace(ETAG_MARK, etag, 1).replace(LIVE_MARK, live, 1)
