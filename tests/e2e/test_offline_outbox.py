"""A phone with no signal keeps what it enters, shows it on the sheet marked "not sent yet", and sends
each entry once when the network is back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from .conftest import Guard, LiveApp, Phones
from .outbox import (
    is_replay,
    kept_totals,
    outbox,
    public_id_of,
    ready_offline,
    server_match,
    take_expected_errors,
    wait_until_sent,
)
from .table import fill_quick_deal, follow, new_match, open_new_deal, save_deal, type_number
from .taps import count_clicks, double_tap

pytestmark = [pytest.mark.browser, pytest.mark.service_worker]


def test_a_deal_saved_offline_is_kept_shown_and_sent_once(phones: Phones, live_app: LiveApp, guard: Guard) -> None:
    page = phones.open()
    new_match(page, "Double deck to 500", name="Lake house")
    open_new_deal(page)
    fill_quick_deal(page, "We", 60, (67, 20))
    ready_offline(page)
    with guard.offline(page):
        page.get_by_role("button", name="Save deal").tap()
        expect(outbox(page)).to_contain_text("Not sent yet")
        assert kept_totals(page) == {"We": 67, "They": 20}
    wait_until_sent(page)
    deals = server_match(live_app.base_url, public_id_of(page))["match"]["deals"]
    assert [deal["bid"] for deal in deals] == [60]


def test_an_answer_lost_on_the_way_back_is_sent_again_and_counted_once(
    phones: Phones, live_app: LiveApp, guard: Guard
) -> None:
    page = phones.open()
    new_match(page, "Double deck to 500", name="Cabin")
    open_new_deal(page)
    fill_quick_deal(page, "We", 60, (67, 20))
    ready_offline(page)
    keys_sent: list[str] = []

    def lose_the_first_answer(route: Route) -> None:
        if not is_replay(route.request):
            route.continue_()
            return
        keys_sent.append(route.request.headers["idempotency-key"])
        if len(keys_sent) == 1:
            route.fetch()  # the server does the write ...
            route.abort()  # ... and its answer never reaches the phone
        else:
            route.continue_()

    page.route("**/m/*/deals/new", lose_the_first_answer)
    with guard.offline(page):
        page.get_by_role("button", name="Save deal").tap()
        expect(outbox(page)).to_contain_text("Not sent yet")
    wait_until_sent(page)
    # The retry asks the server which keys it has done (the write is, under the entry's key) or sends the
    # entry again with the same key (answered with the first write's result): either way one deal.
    assert keys_sent and all(key == keys_sent[0] for key in keys_sent)
    deals = server_match(live_app.base_url, public_id_of(page))["match"]["deals"]
    assert len(deals) == 1
    assert take_expected_errors(guard, r"ERR_FAILED .*/deals/new$") == 1  # the answer the test threw away


def fill_new_deal(phone: Page, bid: int, totals: tuple[int, int]) -> None:
    """Fill a new deal with the network up (the phone reads the match's facts meanwhile)."""
    open_new_deal(phone)
    fill_quick_deal(phone, "We", bid, totals)
    ready_offline(phone)


def save_offline(phone: Page) -> None:
    phone.get_by_role("button", name="Save deal").tap()
    expect(outbox(phone)).to_contain_text("Not sent yet")


def flagged_twin(phones: Phones, live_app: LiveApp, guard: Guard) -> tuple[Page, str]:
    """Two phones that added the same deal offline, both sent: the second (returned, with the match's public id)
    shows its deal 2 as a likely duplicate of deal 1."""
    ann, bob = phones.open(), phones.open()
    link = new_match(ann, "Double deck to 500", name="Two tables")
    bob.goto(link)
    public_id = public_id_of(ann)
    fill_new_deal(ann, 60, (67, 20))
    fill_new_deal(bob, 60, (67, 20))
    with guard.offline(bob), guard.offline(ann):
        save_offline(ann)
        save_offline(bob)
        ann.context.set_offline(False)
        wait_until_sent(ann)
        assert len(server_match(live_app.base_url, public_id)["match"]["deals"]) == 1
    flagged = outbox(bob)
    expect(flagged).to_contain_text("Deal 2 may be a duplicate", timeout=20_000)
    expect(flagged).to_contain_text("same facts as deal 1")
    assert len(server_match(live_app.base_url, public_id)["match"]["deals"]) == 2  # both arrived
    return bob, public_id


@pytest.mark.parametrize("choice", ["Delete mine (deal 2)", "Keep both"])
def test_two_phones_offline_both_add_and_a_twin_deal_is_flagged(
    phones: Phones, live_app: LiveApp, guard: Guard, choice: str
) -> None:
    bob, public_id = flagged_twin(phones, live_app, guard)
    bob.get_by_role("button", name=choice).tap()
    expect(outbox(bob)).to_have_count(0, timeout=20_000)
    assert len(server_match(live_app.base_url, public_id)["match"]["deals"]) == (1 if "Delete" in choice else 2)


# The phone's outbox storage busy (a slow phone): a transaction of the test's own holds every store of it
# until released, so that what a tap asks of it waits.
HOLD_OUTBOX = """() => new Promise((held) => {
  const opening = indexedDB.open("scorekeeper-outbox");
  opening.onsuccess = () => {
    const stores = opening.result.transaction(["entries", "facts", "notes"], "readwrite").objectStore("notes");
    window.outboxHeld = true;
    const busy = () => { if (window.outboxHeld) stores.get("").onsuccess = busy; };
    busy();
    held();
  };
})"""


def test_a_double_tap_on_delete_mine_deletes_the_twin_once(
    phones: Phones, live_app: LiveApp, guard: Guard
) -> None:
    bob, public_id = flagged_twin(phones, live_app, guard)
    deletes: set[str] = set()  # the keys of the deletes the phone sent
    bob.on("request", lambda request: deletes.add(request.headers["idempotency-key"])
           if is_replay(request) and request.url.endswith("/deals/2/delete") else None)
    count_clicks(bob)
    bob.evaluate(HOLD_OUTBOX)
    double_tap(bob, bob.get_by_role("button", name="Delete mine (deal 2)"), 120, lambda: None)
    bob.evaluate("window.outboxHeld = false")
    expect(outbox(bob)).to_have_count(0, timeout=20_000)
    assert len(server_match(live_app.base_url, public_id)["match"]["deals"]) == 1
    assert len(deletes) == 1


def test_different_deals_from_two_phones_both_append_unflagged(
    phones: Phones, live_app: LiveApp, guard: Guard
) -> None:
    ann, bob = phones.open(), phones.open()
    link = new_match(ann, "Double deck to 500", name="Two tables")
    bob.goto(link)
    fill_new_deal(ann, 60, (67, 20))
    fill_new_deal(bob, 70, (77, 20))
    with guard.offline(ann), guard.offline(bob):
        save_offline(ann)
        save_offline(bob)
        bob.context.set_offline(False)
        wait_until_sent(bob)
    wait_until_sent(ann)
    deals = server_match(live_app.base_url, public_id_of(ann))["match"]["deals"]
    assert [deal["bid"] for deal in deals] == [70, 60]  # numbers follow the server: who came back first
    expect(ann.locator("section.outbox")).to_have_count(0)


def test_an_entry_the_server_refuses_is_shown_kept_and_fixed_in_its_form(
    phones: Phones, live_app: LiveApp, guard: Guard, shoot: Callable[..., Any]
) -> None:
    page = phones.open()
    new_match(page, "Double deck to 500", name="Basement")
    fill_new_deal(page, 40, (47, 20))  # below the minimum bid of 50
    with guard.offline(page):
        save_offline(page)
        expect(outbox(page)).to_contain_text("checked when sent")
        shoot(page, "offline-kept")
    refused = outbox(page).locator('[data-state="refused"]')
    expect(refused).to_contain_text("Not accepted", timeout=20_000)
    expect(refused).to_contain_text("50")  # what the rule asks for
    assert take_expected_errors(guard, r"status of 422 .*/deals/new$") == 1
    shoot(page, "offline-refused")
    follow(page, refused.get_by_role("link", name="Fix it"))
    bid = page.get_by_role("textbox", name="Bid")
    expect(bid).to_have_value("40")  # what was typed, back in the form
    type_number(bid, 50)
    save_deal(page)
    expect(page.locator(".totals")).to_be_visible()
    deals = server_match(live_app.base_url, public_id_of(page))["match"]["deals"]
    assert [deal["bid"] for deal in deals] == [50]


def test_entries_held_back_by_a_refused_one_say_that_nothing_is_sent_until_the_player_chooses(
    phones: Phones, live_app: LiveApp, guard: Guard
) -> None:
    page = phones.open()
    new_match(page, "Double deck to 500", name="Attic")
    fill_new_deal(page, 40, (47, 20))  # below the minimum bid of 50: refused when sent
    with guard.offline(page):
        save_offline(page)
        open_new_deal(page)
        fill_quick_deal(page, "They", 55, (20, 62))
        save_offline(page)
    expect(outbox(page).locator('[data-state="refused"]')).to_contain_text("Not accepted", timeout=20_000)
    assert take_expected_errors(guard, r"status of 422 .*/deals/new$") == 1
    # The deal after it waits for the player's choice, and the outbox says so rather than that it is sending.
    expect(outbox(page).locator("[data-outbox-status]")).to_have_text("Nothing more is sent until you choose below.")
    assert server_match(live_app.base_url, public_id_of(page))["match"]["deals"] == []
    outbox(page).get_by_role("button", name="Discard").tap()
    wait_until_sent(page)
    deals = server_match(live_app.base_url, public_id_of(page))["match"]["deals"]
    assert [deal["bid"] for deal in deals] == [55]
