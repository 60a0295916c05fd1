"""What a player sees on a phone: text stays inside its box, and states that mean different things
look different, in light and dark."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from .conftest import PHONE_AT_200_PERCENT, SMALL_PHONE_AT_200_PERCENT, MainPages, Phones, in_each_scheme
from .event import make_event
from .pixels import read_png
from .samples import worked_sheet_file
from .table import import_match, open_folds, sheet_totals
from .test_house_rules import preview_target

pytestmark = pytest.mark.browser

# Each matched element whose text runs past the element's own box, by how many pixels.
# The text colour an element of a class gets.
COLOR_OF_CLASS = """name => { const probe = document.createElement("span"); probe.className = name;
    document.body.append(probe); const color = getComputedStyle(probe).color; probe.remove(); return color; }"""

TEXT_OUTSIDE_ITS_BOX = """selector => [...document.querySelectorAll(selector)].map(el => {
    const box = el.getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(el);
    const text = range.getBoundingClientRect();
    return {text: el.textContent.trim(), left: box.left - text.left, right: text.right - box.right};
  }).filter(found => found.left > 0.5 || found.right > 0.5)"""


def three_sides_past_the_target() -> dict[str, Any]:
    """Two of three sides past 1000: both totals read 'reached 1000'."""
    return {
        "format": "pinochle-match/1",
        "name": "Three at the club",
        "sides": [{"name": "North", "players": []}, {"name": "East", "players": []},
                  {"name": "South", "players": []}],
        "rules": {"target": 1000, "deck": "single", "meld_table": "single-classic", "trick_scale": "ten-point",
                  "min_bid": 250, "last_trick": 10, "must_win_own_bid": True},
        "deals": [
            {"bidder": 0, "bid": 300, "sides": [{"total": 600}, {"total": 500}, {"total": 120}]},
            {"bidder": 1, "bid": 300, "sides": [{"total": 500}, {"total": 550}, {"total": 0}]},
        ],
    }


def test_three_totals_keep_their_text_inside_their_boxes(phones: Phones, shoot: Callable[..., Any]) -> None:
    page = phones.open()
    import_match(page, three_sides_past_the_target())
    assert sheet_totals(page) == {"North": 1100, "East": 1050, "South": 120}
    expect(page.locator(".total-to-go").first).to_have_text("reached 1000")
    for scheme in in_each_scheme(page):
        shoot(page, f"sheet-three-sides-{scheme}", full_page=False)
        assert page.evaluate(TEXT_OUTSIDE_ITS_BOX, ".total-points, .total-to-go") == [], scheme


BIDDER_LOOK = """number => {
    const row = document.getElementById(`deal-${number}`);
    const style = el => getComputedStyle(el);
    return {cell: style(row.querySelector("td.bidder")).backgroundColor,
            badge: style(row.querySelector(".status")).backgroundColor,
            badgeText: style(row.querySelector(".status")).color};
  }"""


def test_a_thrown_in_bid_reads_as_lost_like_a_set_one(page: Page, main_pages: MainPages) -> None:
    main_pages.visit(page, "sheet")
    made, set_, thrown_in = 1, 3, 20  # deals of the sample match
    expect(page.locator(f"#deal-{set_} .status")).to_have_text("set")
    expect(page.locator(f"#deal-{thrown_in} .status")).to_have_text("thrown in")
    for scheme in in_each_scheme(page):
        looks = {number: page.evaluate(BIDDER_LOOK, number) for number in (made, set_, thrown_in)}
        assert looks[thrown_in] == looks[set_], scheme
        assert looks[thrown_in]["cell"] != looks[made]["cell"], scheme


# Every option of every visible list whose text is wider than the list shows it: the text of a
# closed list is cut at its right edge, before the arrow (allowed for: 24 px).
OPTIONS_CUT_OFF = """() => [...document.querySelectorAll("select")].filter(s => s.getClientRects().length)
  .flatMap(select => {
    const style = getComputedStyle(select);
    const pen = document.createElement("canvas").getContext("2d");
    pen.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 24;
    return [...select.options].filter(option => pen.measureText(option.text).width > room)
      .map(option => `${select.name}: ${option.text}`);
  })"""


@pytest.mark.parametrize("name", ["new-match", "house-rules", "meld"])
def test_every_choice_in_a_list_reads_in_full(page: Page, main_pages: MainPages, name: str) -> None:
    main_pages.visit(page, name)
    for fold in page.locator("details.fold:not([open]) > summary").all():
        fold.click()
    assert page.evaluate(OPTIONS_CUT_OFF) == []


def edge_shading(wrap: Locator) -> dict[str, float]:
    """How much of each edge of a scrolling box is shaded: of the pixel rows that show the box's plain
    background 16 px in from the edge, the share whose pixel 1 px from the edge is darker or lighter
    (a shade fades out within 15 px; coloured cells cover it)."""
    plain = tuple(int(part) for part in re.findall(r"\d+", wrap.evaluate("el => getComputedStyle(el).backgroundColor")))
    box = wrap.bounding_box()
    assert box is not None

    def strip(left: float) -> Any:
        """The 18 px wide strip of the box from ``left`` (a picture of the edge only: quicker to read)."""
        clip = {"x": box["x"] + left, "y": box["y"], "width": 18, "height": box["height"]}
        return read_png(wrap.page.screenshot(clip=clip, scale="css"))

    def apart(first: tuple[int, ...], second: tuple[int, ...]) -> bool:
        return max(abs(a - b) for a, b in zip(first, second)) > 6

    def shaded(picture: Any, edge: int, inner: int) -> float:
        rows = [(picture.pixel(edge, y), picture.pixel(inner, y)) for y in range(picture.height)]
        background = [(at_edge, inside) for at_edge, inside in rows if not apart(inside, plain[:3])]
        assert len(background) > picture.height / 4, "too little plain background to judge"
        return sum(apart(at_edge, inside) for at_edge, inside in background) / len(background)

    return {"left": shaded(strip(0), 1, 17), "right": shaded(strip(box["width"] - 18), 16, 0)}


def test_wide_tables_on_the_rules_page_show_that_they_scroll(phones: Phones, shoot: Callable[..., Any]) -> None:
    page = phones.open()
    page.goto("/rules")
    wraps = page.locator(".rules-page .sheet-wrap")
    expect(wraps).to_have_count(3)
    for scheme in in_each_scheme(page):
        for wrap in wraps.all():
            wrap.evaluate("el => { el.scrollLeft = 0; }")
            wrap.scroll_into_view_if_needed()
            assert wrap.evaluate("el => el.scrollWidth > el.clientWidth"), "this table fits: nothing to show"
            at_start = edge_shading(wrap)
            wrap.evaluate("el => { el.scrollLeft = el.scrollWidth; }")
            at_end = edge_shading(wrap)
            assert at_start["right"] > 0.9 and at_start["left"] < 0.1, (scheme, at_start)
            assert at_end["left"] > 0.9 and at_end["right"] < 0.1, (scheme, at_end)
        wraps.first.evaluate("el => { el.scrollLeft = 0; }")
        wraps.first.scroll_into_view_if_needed()
        shoot(page, f"rules-presets-table-{scheme}", full_page=False)


def test_the_score_sheet_fits_at_200_percent(phones: Phones, main_pages: MainPages) -> None:
    """The match's sheet never scrolls sideways (its header stays at the top instead): at 200% too."""
    page = phones.open(**PHONE_AT_200_PERCENT)
    main_pages.visit(page, "sheet")
    wrap = page.locator(".match-sheet").first
    assert wrap.evaluate("el => el.scrollWidth <= el.clientWidth")
    assert page.evaluate("() => document.scrollingElement.scrollWidth <= document.scrollingElement.clientWidth")


