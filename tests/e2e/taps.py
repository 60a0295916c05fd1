"""Real touch taps, as a phone's screen sends them (Chromium's DevTools protocol), at a point and a time of the
test's choosing: a double tap is two taps ``gap_ms`` apart by the events' own clock, the second sent once the page
has answered the first (a panel opened or closed), so that no test waits a set time and each sees the page at the
worst moment, the panel already there under the finger."""

from __future__ import annotations

from collections.abc import Callable
from weakref import WeakKeyDictionary

from playwright.sync_api import CDPSession, Locator, Page

# Each page's DevTools session, kept while the page lives: one let go would take the page's network conditions
# (offline) with it.
SESSIONS: WeakKeyDictionary[Page, CDPSession] = WeakKeyDictionary()
# Clicks the page has had (counted before any script of the page can drop one), kept in the page.
COUNT_CLICKS = "addEventListener('click', () => { window.clicksHad = (window.clicksHad || 0) + 1; }, true);"


def count_clicks(page: Page) -> None:
    """The page's clicks are counted from now on (``touch_tap`` waits on them): called before a panel first opens
    there, so that the count sees a click the page then drops."""
    page.evaluate(COUNT_CLICKS)


def clicks_had(page: Page) -> int:
    return int(page.evaluate("window.clicksHad || 0"))


def page_clock(page: Page) -> float:
    """The page's time now, in seconds since the epoch (the clock touch events are stamped with)."""
    return float(page.evaluate("performance.timeOrigin + performance.now()")) / 1000


def touch_tap(page: Page, x: float, y: float, at: float) -> None:
    """A finger's tap at (x, y) on the viewport, touching at ``at`` (``page_clock``'s seconds) for 20 ms; returns
    once the page has had its click."""
    session = SESSIONS.get(page) or SESSIONS.setdefault(page, page.context.new_cdp_session(page))
    had = clicks_had(page)
    session.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}], "timestamp": at})
    session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": [], "timestamp": at + 0.02})
    page.wait_for_function("(had) => (window.clicksHad || 0) > had", arg=had)


def point_of(control: Locator, across: float = 0.5) -> tuple[float, float]:
    """A point on ``control``: ``across`` its width from its left (the middle by default), half its height down."""
    box = control.bounding_box()
    assert box is not None, "not on the screen"
    return box["x"] + box["width"] * across, box["y"] + box["height"] / 2


def double_tap(page: Page, control: Locator, gap_ms: int, answered: Callable[[], None], *, across: float = 0.5) -> None:
    """Two taps ``gap_ms`` apart on the same point of ``control``; the second once ``answered`` has seen the page
    take the first (it waits on the page, as ``expect`` does)."""
    control.scroll_into_view_if_needed()
    x, y = point_of(control, across)
    first = page_clock(page)
    touch_tap(page, x, y, first)
    answered()
    touch_tap(page, x, y, first + gap_ms / 1000)


def past_a_double_tap(page: Page) -> None:
    """Wait, as a player looks at what a tap opened, until a tap at the same place is no longer the second tap of
    a double tap (``static/js/second_tap.js``: SECOND_TAP_MS after the last press, by the page's own clock)."""
    page.wait_for_function("() => !window.lastPress || performance.now() - window.lastPress.timeStamp >= 500")
