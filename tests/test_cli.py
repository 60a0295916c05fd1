"""The scorekeeper command: meld and score; bad input is one line on stderr and exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from matches import SEEDS, match_file
from scorekeeper.cli import main

WORKED = str(SEEDS / "worked-sheet.json")
WORKED_HAND = "AH TH KH QH JH KH QH 9H QS JD AS AC".split()


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_score_prints_the_worked_sheet(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "score", WORKED)
    assert code == 0
    assert "Winner: We at deal 5. We 318, They 76" in out
    assert len(out.splitlines()) == 2 + 5 + 1  # title, header, five deals, result


def test_score_json_is_the_sheet_of_match_format(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "score", WORKED, "--json")
    sheet = json.loads(out)
    assert code == 0
    assert (sheet["totals"], sheet["winner"], sheet["ended_at"], sheet["rank"]) == ([318, 76], 0, 5, [0, 1])
    assert sheet["deals"][0] == {"number": 1, "scores": [67, 20], "totals": [67, 20], "made": True,
                                 "after_end": False, "as_entered": [], "status": "made", "bidder": 0, "bid": 60}


def test_score_with_a_lower_target_ends_earlier(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "score", WORKED, "--set", "target=200")
    assert code == 0
    assert "Winner: We at deal 3." in out
    assert out.count("after the end") == 2
    _, out, _ = run(capsys, "score", WORKED, "--json", "--set", "target=200")
    deals = json.loads(out)["deals"]
    assert [d["after_end"] for d in deals] == [False, False, False, True, True]
    assert deals[4]["scores"] is None


def test_score_with_several_rules_overridden(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "score", WORKED, "--json", "--set", "target=500", "--set", "must_win_own_bid=off")
    assert code == 0 and json.loads(out)["winner"] is None


def test_meld_of_the_worked_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "meld", "--deck", "single", "--table", "single-classic", "--trump", "H", *WORKED_HAND)
    assert code == 0
    assert out.splitlines()[-1].split() == ["total", "240"]
    for name, points in [("run", "150"), ("royal marriage", "40"), ("dix", "10"), ("pinochle", "40")]:
        assert any(name in line and line.split()[-1] == points for line in out.splitlines())


def test_meld_json(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "meld", "--deck", "single", "--table", "single-classic", "--trump", "H", "--json",
                    *WORKED_HAND)
    result = json.loads(out)
    assert result["total"] == 240
    assert result["classes"] == {"1": 200, "2": 40, "3": 0}
    assert {"name": "run", "sets": 1, "points": 150, "class": 1} in result["melds"]


def test_meld_without_trump_gives_all_four_best_first(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "meld", "--deck", "single", "--json", *WORKED_HAND)
    results = json.loads(out)
    assert [r["trump"] for r in results][0] == "H"
    assert len(results) == 4
    assert [r["total"] for r in results] == sorted((r["total"] for r in results), reverse=True)


def test_meld_table_defaults_to_the_decks_usual_one(capsys: pytest.CaptureFixture[str]) -> None:
    _, single, _ = run(capsys, "meld", "--deck", "single", "--trump", "H", "--json", *WORKED_HAND)
    assert json.loads(single)["total"] == 240


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "match.json"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["meld", "--trump", "H", "AH", "1X"], "'1X' is not a card"),
        (["meld", "--deck", "single", "--trump", "H", "AS", "AS", "AS"], "three A♠ but a single deck has two"),
        (["meld", "--trump", "X", "AH"], "'X' is not a suit"),
        (["meld", "--deck", "triple", "AH"], "triple"),
        (["score", "no-such-file.json"], "cannot read no-such-file.json"),
        (["score", WORKED, "--set", "target=333"], "Play to: '333' is not allowed"),
        (["score", WORKED, "--set", "colour=red"], "'colour' is not a house rule"),
        (["score", WORKED, "--set", "target"], "--set takes RULE=VALUE"),
        (["score", WORKED, "--set", "min_bid=60"], "deal 2: bid 55 is below the minimum opening bid of 60"),
        (["score"], "Missing argument"),
        (["frobnicate"], "No such command"),
    ],
)
def test_bad_input_is_one_line_and_exit_status_2(
    capsys: pytest.CaptureFixture[str], args: list[str], fragment: str
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert fragment in err


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("{not json", "not valid JSON"),
        (json.dumps(match_file([{"bidder": 0, "bid": 60, "sides": [{"total": 67}, {"total": "x"}]}])),
         "deals[0].sides[1].total: must be a whole number"),
    ],
)
def test_bad_match_file_names_the_place(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, fragment: str
) -> None:
    code, _, err = run(capsys, "score", write(tmp_path, text))
    assert code == 2 and fragment in err


def test_installed_command_exits_2_without_a_traceback(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", "score", write(tmp_path, "[]")],
        capture_output=True, text=True, check=False,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.strip() == "scorekeeper: a match file is a JSON object"