def contrast(first: str, second: str) -> float:
    """WCAG contrast ratio of two CSS colours as computed styles give them ('rgb(…)')."""

    def luminance(css: str) -> float:
        channels = [int(part) / 255 for part in re.findall(r"\d+", css)[:3]]
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


# The colour at the outline of each segment: its border if it has one, else its fill, else the track.
SEGMENT_LOOK = r"""() => {
    const track = document.querySelector(".segmented");
    const trackColor = getComputedStyle(track).backgroundColor;
    const seen = color => !/^rgba\(.*,\s*0\)$/.test(color);
    const edge = input => {
      const style = getComputedStyle(input.nextElementSibling);
      if (style.borderTopStyle !== "none" && parseFloat(style.borderTopWidth) > 0 && seen(style.borderTopColor)) {
        return style.borderTopColor;
      }
      return seen(style.backgroundColor) ? style.backgroundColor : trackColor;
    };
    return {track: trackColor, chosen: edge(track.querySelector("input:checked")),
            other: edge(track.querySelector("input:not(:checked)"))};
  }"""


def test_the_chosen_way_of_entering_a_deal_stands_out(
    page: Page, main_pages: MainPages, shoot: Callable[..., Any]
) -> None:
    main_pages.visit(page, "deal-new")
    for scheme in in_each_scheme(page):
        for choice in ("Meld + tricks", "One number"):
            page.get_by_role("radio", name=choice).tap()
            look = page.evaluate(SEGMENT_LOOK)
            # WCAG 1.4.11: the state of a control is shown at 3:1 against what is next to it.
            assert contrast(look["chosen"], look["track"]) >= 3, (scheme, look)
            assert contrast(look["other"], look["track"]) < 1.5, (scheme, look)
        shoot(page, f"deal-new-segments-{scheme}", full_page=False)


