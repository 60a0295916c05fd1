"""The refusals the store, the tables, the events and the rules core raise: four kinds, each answered with its
status by the one handler of the web layer, naming the field and the code."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules.errors import ContradictionError, MatchFileError, RulesError
from scorekeeper.rules.problems import Problem, ProblemCode
from scorekeeper.rules.refusals import Conflict, Invalid, NotAllowed, NotFound, Refusal
from scorekeeper.store.write_keys import KeyReused
from scorekeeper.store.writing import NothingToUndo, StaleEdit
from scorekeeper.versions import VERSION_AHEAD, check_not_ahead
from scorekeeper.views.errors import refusal_status


@pytest.mark.parametrize(("refusal", "status"), [
    (NotFound(None, "not_found", "There is no match at this link."), 404),
    (NotAllowed(None, "not_allowed", "not this phone"), 403),
    (StaleEdit("deal 1 was added", 3), 409),
    (KeyReused("abc123abc123"), 422),
    (NothingToUndo("nothing"), 422),
    (Refusal(None, "bad_request", "of no kind"), 400),
    (MatchFileError(Problem(ProblemCode.WRONG_TYPE, "deals[0].bid", "must be a whole number")), 422),
])
def test_each_kind_is_answered_with_its_status(refusal: Refusal, status: int) -> None:
    assert refusal_status(refusal) == status


def test_a_refusal_carries_its_field_code_and_message_and_no_status() -> None:
    stale = StaleEdit("deal 1 was added", 3)
    assert isinstance(stale, Conflict)
    assert (stale.field, stale.code, stale.message, stale.extra) == ("version", "stale", "deal 1 was added",
                                                                     {"current_version": 3})
    assert not hasattr(stale, "status")


def test_a_version_the_match_never_had_is_an_invalid_value_at_version() -> None:
    check_not_ahead(None, 2)
    check_not_ahead(2, 2)
    with pytest.raises(Invalid) as ahead:
        check_not_ahead(9, 2)
    assert (ahead.value.field, ahead.value.code, refusal_status(ahead.value)) == ("version", VERSION_AHEAD, 422)


def test_the_rules_core_errors_are_invalid_values_at_their_path() -> None:
    error = MatchFileError(Problem(ProblemCode.WRONG_TYPE, "deals[0].bid", "must be a whole number"))
    assert isinstance(error, Invalid) and isinstance(error, RulesError) and isinstance(error, ValueError)
    assert (error.field, error.code) == ("deals[0].bid", ProblemCode.WRONG_TYPE)
    assert error.message == "must be a whole number"
    assert str(error) == "deals[0].bid: must be a whole number"
    contradiction = ContradictionError([(2, Problem(ProblemCode.BID_BELOW_MINIMUM, "bid", "bid 40 is below 50"))])
    assert (contradiction.field, contradiction.code) == ("deals[1]", ProblemCode.CONTRADICTION)


def test_a_missing_match_answers_a_page_and_the_api_json(app: Flask, client: FlaskClient) -> None:
    page = client.get("/m/AAAAAAAAAAAAAAAAAAAAAA")
    assert page.status_code == 404 and "There is no match at this link." in page.get_data(as_text=True)
    answer = client.get("/api/v1/matches/AAAAAAAAAAAAAAAAAAAAAA")
    assert answer.status_code == 404
    assert answer.get_json() == {"error": {"field": None, "code": "not_found",
                                           "message": "There is no match at this link."}}
