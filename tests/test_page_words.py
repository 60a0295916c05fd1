"""The words of the page scripts that load no declarations (rules/messages.py ``PAGE_WORDS``) are drawn by the
server into the pages that load those scripts, each as declared, and every one of them is drawn somewhere."""

from __future__ import annotations

import html
import re
from pathlib import Path

from conftest import Actions
from flask.testing import FlaskClient

from scorekeeper.rules.messages import PAGE_WORDS

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
# The attribute each script reads its words from, by the words' key.
ATTRIBUTES = {
    "share.shared": "data-shared", "share.copied": "data-copied", "share.not_copied": "data-not-copied",
    "live.up_to_date": "data-up-to-date", "live.no_connection": "data-no-connection", "live.gone": "data-gone",
    "countdown.left": "data-left", "countdown.time_up": "data-time-up", "event.i_am": "data-i-am",
    "event.seat": "data-seat", "event.seat.alone": "data-seat-alone", "event.and": "data-and",
    "deal_form.no_preview": "data-no-preview", "deal_form.not_sent": "data-not-sent",
    "deal_form.count_by_cards": "data-count-by-cards",
}
OF_AN_EVENT = {"countdown.left", "countdown.time_up", "event.i_am", "event.seat", "event.seat.alone", "event.and"}


def drawn(page: str) -> dict[str, set[str]]:
    """Each of the scripts' attributes on ``page``, with the values it has there."""
    found: dict[str, set[str]] = {}
    for name, value in re.findall(r'\s(data-[\w-]+)="([^"]*)"', page):
        if name in ATTRIBUTES.values():
            found.setdefault(name, set()).add(html.unescape(value))
    return found


def test_a_matchs_pages_draw_their_scripts_words_as_declared(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    found: dict[str, set[str]] = {}
    for url in (f"/m/{public_id}", f"/m/{public_id}/invite", f"/m/{public_id}/deals/new"):
        answer = client.get(url)
        assert answer.status_code == 200, url
        for name, values in drawn(answer.get_data(as_text=True)).items():
            found.setdefault(name, set()).update(values)
    assert found == {ATTRIBUTES[key]: {words} for key, words in PAGE_WORDS.items() if key not in OF_AN_EVENT}


def test_every_page_word_is_drawn_by_a_template_in_its_attribute() -> None:
    templates = "\n".join(path.read_text(encoding="utf-8") for path in sorted(TEMPLATES.rglob("*.html")))
    said = re.findall(r"""(data-[\w-]+)="\{\{ unfilled\('([\w.]+)'\) \}\}\"""", templates)
    assert sorted(said) == sorted((attribute, key) for key, attribute in ATTRIBUTES.items())
    assert set(ATTRIBUTES) == set(PAGE_WORDS)