def test_the_ways_of_entering_a_deal_stay_in_their_track_at_200_percent(
    phones: Phones, main_pages: MainPages
) -> None:
    page = phones.open(**PHONE_AT_200_PERCENT)
    main_pages.visit(page, "deal-new")
    track = page.locator(".segmented").bounding_box()
    assert track is not None
    for segment in page.locator(".segment span").all():
        box = segment.bounding_box()
        assert box is not None
        assert track["x"] <= box["x"] and box["x"] + box["width"] <= track["x"] + track["width"], (box, track)
        assert track["y"] <= box["y"] and box["y"] + box["height"] <= track["y"] + track["height"], (box, track)


CARD_ROWS = """() => [...document.querySelectorAll(".face-suit")].map(row =>
    [...row.querySelectorAll(".face")].filter(card => card.getClientRects().length).map(card => {
      const box = card.getBoundingClientRect();
      return {top: Math.round(box.top), width: Math.round(box.width)};
    }))"""


@pytest.mark.parametrize(("deck", "ranks"), [("double", 5), ("single", 6)])
def test_the_calculator_lays_each_suit_out_as_one_even_row(
    page: Page, shoot: Callable[..., Any], deck: str, ranks: int
) -> None:
    page.goto(f"/meld?deck={deck}")
    rows = page.evaluate(CARD_ROWS)
    assert len(rows) == 4
    for row in rows:
        assert len(row) == ranks
        assert len({card["top"] for card in row}) == 1, row
        assert max(card["width"] for card in row) - min(card["width"] for card in row) <= 1, row
    expect(page.locator(".suits")).to_contain_text("♥ Hearts")
    page.locator(".face-grid").scroll_into_view_if_needed()
    for scheme in in_each_scheme(page):
        assert page.evaluate(TEXT_OUTSIDE_ITS_BOX, ".face-add") == [], scheme
        shoot(page, f"meld-cards-{deck}-{scheme}", full_page=False)


def test_a_lost_bid_is_written_in_red(page: Page, main_pages: MainPages) -> None:
    main_pages.visit(page, "sheet")
    lost = page.locator("#deal-3 td.bidder .hand")  # the sample's deal 3: We bid 60 and were set
    expect(lost).to_have_text("−60")
    for scheme in in_each_scheme(page):
        red = page.locator("#deal-3 .status").evaluate("el => getComputedStyle(el).color")
        assert lost.evaluate("el => getComputedStyle(el).color") == red, scheme


def test_trump_choices_sit_two_by_two_under_none(page: Page, main_pages: MainPages) -> None:
    main_pages.visit(page, "deal-edit")
    page.locator("summary", has_text="Trump").click()
    boxes = []
    for choice in page.locator(".suits .choice").all():
        box = choice.bounding_box()
        assert box is not None
        boxes.append(box)
    assert len(boxes) == 5
    none, *suits = boxes
    assert len({round(box["width"]) for box in suits}) == 1, suits
    assert len({round(box["y"]) for box in suits}) == 2 and len({round(box["x"]) for box in suits}) == 2, suits
    assert none["width"] > 2 * suits[0]["width"]


