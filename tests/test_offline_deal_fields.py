"""The phone reads a kept deal form as the server reads it (static/js/offline/deal_fields.js against
forms/deals.py): the same fields give the same deal, a bidder picked by tapping a player and a forced bid
included; and the fields the phone puts in a correction form for a recorded deal read back as that deal."""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from werkzeug.datastructures import MultiDict

from scorekeeper import create_app
from scorekeeper.forms.deals import DealForm

ROOT = Path(__file__).resolve().parents[1]
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
FILE = {"sides": [{"name": "Ann & Bo", "players": ["Ann", "Bo"]}, {"name": "Cy & Di", "players": ["Cy", "Di"]}],
        "rules": {"min_bid": 50}, "auction": True, "deals": []}
QUICK = [("mode", "quick"), ("sides-0-total", "30"), ("sides-1-total", "60")]
THROWN_IN = [("thrown_in", "y"), ("bidder", "0"), ("bid", "80"), ("mode", "quick"), ("sides-0-total", ""),
             ("sides-1-total", "25")]
CASES: list[list[tuple[str, str]]] = [
    [("bidder", "0"), ("bid", "50"), *QUICK],  # a side tapped
    [("bid_by", "Cy"), ("bid", "55"), *QUICK],  # a player tapped: the side comes from the player
    [("bidder", "0"), ("bid_by", "Bo"), ("bid", "55"), *QUICK],  # both: as tapped
    [("bidder", "1:Di"), ("bid", "60"), *QUICK],  # a player's button under "Who bid?": side and player
    [("bidder", "1:Di"), ("forced", "y"), ("dealt_by", "Ann"), *QUICK],  # forced: the player's side all the same
    [("bid_by", "Cy"), ("bid", "55"), ("dealt_by", "Ann"), *QUICK],
    [("forced", "y"), ("dealt_by", "Di"), *QUICK],  # forced: the minimum, by the dealer's side
    [("forced", "y"), ("bid", "60"), ("bidder", "0"), ("dealt_by", "Di"), *QUICK],
    [("bid", "55"), *QUICK],  # no bidder: not read (the server says what to fix)
    [("bid_by", "Zed"), ("bid", "55"), *QUICK],  # not a player of the match
    [("passed", "y"), ("bid_by", "Cy")],
    THROWN_IN,  # the bidders' one number left empty: it does not count
    [*THROWN_IN[:-1], ("sides-1-total", "")],  # the others' is needed
    [("mode", "detail"), ("bid_by", "Bo"), ("bid", "60"), ("last_trick", "0"), ("sides-0-hands-0-meld", "20"),
     ("sides-0-hands-1-meld", "12"), ("sides-0-tricks", "28"), ("sides-0-took", "points"),
     ("sides-1-hands-0-meld", ""), ("sides-1-hands-0-kept", ""), ("sides-1-hands-0-sets-run", "1"),
     ("sides-1-hands-0-sets-pinochle", "1"), ("sides-1-tricks", "20"),
     ("sides-1-took", "points")],
    # A hand counted by card faces: kept as its cards (the dialog's JSON), the box left empty.
    [("mode", "detail"), ("bidder", "1"), ("bid", "50"), ("last_trick", "1"), ("sides-0-hands-0-meld", ""),
     ("sides-0-hands-0-kept", ""), ("sides-0-tricks", "18"), ("sides-1-hands-0-meld", ""),
     ("sides-1-hands-0-kept", json.dumps({"cards": ["AS", "10S", "KS", "QS", "JS", "QS", "JD"], "trump": "S"})),
     ("sides-1-hands-1-meld", "4"), ("sides-1-hands-1-kept", ""), ("sides-1-tricks", "30")],
]
# Each case holds the fields a browser sends for it (every line of a hand sends its meld and kept fields).
SCRIPT = """
import { dealFromFields, fieldsFromDeal } from "./static/js/offline/deal_fields.js";
const { file, cases } = JSON.parse(process.argv[1]);
const read = cases.map((pairs) => dealFromFields(pairs, file));
const back = read.map((deal) => (deal ? dealFromFields(fieldsFromDeal(deal), file) : null));
console.log(JSON.stringify({ read, back }));
"""


@functools.cache
def form_app() -> Flask:
    """The app whose request the server's forms are read in: one for every case (nothing is stored)."""
    return create_app({"TESTING": True, "DATABASE_URL": "sqlite://", "SECRET_KEY": "s", "WTF_CSRF_ENABLED": False})


def server_reads(pairs: list[tuple[str, str]]) -> dict[str, Any] | None:
    with form_app().test_request_context():
        form = DealForm(formdata=MultiDict(pairs), meta={"csrf": False}).setup(
            [side["name"] for side in FILE["sides"]], [side["players"] for side in FILE["sides"]],
            [side["players"] for side in FILE["sides"]], min_bid=FILE["rules"]["min_bid"])
        form.validate()
        return form.to_deal_json(auction=True)


@functools.cache
def phone_reads() -> dict[str, Any]:
    """What the phone's script reads from every case, and back from each deal it read: one run of node for
    the tests of this file."""
    node = shutil.which("node")
    if node is None:
        if IN_CI:
            pytest.fail("node is missing: install Debian's nodejs (.ci/run does)", pytrace=False)
        pytest.skip("node is missing")
    run = subprocess.run([node, "--input-type=module", "-e", SCRIPT, json.dumps({"file": FILE, "cases": CASES})],
                         cwd=ROOT, capture_output=True, text=True, timeout=60, check=True)
    answer: dict[str, Any] = json.loads(run.stdout)
    return answer


def test_the_phone_reads_a_deal_form_as_the_server_does() -> None:
    phone = phone_reads()
    for pairs, read in zip(CASES, phone["read"], strict=True):
        expected = server_reads(pairs)
        if expected is not None and expected.get("bid_by") == "Zed":
            expected = None  # the server's rules core refuses it: no player of the bidding side
        assert read == expected, pairs


def test_a_recorded_deal_put_back_in_a_form_reads_as_itself() -> None:
    phone = phone_reads()
    assert [deal for deal in phone["read"] if deal] and phone["back"] == phone["read"]


def test_the_bidders_of_a_deal_thrown_in_may_leave_their_one_number_empty() -> None:
    read = phone_reads()["read"]
    assert read[CASES.index(THROWN_IN)]["sides"] == [{"total": 0}, {"total": 25}]
    assert read[CASES.index(THROWN_IN) + 1] is None
