"""The parts of a sheet's row the phone fills (sheet/row_parts.py): kept with a match's kit, one for every
status, look and meld lost, each drawn by the sheet's own row template with the marks the phone replaces."""

from __future__ import annotations

import re

from conftest import Actions
from flask.testing import FlaskClient

from scorekeeper.rules.pricing import MeldLostReason
from scorekeeper.sheet.row_parts import FILL, row_parts


def test_every_look_of_a_row_has_a_part() -> None:
    parts = row_parts(3)
    keys = {key for key, *_ in [*parts.rows, *parts.bids, *parts.sides]}
    assert {"row", "row-after", "bid-passed", "bid-made", "bid-set", "bid-thrown_in", "bid-after", "bid-forced",
            "bid-out", "negative", "zero"} <= keys
    assert {f"side-{side}-{look}{none}" for side in range(3) for look in ("plain", "bidder", "bidder-set")
            for none in ("", "-none")} <= keys
    assert {f"lost-{reason.value}" for reason in MeldLostReason} <= keys


def test_the_match_kit_carries_the_parts_drawn_by_the_row_template(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    page = client.get(f"/m/{public_id}/outbox/rows").get_data(as_text=True)
    template = re.search(r"<template data-sheet-rows.*?</template>", page, re.S)
    assert template is not None
    assert f'<tr id="deal-{FILL["number"]}">' in template[0]
    assert f'href="/m/{public_id}/deals/{FILL["number"]}/edit"' in template[0]
    assert '<span class="lost-meld">no trick<span class="visually-hidden">: meld 987605 did not count' in template[0]
    assert "<template data-sheet-table>" in page


def test_the_match_kit_carries_the_charts_card_with_its_words(client: FlaskClient, actions: Actions) -> None:
    """The phone draws the chart's lines; its title, description, a set deal's title and the legend's set entry
    are the server's, drawn for a stand-in chart whose target and set deal are marks."""
    public_id = actions.create_match()
    page = client.get(f"/m/{public_id}/outbox/rows").get_data(as_text=True)
    template = re.search(r"<template data-sheet-chart>(.*?)</template>", page, re.S)
    assert template is not None
    card = template[1]
    assert card.startswith('<section class="card chart-card" aria-labelledby="chart-title">')
    assert '<h2 id="chart-title">How the match went</h2>' in card
    assert f'the dashed line is the target of {FILL["total"]}.</desc>' in card
    assert f"<title>Deal {FILL['number']}: set</title>" in card
    assert '<li><span aria-hidden="true">○</span> set</li>' in card

