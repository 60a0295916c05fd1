"""A save on a network that fails while the phone believes it is online (the connection refused, or the
answer lost on the way back): the deal is kept on the phone, shown "not sent yet", never lost, and sent
once when the server answers again."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Route, expect

from .conftest import Guard, LiveApp, Phones
from .offline import wait_for_worker, wait_until_kept
from .outbox import is_replay, outbox, public_id_of, ready_offline, server_match, take_expected_errors, wait_until_sent
from .samples import worked_sheet_file
from .table import fill_quick_deal, follow, import_match, new_match, open_new_deal, type_number

pytestmark = [pytest.mark.browser, pytest.mark.service_worker]


@pytest.mark.parametrize("failure", ["connection refused", "answer lost"])
def test_a_save_that_gets_no_answer_is_kept_and_sent_once(
    phones: Phones, live_app: LiveApp, guard: Guard, failure: str
) -> None:
    page = phones.open()
    sheet = new_match(page, "Double deck to 500", name="Lake house")
    public_id = public_id_of(page)
    wait_for_worker(page)
    page.goto(sheet)
    wait_until_kept(page, sheet)
    open_new_deal(page)
    fill_quick_deal(page, "They", 55, (20, 62))
    ready_offline(page)

    server = {"up": False}
    keys_sent: list[str] = []

    def unreachable_server(route: Route) -> None:
        request = route.request
        if is_replay(request):
            keys_sent.append(request.headers["idempotency-key"])
        if server["up"]:
            route.fallback()
        elif failure == "answer lost" and request.method == "POST" and request.url.endswith("/deals/new") \
                and not is_replay(request):
            route.fetch()  # the server saves the deal ...
            route.abort("connectionreset")  # ... and its answer never reaches the phone
        else:
            route.abort("connectionrefused")

    page.context.route("**/*", unreachable_server)
    page.get_by_role("button", name="Save deal").tap()
    kept = outbox(page).locator("li.outbox-entry")
    expect(kept).to_have_count(1)
    expect(kept).to_contain_text("Not sent yet")
    expect(kept).to_contain_text("They bid 55")  # what was typed, kept
    expect(kept).to_contain_text("They 62")
    expect(page).to_have_url(re.compile(rf"/m/{public_id}#outbox$"))  # the sheet, not the browser's error page
    assert page.evaluate("navigator.onLine")
    saved_before = len(server_match(live_app.base_url, public_id)["match"]["deals"])
    assert saved_before == (1 if failure == "answer lost" else 0)

    server["up"] = True  # the server answers again: the outbox sends the deal by itself
    wait_until_sent(page)
    deals = server_match(live_app.base_url, public_id)["match"]["deals"]
    assert [(deal["bid"], deal["sides"]) for deal in deals] == [(55, [{"total": 20}, {"total": 62}])]
    assert len(keys_sent) == len(set(keys_sent)) <= 1  # sent once (or found done, under its key)
    take_expected_errors(guard, r"ERR_CONNECTION_REFUSED|ERR_CONNECTION_RESET|ERR_FAILED")


@pytest.mark.parametrize("form", ["house rules", "rescale", "undo"])
def test_a_rules_form_that_gets_no_answer_is_kept_and_sent_once(
    phones: Phones, live_app: LiveApp, guard: Guard, form: str
) -> None:
    """The house rules, rescale and undo forms carry a write key too: on a network that looks up but is not,
    the entry waits in the outbox rather than the browser's error page, and is one change when sent."""
    host = phones.open()
    link = import_match(host, worked_sheet_file("Rules with no answer"))
    public_id = public_id_of(host)
    follow(host, host.get_by_role("navigation", name="Match tools").get_by_role("link", name="House rules"))
    follow(host, host.get_by_role("button", name="Rescale ×10"))  # a change in the history, to undo
    follow(host, host.get_by_role("button", name="Apply the rescale ×10"))
    page = phones.open()
    page.goto(link)  # a phone that opened the sheet only: the rules page is in its kit
    wait_until_kept(page, f"/m/{public_id}/outbox")
    before = server_match(live_app.base_url, public_id)["version"]

    server = {"up": False}
    page.context.route("**/*", lambda route: route.fallback() if server["up"] else route.abort("connectionrefused"))
    follow(page, page.get_by_role("navigation", name="Match tools").get_by_role("link", name="House rules"))
    if form == "house rules":
        type_number(page.get_by_label("Play to", exact=True), 400)
        page.get_by_role("button", name="Preview the change").tap()
    elif form == "rescale":
        page.get_by_role("button", name="Rescale ÷10").tap()
    else:
        page.locator(".change-list").get_by_role("button", name="Undo").tap()
    kept = outbox(page).locator("li.outbox-entry")
    expect(kept).to_have_count(1)
    expect(kept).to_contain_text("Not sent yet")
    expect(page).to_have_url(re.compile(rf"/m/{public_id}#outbox$"))  # the sheet, not the browser's error page
    assert page.evaluate("navigator.onLine")

    server["up"] = True
    wait_until_sent(page)
    held = server_match(live_app.base_url, public_id)
    assert held["version"] == before + 1  # one change
    assert held["match"]["rules"]["target"] == {"house rules": 400, "rescale": 300, "undo": 300}[form]
    take_expected_errors(guard, r"ERR_CONNECTION_REFUSED|ERR_FAILED")
