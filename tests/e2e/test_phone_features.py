"""What a phone does beyond the page: keep the screen on during a match; times and names in its own zone."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import Page, expect

from .conftest import MainPages, Phones
from .table import follow, new_match, start_match
from .test_house_rules import preview_target

pytestmark = pytest.mark.browser

CHICAGO = ZoneInfo("America/Chicago")


@pytest.mark.full_chromium
def test_the_screen_stays_on_while_the_box_is_ticked(page: Page, main_pages: MainPages) -> None:
    main_pages.visit(page, "sheet")
    box = page.locator("[data-wake-lock]")
    toggle = page.get_by_label("Keep the screen on during the match")
    expect(toggle).to_be_visible()
    expect(toggle).not_to_be_checked()
    toggle.check()
    expect(box).to_have_attribute("data-locked", "true")
    page.reload()  # the choice is kept, and the lock taken again on the new page
    expect(page.get_by_label("Keep the screen on during the match")).to_be_checked()
    expect(page.locator("[data-wake-lock]")).to_have_attribute("data-locked", "true")
    page.get_by_label("Keep the screen on during the match").uncheck()
    expect(page.locator("[data-wake-lock]")).to_have_attribute("data-locked", "false")


# Keeps every lock the page takes (the browser's own), so that the test can let one go as the browser
# does when the phone hides the page.
KEEP_LOCKS = """
  const request = WakeLock.prototype.request;
  window.locks = [];
  WakeLock.prototype.request = function (...args) {
    return request.apply(this, args).then(lock => { window.locks.push(lock); return lock; });
  };
"""


@pytest.mark.full_chromium
def test_the_lock_is_taken_again_when_the_phone_comes_back(phones: Phones, main_pages: MainPages) -> None:
    page = phones.open()
    page.add_init_script(KEEP_LOCKS)
    main_pages.visit(page, "sheet")
    page.get_by_label("Keep the screen on during the match").check()
    box = page.locator("[data-wake-lock]")
    expect(box).to_have_attribute("data-locked", "true")
    page.evaluate("() => window.locks[0].release()")  # what the browser does when the page is hidden
    expect(box).to_have_attribute("data-locked", "false")
    page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")  # shown again
    expect(box).to_have_attribute("data-locked", "true")
    assert page.evaluate("() => window.locks.map(lock => lock.released)") == [True, False]


def test_without_wake_lock_the_box_is_not_shown(phones: Phones, main_pages: MainPages) -> None:
    page = phones.open()
    page.add_init_script("delete Navigator.prototype.wakeLock;")
    main_pages.visit(page, "sheet")
    expect(page.get_by_role("link", name=re.compile(r"Add deal"))).to_be_visible()
    expect(page.locator("[data-wake-lock]")).to_be_hidden()


def chicago_evening() -> datetime:
    """23:30 in Chicago on the day before today's date in UTC: already tomorrow in UTC."""
    utc_today = datetime.now(UTC).date()
    return datetime(utc_today.year, utc_today.month, utc_today.day, 23, 30, tzinfo=CHICAGO) - timedelta(days=1)


def test_a_match_started_on_a_chicago_evening_is_named_after_the_phones_day(phones: Phones) -> None:
    evening = chicago_evening()
    assert evening.astimezone(UTC).date() != evening.date()  # the UTC date is the next day
    page = phones.open(timezone_id="America/Chicago")
    page.clock.set_fixed_time(evening)
    start_match(page, "Double deck to 500")
    expect(page.locator("h1.match-title")).to_have_text(f"We v They, {evening:%d %b %Y}")


def test_without_scripts_the_name_takes_the_day_in_utc(phones: Phones) -> None:
    page = phones.open(timezone_id="America/Chicago", java_script_enabled=False)
    start_match(page, "Double deck to 500")
    expect(page.locator("h1.match-title")).to_have_text(f"We v They, {datetime.now(UTC):%d %b %Y}")


def test_a_rule_change_is_timed_in_the_phones_zone(phones: Phones) -> None:
    page = phones.open(timezone_id="America/Chicago", locale="en-US")
    new_match(page, "Double deck to 500")
    preview_target(page, 400)
    follow(page, page.get_by_role("button", name="Apply the change"))
    follow(page, page.get_by_role("navigation", name="Match tools").get_by_role("link", name="House rules"))
    moment = page.locator(".change-list time")
    stamp = datetime.fromisoformat(str(moment.get_attribute("datetime")).replace("Z", "+00:00"))
    local = stamp.astimezone(CHICAGO)
    expect(moment).not_to_contain_text("UTC")
    expect(moment).to_contain_text(f"{local:%b} {local.day}, {local.year}")
    hour = local.hour % 12 or 12
    expect(moment).to_contain_text(re.compile(rf"\b{hour}:{local:%M}\s?{local:%p}"))


def test_without_scripts_a_rule_change_is_timed_in_utc_and_says_so(phones: Phones) -> None:
    page = phones.open(java_script_enabled=False)
    new_match(page, "Double deck to 500")
    preview_target(page, 400)
    follow(page, page.get_by_role("button", name="Apply the change"))
    follow(page, page.get_by_role("navigation", name="Match tools").get_by_role("link", name="House rules"))
    expect(page.locator(".change-list time")).to_have_text(re.compile(r"^\d\d \w{3} \d{4} \d\d:\d\d UTC$"))



@pytest.mark.full_chromium
def test_a_page_with_no_icon_of_its_own_gets_the_apps_icon_rather_than_a_missing_file(page: Page) -> None:
    # The full Chromium asks for /favicon.ico when a page declares no icon (a JSON answer opened on its own),
    # out of the page's sight but for the DevTools protocol's network events; a 404 there would also be a
    # console error, which the guard fails the test on.
    icons: list[tuple[int, str]] = []
    network = page.context.new_cdp_session(page)
    network.on("Network.responseReceived", lambda event: icons.append(
        (event["response"]["status"], event["response"]["mimeType"]))
        if event["response"]["url"].endswith("/favicon.ico") else None)
    network.send("Network.enable")
    page.goto("/manifest.webmanifest")
    for _ in range(100):  # until the browser has asked (its events come in while the page waits)
        if icons:
            break
        page.wait_for_timeout(100)
    assert icons == [(200, "image/vnd.microsoft.icon")]
