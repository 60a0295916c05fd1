"""An offline edit of a deal another phone changed meanwhile is never applied blindly: the phone shows
both versions and does what the player chooses. An offline house-rule change is sent when back online."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import Guard, LiveApp, Phones
from .offline import wait_for_worker
from .outbox import outbox, public_id_of, ready_offline, server_match, take_expected_errors, wait_until_sent
from .table import follow, new_match, save_deal, type_number

pytestmark = [pytest.mark.browser, pytest.mark.service_worker]


def we_field(phone: Page, side: str) -> object:
    return phone.locator(".sides-quick").get_by_role("textbox", name=side)


def open_edit(phone: Page, number: int) -> None:
    phone.goto(phone.url.split("#")[0].split("/deals")[0])
    follow(phone, phone.get_by_role("link", name=f"Edit deal {number}", exact=True))


def totals_of(live_app: LiveApp, public_id: str, number: int) -> list[int]:
    deal = server_match(live_app.base_url, public_id)["match"]["deals"][number - 1]
    return [side["total"] for side in deal["sides"]]


def conflicting_edit(phones: Phones, live_app: LiveApp, guard: Guard) -> tuple[Page, str]:
    """A phone (returned, with the match's link) that corrected deal 1 offline, back online to find that another
    phone corrected it meanwhile: its outbox shows both versions and asks which to keep."""
    ann, bob = phones.open(), phones.open()
    link = new_match(ann, "Double deck to 500", name="Cabin", deals=[("We", 60, (67, 20))])
    public_id = public_id_of(ann)
    bob.goto(link)

    open_edit(ann, 1)
    type_number(we_field(ann, "We"), 70)
    ready_offline(ann)
    with guard.offline(ann):
        ann.get_by_role("button", name="Save deal").tap()
        expect(outbox(ann)).to_contain_text("Deal 1 corrected")
        expect(outbox(ann)).to_contain_text("Not sent yet")
        open_edit(bob, 1)  # meanwhile, another phone corrects the same deal
        type_number(we_field(bob, "They"), 25)
        save_deal(bob)
    conflict = outbox(ann)
    expect(conflict).to_contain_text("Deal 1 was changed on another phone", timeout=20_000)
    expect(conflict.locator("dd").first).to_contain_text("We 67, They 25")  # theirs
    expect(conflict.locator("dd").nth(1)).to_contain_text("We 70, They 20")  # mine, as typed
    assert totals_of(live_app, public_id, 1) == [67, 25]  # nothing applied blindly
    assert take_expected_errors(guard, r"status of 409 .*/deals/1/edit$") == 1  # the server's "changed since"
    return ann, public_id


@pytest.mark.parametrize("choice", ["Use mine", "Keep theirs"])
def test_an_offline_edit_of_a_deal_changed_elsewhere_shows_both_versions(
    phones: Phones, live_app: LiveApp, guard: Guard, choice: str
) -> None:
    ann, public_id = conflicting_edit(phones, live_app, guard)
    ann.get_by_role("button", name=choice).tap()
    wait_until_sent(ann)
    assert totals_of(live_app, public_id, 1) == ([70, 20] if choice == "Use mine" else [67, 25])
    assert len(server_match(live_app.base_url, public_id)["match"]["deals"]) == 1


class HeldRequests:
    """The outbox's requests for what the server has of a match (``/outbox?keys=…``; the service worker asks the
    same path with no ``keys`` for its offline copy) wait at the live app's door until released: the phone's outbox
    is caught half-way through asking the server."""

    def __init__(self, live_app: LiveApp, path: str) -> None:
        self.app, self.path = live_app.app, path
        self.inner = self.app.wsgi_app
        self.arrived, self.released = threading.Event(), threading.Event()

    def __enter__(self) -> HeldRequests:
        self.app.wsgi_app = self.held
        return self

    def __exit__(self, *exc: object) -> None:
        self.released.set()
        self.app.wsgi_app = self.inner

    def held(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("PATH_INFO") == self.path and "keys=" in environ.get("QUERY_STRING", ""):
            self.arrived.set()
            self.released.wait(30)
        return self.inner(environ, start_response)


def test_a_choice_made_while_the_outbox_is_asking_the_server_is_sent_after_it(
    phones: Phones, live_app: LiveApp, guard: Guard
) -> None:
    ann, public_id = conflicting_edit(phones, live_app, guard)
    with HeldRequests(live_app, f"/m/{public_id}/outbox") as held:
        ann.evaluate("window.dispatchEvent(new Event('online'))")  # the phone asks the server what it has
        assert held.arrived.wait(10)
        ann.get_by_role("button", name="Use mine").tap()  # while the answer is on its way
        expect(ann.get_by_role("button", name="Use mine")).to_have_count(0)
    wait_until_sent(ann)
    assert totals_of(live_app, public_id, 1) == [70, 20]


def test_a_house_rule_change_made_offline_is_sent_when_back(
    phones: Phones, live_app: LiveApp, guard: Guard
) -> None:
    page = phones.open()
    new_match(page, "Double deck to 500", name="Lake house", deals=[("We", 60, (67, 20))])
    public_id = public_id_of(page)
    page.goto(f"/m/{public_id}/rules")
    target = page.get_by_label("Play to", exact=True)
    target.fill("300")
    ready_offline(page)
    with guard.offline(page):
        page.get_by_role("button", name="Preview the change").tap()
        expect(outbox(page)).to_contain_text("House rules changed")
        expect(outbox(page)).to_contain_text("Not sent yet")
        assert server_match(live_app.base_url, public_id)["match"]["rules"]["target"] == 500
    wait_until_sent(page)
    assert server_match(live_app.base_url, public_id)["match"]["rules"]["target"] == 300


def test_a_house_rule_changed_offline_leaves_a_rule_changed_elsewhere_meanwhile_as_it_was_changed(
    phones: Phones, live_app: LiveApp, guard: Guard
) -> None:
    ann, bob = phones.open(), phones.open()
    new_match(ann, "Double deck to 500", name="Lake house", deals=[("We", 60, (67, 20))])
    public_id = public_id_of(ann)
    bob.goto(f"/m/{public_id}/rules")
    bob.get_by_label("Play to", exact=True).fill("300")
    ready_offline(bob)
    with guard.offline(bob):
        bob.get_by_role("button", name="Preview the change").tap()
        expect(outbox(bob)).to_contain_text("House rules changed")
        ann.goto(f"/m/{public_id}/rules")  # meanwhile, another phone lowers the minimum bid
        ann.get_by_label("Minimum opening bid", exact=True).fill("40")
        follow(ann, ann.get_by_role("button", name="Preview the change"))
        follow(ann, ann.get_by_role("button", name="Apply the change"))
    wait_until_sent(bob)
    rules = server_match(live_app.base_url, public_id)["match"]["rules"]
    assert (rules["target"], rules["min_bid"]) == (300, 40)


# The service worker's copies of a page taken away (every cache).
FORGET_SHEET = """async (path) => {
  for (const name of await caches.keys()) await (await caches.open(name)).delete(location.origin + path);
}"""


def test_a_phone_that_opened_only_the_house_rules_keeps_a_change_made_offline_on_that_page(
    phones: Phones, live_app: LiveApp, guard: Guard
) -> None:
    """The worker holds no copy of the sheet it never opened: the change is shown kept where it was made, not
    followed by the worker's "no connection" page in place of the sheet."""
    ann, bob = phones.open(), phones.open()
    new_match(ann, "Double deck to 500", name="Lake house")
    public_id = public_id_of(ann)
    bob.goto(f"/m/{public_id}/rules")  # a link to the house rules, followed
    wait_for_worker(bob)
    bob.reload()  # the worker now answers for the page
    bob.get_by_label("Play to", exact=True).fill("300")
    ready_offline(bob)
    bob.evaluate(FORGET_SHEET, f"/m/{public_id}")  # as before the worker has fetched the sheet along
    with guard.offline(bob):
        bob.get_by_role("button", name="Preview the change").tap()
        expect(outbox(bob)).to_contain_text("House rules changed")
        expect(bob.get_by_role("heading", name="No connection")).to_have_count(0)
    wait_until_sent(bob)
    assert server_match(live_app.base_url, public_id)["match"]["rules"]["target"] == 300


