"""Error pages for people, and the same errors as JSON where JSON is wanted (``wants_json``), each with a
code a program acts on: the problem's own where there is one, else the kind of error its status says. The
refusals the store, the tables, the events and the rules core raise (``rules.refusals``) are answered here, each
kind with its status."""

from __future__ import annotations

import re
from collections.abc import Iterable

from flask import Flask, current_app, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.datastructures import MIMEAccept
from werkzeug.exceptions import HTTPException, InternalServerError, RequestEntityTooLarge, SecurityError
from werkzeug.http import parse_accept_header
from werkzeug.wrappers import Response

from ..db import get_session
from ..rules.refusals import Conflict, Invalid, NotAllowed, NotFound, Refusal

TOO_LARGE = "a number or a name is too large to store; nothing was saved"

ERROR_TITLES = {
    400: "That did not work",
    403: "This phone cannot change this match",
    404: "Not found",
    405: "Not allowed",
    413: "Too much at once",
    429: "Slow down",
    500: "Something went wrong",
}

# The code of a JSON error that is about no one value (docs/api.md, "Status codes and errors").
STATUS_CODES = {
    400: "bad_request",
    401: "token_missing",
    403: "not_allowed",
    404: "not_found",
    405: "method_not_allowed",
    409: "stale",
    413: "too_large",
    415: "wrong_content_type",
    422: "refused",
    429: "rate_limited",
    500: "server_error",
}
FORM_EXPIRED = "form_expired"  # the CSRF token of a form, or of the outbox, is missing or too old
REPEATED_FIELD = "duplicate_field"  # a form (or an outbox entry) that gives one field twice
KEY_REUSED = "key_reused"  # a write key sent again with another request
NOTHING_TO_UNDO = "nothing_to_undo"  # an undo that would change nothing
NOT_DECIDED = "not_decided"  # the next match of a match still being played


# The answer's status of each kind of refusal.
REFUSAL_STATUS: tuple[tuple[type[Refusal], int], ...] = ((NotFound, 404), (NotAllowed, 403), (Conflict, 409),
                                                         (Invalid, 422))


def refusal_status(refusal: Refusal) -> int:
    """The status a refusal is answered with: 404, 403, 409 or 422 by its kind (400 for one of no kind)."""
    return next((status for kind, status in REFUSAL_STATUS if isinstance(refusal, kind)), 400)


class Refused(HTTPException):
    """An error answer raised anywhere in a request: its status, the field it concerns and its code."""

    def __init__(self, status: int, message: str, field: str | None, problem_code: str) -> None:
        super().__init__(message)
        self.code = status
        self.field, self.problem_code = field, problem_code

FRIENDLY = {
    400: "The page sent something the score keeper could not read.",
    404: "There is nothing at this address. Check the link, or start from the home page.",
    405: "This address does not take that kind of request.",
    429: "Too many requests from this address in a short time. Wait a few minutes and try again.",
}


def init_app(app: Flask) -> None:
    """The error pages (JSON where it is wanted), and forms that give a field twice refused before any view."""
    app.before_request(refuse_repeated_fields)
    app.register_error_handler(CSRFError, _csrf_error)
    app.register_error_handler(Refusal, _refusal)
    app.register_error_handler(RequestEntityTooLarge, _too_large)
    app.register_error_handler(SecurityError, _untrusted_host)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(InternalServerError, _server_error)


JSON_PATHS = re.compile(r"/api/|/m/[^/]+/outbox$")  # answered in JSON whatever the request accepts


def wants_json(path: str, accept: str | None) -> bool:
    """Whether the answer at ``path``, an error's included, is JSON: under ``/api/`` and at the outbox, and
    wherever the request's ``Accept`` puts JSON before HTML (a form's save sent by the entry panel or the
    outbox). The app's views and the server's own refusals (serving.py) both ask here."""
    if JSON_PATHS.match(path):
        return True
    return parse_accept_header(accept, MIMEAccept).best_match(("text/html", "application/json")) == "application/json"


def request_wants_json() -> bool:
    """``wants_json`` for the request being answered."""
    return wants_json(request.path, request.headers.get("Accept"))


