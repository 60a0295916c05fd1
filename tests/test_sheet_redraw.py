"""A new version of a match redraws only what changed on its sheet page: the page around the live part
(sheet/frame.py) and the rows whose line is the same are those of the version before; a write to a match
whose page is kept draws the new page itself; and the page so drawn is the one drawn from nothing."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from conftest import form_values
from flask import Flask
from test_kept_pages import DEAL, kept_pages, phone, start

from matches import make_match
from scorekeeper import create_app, store
from scorekeeper.rules.scoring import DealLine
from scorekeeper.sheet.cache import SheetCache, SheetPage, sheet_cache
from scorekeeper.sheet.frame import ETAG_MARK, LIVE_MARK, Frame, FrameKey
from scorekeeper.sheet.rows import shape_of
from scorekeeper.sheet.view import SheetView

OTHER_DEAL = {"bidder": 1, "bid": 60, "sides": [{"meld": 6, "tricks": 20}, {"meld": 30, "tricks": 28,
                                                                               "last_trick": True}]}


@pytest.fixture
def fresh_app(app: Flask) -> Iterator[Flask]:
    """Another process on the same database: nothing kept, every page drawn from nothing."""
    other = create_app(dict(app.config))
    yield other
    other.extensions["scorekeeper.engine"].dispose()


def kept(app: Flask, public_id: str) -> SheetPage | None:
    with app.app_context():
        return sheet_cache().latest(public_id)


def version(app: Flask, public_id: str) -> int:
    with app.app_context():
        found = store.match_version(public_id)
    assert found is not None
    return found


def correct(app: Flask, public_id: str, token: str, number: int) -> None:
    answer = app.test_client().put(f"/api/v1/matches/{public_id}/deals/{number}", json=OTHER_DEAL,
                                   headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200, answer.get_json()


def lines(page: SheetPage) -> tuple[DealLine, ...]:
    assert page.view.sheet is not None
    return page.view.sheet.deals


@pytest.mark.parametrize("number", [1, 4, 6])
def test_a_correction_keeps_the_frame_and_every_other_deals_row_as_the_same_objects(
        app: Flask, number: int) -> None:
    public_id, token, _ = start(app, deals=6)
    phone(app, public_id)
    before = kept(app, public_id)
    assert before is not None
    correct(app, public_id, token, number)
    after = kept(app, public_id)
    assert after is not None and after.version == before.version + 1  # drawn by the write
    assert after.frame is not None and after.frame is before.frame
    for old, new in zip(lines(before), lines(after), strict=True):
        if new.number == number:
            assert shape_of(new) not in before.rows
        else:
            assert after.rows[shape_of(new)] is before.rows[shape_of(old)]  # not drawn again


@pytest.mark.parametrize("write", ["add", "correct first", "correct last", "delete"])
def test_the_page_drawn_from_the_version_before_is_the_page_drawn_from_nothing(
        app: Flask, fresh_app: Flask, write: str) -> None:
    public_id, token, watch_id = start(app, deals=5)
    reader = phone(app, public_id)
    reader.get(f"/w/{watch_id}")
    auth = {"Authorization": f"Bearer {token}"}
    writer = app.test_client()
    if write == "add":
        writer.post(f"/api/v1/matches/{public_id}/deals", json=OTHER_DEAL, headers=auth)
    elif write == "delete":
        writer.delete(f"/api/v1/matches/{public_id}/deals/2", headers=auth)
    else:
        correct(app, public_id, token, 1 if write == "correct first" else 5)
    for path in (f"/m/{public_id}", f"/m/{public_id}/live", f"/w/{watch_id}", f"/w/{watch_id}/live"):
        redrawn = reader.get(path)
        from_nothing = fresh_app.test_client().get(path)
        assert redrawn.status_code == from_nothing.status_code == 200
        assert redrawn.get_data(as_text=True) == from_nothing.get_data(as_text=True), path


def test_a_write_draws_the_next_page_only_of_a_match_whose_page_is_kept(app: Flask) -> None:
    read, read_token, _ = start(app)
    unread, unread_token, _ = start(app)
    reader = phone(app, read)
    for public_id, token in ((read, read_token), (unread, unread_token)):
        added = app.test_client().post(f"/api/v1/matches/{public_id}/deals", json=DEAL,
                                       headers={"Authorization": f"Bearer {token}"})
        assert added.status_code == 201
    page = kept(app, read)
    assert page is not None and page.version == version(app, read)
    assert kept(app, unread) is None
    answered = kept_pages(app).answered
    assert reader.get(f"/m/{read}").status_code == 200
    assert kept_pages(app).answered == answered + 1  # the reload did not go through the app


def test_a_write_draws_the_next_page_once_its_answer_is_sent(app: Flask) -> None:
    public_id, token, _ = start(app)
    phone(app, public_id)
    before = kept(app, public_id)
    assert before is not None
    answer = app.test_client().put(f"/api/v1/matches/{public_id}/deals/1", json=OTHER_DEAL, buffered=False,
                                   headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200 and answer.get_json()["version"] == before.version + 1
    assert kept(app, public_id) is before  # the answer is whole: nothing was drawn before it
    answer.close()  # as a server does once the answer is sent
    after = kept(app, public_id)
    assert after is not None and after.version == before.version + 1


def test_a_deal_saved_from_the_form_is_drawn_by_the_save(app: Flask) -> None:
    public_id, _, _ = start(app)
    client = phone(app, public_id)
    drawn = kept(app, public_id)
    assert drawn is not None
    saved = client.post(f"/m/{public_id}/deals/1/delete",
                        data=form_values(client.get(f"/m/{public_id}/deals/1/delete")))
    assert saved.status_code in (302, 303)
    page = kept(app, public_id)
    assert page is not None and page.version == drawn.version + 1


def _page(key: str, page_version: int) -> SheetPage:
    match = make_match([])
    return SheetPage.drawn(key, page_version, match, SheetView.of(match), "")


def test_a_page_being_drawn_is_waited_for_and_then_given() -> None:
    cache = SheetCache(4)
    drawing, release = threading.Event(), threading.Event()
    page = _page("a", 1)

    def draw() -> SheetPage:
        drawing.set()
        release.wait(30)
        return page

    drawer = threading.Thread(target=lambda: cache.page("a", 1, draw))
    drawer.start()
    assert drawing.wait(30)
    given: list[SheetPage | None] = []
    waiter = threading.Thread(target=lambda: given.append(cache.awaited("a", 1)))
    waiter.start()
    waiter.join(0.2)
    assert waiter.is_alive()  # waiting for the page, not answering without it
    release.set()
    drawer.join(30)
    waiter.join(30)
    assert given == [page]


def test_nothing_being_drawn_is_not_waited_for() -> None:
    cache = SheetCache(4)
    assert cache.awaited("a", 1) is None
    cache.put(_page("a", 1))
    assert cache.awaited("a", 2) is None
    assert cache.awaited("a", 1) is not None


def test_a_frame_takes_a_versions_live_part_and_etag() -> None:
    frame = Frame(FrameKey("x", "Name", "w", False), f'<div data-etag="{ETAG_MARK}">{LIVE_MARK}</div>')
    assert frame.page("<p>live</p>", "7-abc") == '<div data-etag="7-abc"><p>live</p></div>'


@pytest.mark.parametrize("html", ["", f"{LIVE_MARK}", f"{ETAG_MARK}{LIVE_MARK}{LIVE_MARK}"])
def test_a_frame_holds_each_mark_once(html: str) -> None:
    with pytest.raises(ValueError):
        Frame(FrameKey("x", "Name", "w", False), html)


def test_a_frame_is_taken_only_for_the_same_match_name_and_page() -> None:
    key = FrameKey("x", "Name", "w", False)
    match = make_match([])
    frame = Frame(key, f"{ETAG_MARK}{LIVE_MARK}")
    page = SheetPage.drawn("x", 1, match, SheetView.of(match), "", frame=frame)
    assert page.frame_for(key) is frame
    assert page.frame_for(FrameKey("x", "Other name", "w", False)) is None
    assert page.frame_for(FrameKey("x", "Name", "w", True)) is None