def test_a_deal_deleted_offline_is_deleted_when_back(phones: Phones, live_app: LiveApp, guard: Guard) -> None:
    page = phones.open()
    new_match(page, "Double deck to 500", name="Lake house", deals=[("We", 60, (67, 20)), ("They", 55, (20, 62))])
    public_id = public_id_of(page)
    page.goto(f"/m/{public_id}/deals/1/delete")
    page.get_by_role("button", name="Delete deal 1").focus()
    ready_offline(page)
    with guard.offline(page):
        page.get_by_role("button", name="Delete deal 1").tap()
        expect(outbox(page)).to_contain_text("Deal 1 deleted")
        assert len(server_match(live_app.base_url, public_id)["match"]["deals"]) == 2
    wait_until_sent(page)
    assert [deal["bid"] for deal in server_match(live_app.base_url, public_id)["match"]["deals"]] == [55]


@pytest.mark.parametrize(("change", "number"), [("correct", 3), ("correct", 4), ("delete", 3)])
def test_an_offline_change_of_a_deal_renumbered_by_a_delete_elsewhere_goes_to_that_deal(
    phones: Phones, live_app: LiveApp, guard: Guard, change: str, number: int
) -> None:
    """A deal corrected or deleted offline has one number less by the time the phone is back (another phone deleted
    deal 1): the change goes to that deal, never to the deal that took its number (which no phone changed)."""
    ann, bob = phones.open(), phones.open()
    new_match(ann, "Double deck to 500", name="Cabin",
              deals=[("We", 50, (60, 20)), ("They", 55, (20, 62)), ("We", 60, (67, 20)), ("They", 65, (10, 75))])
    public_id = public_id_of(ann)
    if change == "correct":
        open_edit(ann, number)
        type_number(we_field(ann, "We"), 70)
    else:
        ann.goto(f"/m/{public_id}/deals/{number}/delete")
        ann.get_by_role("button", name=f"Delete deal {number}").focus()  # a form in use: the phone reads the facts
    ready_offline(ann)
    with guard.offline(ann):
        if change == "correct":
            ann.get_by_role("button", name="Save deal").tap()
            expect(outbox(ann)).to_contain_text(f"Deal {number} corrected")
        else:
            ann.get_by_role("button", name=f"Delete deal {number}").tap()
            expect(outbox(ann)).to_contain_text(f"Deal {number} deleted")
        bob.goto(f"/m/{public_id}/deals/1/delete")  # meanwhile, another phone deletes deal 1
        follow(bob, bob.get_by_role("button", name="Delete deal 1"))
    wait_until_sent(ann)
    held = [(deal["bid"], [side["total"] for side in deal["sides"]])
            for deal in server_match(live_app.base_url, public_id)["match"]["deals"]]
    expected = {("correct", 3): [(55, [20, 62]), (60, [70, 20]), (65, [10, 75])],
                ("correct", 4): [(55, [20, 62]), (60, [67, 20]), (65, [70, 75])],
                ("delete", 3): [(55, [20, 62]), (65, [10, 75])]}
    assert held == expected[(change, number)]
    # The server's answer to the first send: changed since (409), or no such deal any more (404).
    take_expected_errors(guard, rf"status of 40[49] .*/deals/{number}/(edit|delete)$")