def test_the_preview_boxes_line_up_and_a_negative_total_is_red(page: Page, shoot: Callable[..., Any]) -> None:
    import_match(page, worked_sheet_file())
    preview_target(page, 200)  # They end at −20
    now, after = page.locator(".compare .card").all()
    heights = [box.locator("h2").evaluate("el => el.getBoundingClientRect().height") for box in (now, after)]
    assert heights[1] > heights[0] * 1.5, "the longer heading fits on one line: nothing to line up"
    tops = [box.locator(".compare-totals").evaluate("el => el.getBoundingClientRect().top") for box in (now, after)]
    assert abs(tops[0] - tops[1]) < 1, tops
    negative = after.locator(".compare-totals strong", has_text="−20")
    positive = after.locator(".compare-totals strong", has_text="200")
    for scheme in in_each_scheme(page):
        # The same red as a lost bid on the score sheet, where the class "negative" paints it.
        red = page.evaluate(COLOR_OF_CLASS, "negative")
        assert negative.evaluate("el => getComputedStyle(el).color") == red, scheme
        assert positive.evaluate("el => getComputedStyle(el).color") != red, scheme
        shoot(page, f"house-rules-preview-{scheme}", full_page=False)


def test_the_red_suits_are_red_on_the_trump_buttons(
    page: Page, main_pages: MainPages, shoot: Callable[..., Any]
) -> None:
    main_pages.visit(page, "deal-new")
    page.locator("summary", has_text="Trump").click()
    colors = "el => [getComputedStyle(el).color, getComputedStyle(el.parentElement).color]"
    for scheme in in_each_scheme(page):
        # The colour of a card's red sign in the meld calculator.
        red = page.evaluate(COLOR_OF_CLASS, "suit-red")
        for name, sign, is_red in [("Spades", "♠", False), ("Hearts", "♥", True), ("Diamonds", "♦", True),
                                   ("Clubs", "♣", False)]:
            radio = page.get_by_role("radio", name=f"{sign} {name}", exact=True)
            expect(radio).to_have_count(1)
            button = page.locator(".suits .choice", has=radio)
            assert button.evaluate("el => el.innerText.trim()") == f"{sign} {name}"  # the space is shown too
            shown, text = button.get_by_text(sign, exact=True).evaluate(colors)
            assert text != red, (scheme, name)
            assert shown == (red if is_red else text), (scheme, name)
        shoot(page, f"deal-new-trump-{scheme}", full_page=False)


# How many lines the text at the end of an element takes, and how far it reaches right of the window.
TEXT_LINES = """el => { const range = document.createRange(); range.selectNodeContents(el.lastChild);
    const lines = new Set([...range.getClientRects()].map(rect => Math.round(rect.bottom)));
    return {lines: lines.size, overflow: range.getBoundingClientRect().right - window.innerWidth}; }"""


@pytest.mark.parametrize("name", ["sheet", "deal-new", "meld"])
def test_the_app_name_stays_on_one_line_at_200_percent(
    phones: Phones, main_pages: MainPages, shoot: Callable[..., Any], name: str
) -> None:
    page = phones.open(**PHONE_AT_200_PERCENT)
    main_pages.visit(page, name)
    brand = page.get_by_role("link", name="Pinochle score")
    expect(brand).to_have_count(1)
    layout = brand.evaluate(TEXT_LINES)
    assert layout["lines"] == 1 and layout["overflow"] <= 0, layout
    if name == "sheet":
        shoot(page, "topbar-200-percent", full_page=False)


# The deal form's Save bar, and the field in focus: whether the bar covers it.
SAVE_BAR_AND_FOCUS = """() => {
    const bar = document.querySelector(".deal-form .action-bar").getBoundingClientRect();
    const focused = document.activeElement;
    const field = focused.getBoundingClientRect();
    return {bar: bar.height, screen: window.innerHeight, inBar: Boolean(focused.closest(".action-bar")),
            field: focused.name || focused.textContent.trim(),
            covered: field.bottom > bar.top + 0.5 && field.top < bar.bottom - 0.5};
  }"""


