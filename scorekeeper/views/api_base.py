"""What every JSON API blueprint shares: the error answer, reading a JSON body, the version a write was
based on, a bearer token checked against its owner's, and the handlers that turn errors into JSON."""

from __future__ import annotations

import secrets
from typing import Any

from flask import Blueprint, request
from sqlalchemy.exc import DataError
from werkzeug.exceptions import HTTPException, MethodNotAllowed, RequestEntityTooLarge
from werkzeug.wrappers import Response

from ..db import get_session
from ..rules.errors import ContradictionError, HouseRuleError, MatchFileError, RulesError
from ..rules.limits import MAX_JSON_DIGITS
from ..rules.numbers import parse_whole_number, shown_text
from ..rules.problems import Problem, ProblemCode, join_path
from ..rules.text import load_json
from ..store import writing
from .errors import TOO_LARGE, coded, error_json, request_limit_text, retry_after

TOKEN_WRONG = "token_wrong"  # a token that is not the match's (or the table's, or the event's director's)


class ApiError(Exception):
    """An error answer: status, the field it concerns (or None), a message for a person and, when the
    error is about a value, its ``ProblemCode``."""

    def __init__(self, status: int, field: str | None, message: str, code: ProblemCode | str | None = None,
                 **extra: Any) -> None:
        super().__init__(message)
        self.status, self.field, self.message, self.code, self.extra = status, field, message, code, extra


def json_errors(bp: Blueprint) -> None:
    """Answer the blueprint's errors in JSON."""
    bp.register_error_handler(ApiError, api_error)
    bp.register_error_handler(HTTPException, _http_error)
    bp.register_error_handler(RequestEntityTooLarge, _body_too_large)
    bp.register_error_handler(RulesError, _rules_error)
    bp.register_error_handler(DataError, _too_large)
    bp.register_error_handler(OverflowError, _too_large)


def api_error(error: ApiError) -> tuple[Response, int]:
    response = error_json(error.status, error.message, error.field, error.code, **error.extra)
    if error.status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="scorekeeper"'
    return response, error.status


def _http_error(error: HTTPException) -> tuple[Response, int]:
    status = error.code or 500
    code, field = coded(error)
    response = retry_after(error, error_json(status, error.description or "", field, code))
    if isinstance(error, MethodNotAllowed) and error.valid_methods:
        response.headers["Allow"] = ", ".join(error.valid_methods)
    return response, status


def _body_too_large(error: RequestEntityTooLarge) -> tuple[Response, int]:
    return api_error(ApiError(413, None, f"the request body is larger than the {request_limit_text()} "
                                         "a request may carry; nothing was saved"))


def _rules_error(error: RulesError) -> tuple[Response, int]:
    return api_error(as_api_error(error))


def _too_large(error: Exception) -> tuple[Response, int]:
    get_session().rollback()
    return api_error(ApiError(422, None, TOO_LARGE, ProblemCode.OUT_OF_RANGE))


def as_api_error(error: RulesError, prefix: str = "") -> ApiError:
    """422 for facts or values the format or the rules refuse, naming the place (under ``prefix``)."""
    if isinstance(error, ContradictionError):
        field = f"deals[{error.deal_numbers[0] - 1}]" if error.deal_numbers else None
        return ApiError(422, field, str(error), error.code, deals=error.deal_numbers,
                        problems=[_problem_json(problem, prefix) for problem in error.rooted()])
    if isinstance(error, MatchFileError):
        return ApiError(422, join_path(prefix, error.path) or None, error.detail, error.code)
    if isinstance(error, HouseRuleError):
        return ApiError(422, join_path(prefix, error.key), str(error), error.code)
    if isinstance(error, writing.InvalidDeal):
        return ApiError(422, None, str(error), error.code,
                        problems=[_problem_json(problem, prefix) for problem in error.problems])
    return ApiError(422, None, str(error), error.code)


def _problem_json(problem: Problem, prefix: str) -> dict[str, Any]:
    return {"field": join_path(prefix, problem.path) or None, "code": problem.code, "message": problem.message}


def json_body() -> dict[str, Any]:
    """The request's JSON object: 415 when it is not sent as JSON, 400 when it cannot be read (not
    UTF-8, not JSON, nested too deep), 422 for a number too long or text that is no Unicode."""
    if request.mimetype != "application/json":
        raise ApiError(415, None, "send the body as JSON with Content-Type: application/json")
    try:
        data = load_json(request.get_data(as_text=False).decode("utf-8"))
    except UnicodeDecodeError:
        raise ApiError(400, None, "the body is not UTF-8 text", ProblemCode.NOT_JSON) from None
    except MatchFileError as error:
        status = 400 if error.code in (ProblemCode.NOT_JSON, ProblemCode.TOO_DEEP) else 422
        raise ApiError(status, error.path or None, error.detail, error.code) from None
    if not isinstance(data, dict):
        raise ApiError(400, None, "the body must be a JSON object", ProblemCode.WRONG_TYPE)
    return data


def expected_version(body: dict[str, Any] | None = None, what: str = "match") -> int | None:
    """The version the client based its edit on: ``If-Match`` or ``"version"`` in the body."""
    header = request.headers.get("If-Match")
    if header is not None:
        text = header.strip().removeprefix("W/").strip('"')
        try:
            return parse_whole_number(text, "If-Match", max_digits=MAX_JSON_DIGITS)
        except RulesError:
            raise ApiError(400, "If-Match", f"'{shown_text(header)}' is not a version number") from None
    raw = (body or {}).get("version")
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise ApiError(422, "version", f"must be the whole number the {what}'s version was", ProblemCode.NOT_A_NUMBER)
    return raw


def check_bearer(secret: str, owner: str, kind: str = "edit token") -> None:
    """The request must carry ``secret``, the ``owner``'s ``kind`` of token, as its bearer token: 401
    without a token, 403 with another."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "Authorization", f"send the {owner}'s {kind} as Authorization: Bearer <token>")
    if not secrets.compare_digest(token.strip().encode(), secret.encode()):
        raise ApiError(403, "Authorization", f"this {kind} does not belong to this {owner}", TOKEN_WRONG)
