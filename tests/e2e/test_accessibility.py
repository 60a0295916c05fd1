"""Accessibility of the main pages: axe-core, labels, the keyboard, and 200% zoom."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Literal

import pytest
from playwright.sync_api import Page, expect

from .conftest import MAIN_PAGE_NAMES, PHONE_AT_200_PERCENT, MainPages, Phones, in_each_scheme
from .table import deal_row, new_match, sheet_totals

pytestmark = pytest.mark.browser

BLOCKING_IMPACTS = {"serious", "critical"}

# Every form control a player can reach, with the name a screen reader gives it.
UNLABELLED_CONTROLS = """() => [...document.querySelectorAll("input, select, textarea")]
  .filter(el => el.type !== "hidden")
  .filter(el => {
    const byLabel = [...(el.labels || [])].map(label => label.textContent.trim()).join("");
    const byAria = (el.getAttribute("aria-label") || "").trim();
    const byIds = (el.getAttribute("aria-labelledby") || "").split(/\\s+/).filter(Boolean)
      .map(id => (document.getElementById(id) || {}).textContent || "").join("").trim();
    return !(byLabel || byAria || byIds);
  })
  .map(el => el.outerHTML.slice(0, 160))"""

# The primary control of each page: it must stay on screen at 200% zoom.
MAIN_CONTROL: dict[str, tuple[Literal["link", "button", "heading"], re.Pattern[str]]] = {
    "home": ("link", re.compile(r"New match")),
    "new-match": ("button", re.compile(r"Start the match")),
    "sheet": ("link", re.compile(r"Add deal \d+")),
    "deal-new": ("button", re.compile(r"Save deal")),
    "deal-edit": ("button", re.compile(r"Save deal")),
    "house-rules": ("button", re.compile(r"Preview the change")),
    "meld": ("button", re.compile(r"Count meld")),
    "rules": ("heading", re.compile(r".")),
    "import": ("button", re.compile(r"^Import$")),
}


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """Serious and critical axe-core violations (axe.js ships inside the Python package). The script goes into
    each document once: the same document checked again (its colour scheme switched) runs the axe it holds."""
    from axe_playwright_python.sync_playwright import DEFAULT_OPTIONS, Axe

    if not page.evaluate("() => typeof window.axe?.run === 'function'"):
        page.evaluate(Axe().axe_script)
    results = page.evaluate("options => axe.run(options)", DEFAULT_OPTIONS)
    return [v for v in results["violations"] if v["impact"] in BLOCKING_IMPACTS]


def describe(violations: list[dict[str, Any]]) -> str:
    lines = []
    for violation in violations:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"][:5]:
            lines.append(f"    {', '.join(map(str, node['target']))}: {node.get('failureSummary', '')!r}")
    return "\n".join(lines)


@pytest.mark.parametrize("name", MAIN_PAGE_NAMES)
def test_axe_finds_no_serious_violation_and_every_control_has_a_label(
    phones: Phones, main_pages: MainPages, shoot: Callable[[Page, str], Any], name: str
) -> None:
    """Each main page, light and then dark (the same page, its colour scheme switched)."""
    page = phones.open()
    response = main_pages.visit(page, name)
    assert response is not None and response.ok, f"{name} answered {response and response.status}"
    assert page.evaluate(UNLABELLED_CONTROLS) == []
    for scheme in in_each_scheme(page):
        shoot(page, f"page-{name}" + ("-dark" if scheme == "dark" else ""))
        violations = axe_violations(page)
        assert not violations, f"{name} ({scheme}):\n{describe(violations)}"


def test_axe_finds_no_serious_violation_on_pages_with_results(phones: Phones, main_pages: MainPages) -> None:
    """Pages that only show after an action: the meld breakdown, the rules preview, form errors, the sheet's
    deal entry panel."""
    page = phones.open()
    page.goto("/meld?cards=AH+10H+KH+QH+JH+QS+JD+AS+AC+AD&trump=H")
    expect(page.locator(".meld-breakdown").first).to_be_visible()
    found = {"meld result": axe_violations(page)}

    main_pages.visit(page, "house-rules")
    page.get_by_label("Play to", exact=True).fill("500")
    page.get_by_role("button", name="Preview the change").click()
    expect(page.get_by_role("heading", name="Preview the change")).to_be_visible()
    found["rules preview"] = axe_violations(page)

    page.goto("/matches/new")
    page.locator(".side-name input").nth(0).fill("Same")
    page.locator(".side-name input").nth(1).fill("Same")
    page.get_by_role("button", name="Start the match").click()
    expect(page.locator(".field-error").first).to_be_visible()
    found["form errors"] = axe_violations(page)

    main_pages.visit(page, "sheet")
    page.get_by_role("link", name=re.compile(r"Add deal \d+")).tap()
    expect(page.get_by_role("dialog").get_by_role("button", name="Save deal")).to_be_visible()
    found["entry panel"] = axe_violations(page)
    assert not any(found.values()), "\n".join(f"{where}:\n{describe(v)}" for where, v in found.items() if v)


def test_usable_at_200_percent_zoom(phones: Phones, main_pages: MainPages, shoot: Callable[..., Any]) -> None:
    """A 390px phone zoomed to 200% has 195 CSS pixels of width: on each main page nothing needs sideways
    scrolling, and the page's primary control can be brought on screen whole."""
    page = phones.open(**PHONE_AT_200_PERCENT)
    problems = []
    for name in MAIN_PAGE_NAMES:
        main_pages.visit(page, name)
        shoot(page, f"zoom-200-{name}", full_page=False)
        widths = page.evaluate(
            "() => ({page: document.documentElement.scrollWidth, view: document.documentElement.clientWidth})"
        )
        if widths["page"] > widths["view"]:
            problems.append(f"{name} scrolls sideways at 200%: {widths}")
        role, label = MAIN_CONTROL[name]
        control = page.get_by_role(role, name=label).first
        control.scroll_into_view_if_needed()
        expect(control, f"{name}: {role} {label.pattern!r} is not on screen").to_be_in_viewport()
        box = control.bounding_box()
        if box is None or box["x"] < 0 or box["x"] + box["width"] > widths["view"] + 0.5:
            problems.append(f"{name}: {role} {label.pattern!r} sticks out of the 195px view: {box}")
    assert problems == [], "\n".join(problems)