def error_json(status: int, message: str, field: str | None = None, code: str | None = None,
               **extra: object) -> Response:
    """The JSON error answer: ``field`` (or null), a ``code`` (the status's when none is given), ``message``."""
    response = jsonify({"error": {"field": field, "code": code or STATUS_CODES.get(status, "error"),
                                  "message": message, **extra}})
    response.status_code = status
    return response


def retry_after(error: HTTPException, response: Response) -> Response:
    """``Retry-After`` of a refusal that says when to come back (a limit on what is made), on its answer."""
    for name, value in error.get_headers():
        if name == "Retry-After":
            response.headers[name] = value
    return response


def _error_page(status: int, message: str, code: str | None = None,
                field: str | None = None, title: str = "") -> tuple[Response | str, int]:
    if request_wants_json():
        return error_json(status, message, field, code), status
    title = title or ERROR_TITLES.get(status, "That did not work")
    return render_template("errors/error.html", status=status, title=title, message=message), status


def _csrf_error(error: CSRFError) -> tuple[Response | str, int]:
    return _error_page(
        400, "This form has expired or came from another page. Go back, reload it and try again.", FORM_EXPIRED
    )


def _refusal(refusal: Refusal) -> tuple[Response | str, int]:
    """A refusal no view answered itself: JSON naming its field and code (and what more it carries), or the
    error page with its message; nothing it began is kept."""
    get_session().rollback()
    status = refusal_status(refusal)
    if request_wants_json():
        return error_json(status, refusal.message, refusal.field or None, refusal.code, **refusal.extra), status
    return _error_page(status, refusal.message, refusal.code, refusal.field, title=refusal.title)


def _untrusted_host(error: SecurityError) -> tuple[Response, int]:
    """A Host outside ``TRUSTED_HOSTS``: no page can be drawn, as no address can be built for it."""
    message = "This server does not answer for that host name."
    if request_wants_json():
        return error_json(400, message, "Host", "untrusted_host"), 400
    return Response(message + "\n", mimetype="text/plain"), 400


def request_limit_text() -> str:
    """The largest request body, as a player reads it: '2 MB'."""
    return f"{current_app.config['MAX_CONTENT_LENGTH'] / (1024 * 1024):g} MB"


def _too_large(error: RequestEntityTooLarge) -> tuple[Response | str, int]:
    return _error_page(
        413, f"That was more than the score keeper takes in one go (at most {request_limit_text()}); "
             "nothing was saved. A match file that large was not written by this app: check the file."
    )


def _http_error(error: HTTPException) -> tuple[Response | str, int] | HTTPException:
    if error.code is None or error.code < 400:
        return error
    message = FRIENDLY.get(error.code, "") if error.description == type(error).description else ""
    page, status = _error_page(error.code, message or error.description or "", *coded(error))
    if isinstance(page, str):
        page = Response(page, status=status, mimetype="text/html")
    return retry_after(error, page), status


def coded(error: HTTPException) -> tuple[str | None, str | None]:
    """The code and field of an error raised as ``Refused`` (none for another)."""
    return getattr(error, "problem_code", None), getattr(error, "field", None)


FORM_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})


def repeated_name(names: Iterable[str]) -> str | None:
    """The first name given twice, or None."""
    seen: set[str] = set()
    for name in names:
        if name in seen:
            return name
        seen.add(name)
    return None


def refuse_repeated_fields() -> None:
    """A form that gives one field twice is refused (400, ``duplicate_field``), rather than read as its first
    value: no page of the app sends one, so it says something other than the page meant."""
    if request.method == "GET" or request.mimetype not in FORM_TYPES:
        return
    for sent in (request.form, request.files):
        name = next((name for name, values in sent.lists() if len(values) > 1), None)
        if name is not None:
            raise Refused(400, f"The form gave the field {name!r} twice; nothing was saved. Reload the page and "
                               "try again.", name, REPEATED_FIELD)


def _server_error(error: InternalServerError) -> tuple[Response | str, int]:
    get_session().rollback()
    return _error_page(500, "The score keeper hit a problem; nothing was saved. Please try again.")