def save_bar_keeps_clear_of_the_focus(page: Page) -> None:
    """Tab from the top of the deal form to its Save button: the bar takes at most a quarter of the screen
    and never covers the field in focus."""
    # Tab goes on from the page's first link (from the element last in focus, were it only blurred).
    page.evaluate("() => { window.scrollTo(0, 0); document.querySelector('a[href]').focus(); }")
    covered = []
    for _ in range(80):
        page.keyboard.press("Tab")
        look = page.evaluate(SAVE_BAR_AND_FOCUS)
        assert look["bar"] <= look["screen"] / 4, look
        if look["inBar"]:
            break
        if look["covered"]:
            covered.append(look["field"])
    else:
        pytest.fail("Tab never reached the Save button")
    assert covered == [], f"the Save bar covers {covered}"


@contextmanager
def browser_text_size(page: Page, pixels: int) -> Iterator[None]:
    """The browser's own text size setting (its default font size, 16 pixels unless changed): unlike a page's
    root font size, what a media query counts in rem follows it."""
    browser = page.context.new_cdp_session(page)
    browser.send("Page.setFontSizes", {"fontSizes": {"standard": pixels, "fixed": pixels * 13 // 16}})
    try:
        yield
    finally:
        browser.send("Page.setFontSizes", {"fontSizes": {"standard": 16, "fixed": 13}})
        browser.detach()


EVENT_PAGES = ["event-new", "event-director", "event-standings"]
AT_100_PERCENT = {"width": 320, "height": 640}  # the small phone's screen with its text at 100%


def test_no_page_scrolls_sideways_on_a_320_px_phone_at_200_percent_nor_at_100(
    phones: Phones, main_pages: MainPages, shoot: Callable[..., Any]
) -> None:
    """One small phone at 200% visits every page (and a table's, an event's): none scrolls sideways, whatever is
    folded open, nor once the phone's text is back to 100% (the screen 320 CSS pixels wide again), nor with the
    browser's own text size at 200% on that screen; on the deal form the Save bar keeps clear of the field in
    focus at 200% and with the browser's text size at 200%."""
    from .test_sheet_at_a_glance import OVERFLOW, PAGE_NAMES, every_page
    from .test_tables import make_table

    page = phones.open(**SMALL_PHONE_AT_200_PERCENT)
    page.goto(main_pages.paths()["sheet"])  # a phone that has the match
    steps = every_page(page, main_pages)
    table = ""

    def table_page(path: str) -> Callable[[], None]:
        def visit() -> None:
            nonlocal table
            table = table or make_table(page)
            page.goto(table + path)
        return visit

    steps |= {"meld-prices": lambda: page.goto(main_pages.paths()["house-rules"] + "/meld") and None,
              "table": table_page(""), "table-stats": table_page("/stats"),
              "table-new-match": table_page("/matches/new")}
    event = make_event(page)
    steps |= {"event-new": lambda: page.goto("/events/new") and None,
              "event-director": lambda: page.goto(event.director) and None,
              "event-standings": lambda: page.goto(event.standings) and None}
    scrolling = {}
    for name in [*PAGE_NAMES, "meld-prices", "table", "table-stats", "table-new-match", *EVENT_PAGES]:
        if name == "not-found":
            with phones.guard.expect_refusal(404):
                steps[name]()
        else:
            steps[name]()
        if name == "sheet-2-sides":  # the sheet's key waits behind a "?"
            key = page.get_by_text("Top number: the running total")
            expect(key).to_be_hidden()
            page.get_by_label("How to read the sheet").click()
            expect(key).to_be_visible()
        for fold in page.locator("details:not([open]) > summary").all():
            if fold.is_visible():
                fold.click()
        if name in {"deal-quick", "deal-detailed"}:
            save_bar_keeps_clear_of_the_focus(page)
            page.set_viewport_size(AT_100_PERCENT)
            with browser_text_size(page, 32):  # the browser's text size at 200% on the 320 pixel screen
                save_bar_keeps_clear_of_the_focus(page)
            page.set_viewport_size(SMALL_PHONE_AT_200_PERCENT["viewport"])
        # The phone as it stands (200%, the browser's text at its 16 pixels), its screen at 100%, then the browser's
        # text at 200% on it: each setting changed once, as each change lays the page out again.
        looks = {"200%": page.evaluate(OVERFLOW)}
        page.set_viewport_size(AT_100_PERCENT)
        looks["100%"] = page.evaluate(OVERFLOW)
        with browser_text_size(page, 32):
            looks["100% with the browser's text at 200%"] = page.evaluate(OVERFLOW)
        for text, found in looks.items():
            if found["scrollWidth"] > found["clientWidth"] or found["past"]:
                scrolling[f"{name} at {text}"] = found
        page.set_viewport_size(SMALL_PHONE_AT_200_PERCENT["viewport"])
        shoot(page, f"small-phone-200-{name}", full_page=False)
    assert scrolling == {}, "\n".join(f"{name} scrolls sideways: {found}" for name, found in scrolling.items())


# On the page's forms: a word of a label, legend, fold or button broken over two lines, anything past the screen's
# edge, and a field too narrow to show a name (6 letters) or a number (2.5), each in a few words.
FORM_CLIPPED = r"""() => {
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const what = (el) => `${el.tagName.toLowerCase()} "${el.textContent.trim().replace(/\s+/g, " ").slice(0, 40)}"`;
  const problems = [];
  for (const el of document.querySelectorAll("form label, form legend, form summary, form button, form .label")) {
    if (!shown(el)) continue;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.data.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const boxes = [...range.getClientRects()].filter((box) => box.width > 0);
        const lines = new Set(boxes.map((box) => Math.round(box.bottom)));
        if (lines.size > 1) problems.push(`"${word[0]}" broken over ${lines.size} lines in ${what(el)}`);
      }
    }
    const box = el.getBoundingClientRect();
    if (box.right > innerWidth + 1 || box.left < -1) problems.push(`${what(el)} past the screen's edge`);
  }
  const typed = "input:not([type=hidden], [type=radio], [type=checkbox], [type=file], [type=submit]), select, textarea";
  for (const input of document.querySelectorAll(`form :is(${typed})`)) {
    if (!shown(input)) continue;
    const look = getComputedStyle(input);
    const letter = parseFloat(look.fontSize) * 0.6;  // a letter's width, about
    const shows = (input.clientWidth - parseFloat(look.paddingLeft) - parseFloat(look.paddingRight)) / letter;
    const numeric = input.inputMode === "numeric" || input.type === "number";
    const name = input.name || input.id;
    if (shows < (numeric ? 2.5 : 6)) problems.push(`${name} shows ${Math.round(shows)} letters`);
    if (input.getBoundingClientRect().right > innerWidth + 1) problems.push(`${name} past the screen's edge`);
  }
  return problems;
}"""


def test_every_form_fits_a_320_px_phone_with_the_browsers_text_at_200_percent(
    phones: Phones, main_pages: MainPages, shoot: Callable[..., Any]
) -> None:
    """The new match, a new table and its match, a rule card, the deal form (both ways and a correction), the house
    rules and the table's meld prices, the meld calculator, importing, and an event's forms (the new event, the
    director's): with every fold open, no word of a label broken, nothing past the edge, every field wide enough."""
    from .test_tables import make_table

    page = phones.open(viewport=AT_100_PERCENT, device_scale_factor=2)
    paths = main_pages.paths()
    page.goto(paths["sheet"])  # a phone that has the match
    table = make_table(page)
    event = make_event(page)
    forms = {"new-match": paths["new-match"], "new-table": "/tables/new", "table-new-match": f"{table}/matches/new",
             "rule-card": f"{table}/rule-cards/new", "deal-quick": paths["deal-new"],
             "deal-detailed": paths["deal-new"],
             "deal-edit": paths["deal-edit"], "house-rules": paths["house-rules"],
             "meld-prices": f"{paths['house-rules']}/meld", "meld": paths["meld"], "import": paths["import"],
             "event-new": "/events/new", "event-director": event.director}
    clipped = {}
    with browser_text_size(page, 32):
        for name, path in forms.items():
            page.goto(path)
            if name == "deal-detailed":
                page.locator("label.segment").nth(1).tap()
            open_folds(page)
            found = page.evaluate(FORM_CLIPPED)
            if found:
                clipped[name] = found
            shoot(page, f"small-phone-text-200-{name}", full_page=False)
    assert clipped == {}, "\n".join(f"{name}: {found}" for name, found in clipped.items())