def test_deal_form_by_keyboard_alone(page: Page) -> None:
    """Tab through the deal form, choose with the space bar, type numbers, submit with Enter."""
    new_match(page, "Double deck to 500")
    page.goto(page.url + "/deals/new")
    expected_stops = page.evaluate(
        """() => [...document.querySelectorAll(".deal-form :is(input, select, textarea, button, a, summary)")]
          .filter(el => el.type !== "hidden" && el.tabIndex >= 0 && !el.disabled && el.getClientRects().length)
          .filter(el => el.tagName === "SUMMARY" || !el.closest("details:not([open])"))
          .filter(el => el.type !== "radio" || el.checked
                  || !document.querySelector(`.deal-form input[type=radio][name="${el.name}"]:checked`)
                     && el === document.querySelector(`.deal-form input[type=radio][name="${el.name}"]`))
          .map(el => el.name || el.textContent.trim())"""
    )

    visited: list[str] = []
    page.locator("body").focus()
    for _ in range(60):
        page.keyboard.press("Tab")
        focused = page.evaluate(
            """() => { const el = document.activeElement;
                       return {inForm: !!el.closest(".deal-form"), name: el.name || el.textContent.trim(),
                               type: el.type || el.tagName.toLowerCase(), value: el.value || ""}; }"""
        )
        if not focused["inForm"]:
            if visited:
                break
            continue
        visited.append(focused["name"])
        if focused["name"] == "bidder":
            page.keyboard.press("Space")  # the first side, We, wins the bid
        elif focused["name"] == "bid":
            page.keyboard.press("ControlOrMeta+A")
            page.keyboard.type("60")
        elif focused["name"] == "sides-0-total":
            page.keyboard.type("67")
        elif focused["name"] == "sides-1-total":
            page.keyboard.type("20")
        elif focused["name"] == "Trump":
            page.keyboard.press("Enter")  # unfold the trump choices
        elif focused["name"] == "trump":
            page.keyboard.press("ArrowRight")  # from "None" to spades
            page.keyboard.press("ArrowRight")  # and on to hearts
    missed = [stop for stop in expected_stops if stop not in visited]
    assert not missed, f"never reached by Tab: {missed}; reached: {visited}"

    page.get_by_role("button", name="Save deal").focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert sheet_totals(page) == {"We": 67, "They": 20}
    expect(deal_row(page, 1)).to_contain_text("We")
    expect(deal_row(page, 1)).to_contain_text("60")
    page.get_by_role("link", name="Edit deal 1").click()
    expect(page.locator("summary", has_text="Trump")).to_contain_text("Hearts")
