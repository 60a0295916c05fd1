"""Error pages for people, and the same errors as JSON under ``/api``."""

from __future__ import annotations

from flask import Flask, current_app, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError, RequestEntityTooLarge, SecurityError
from werkzeug.wrappers import Response

from ..db import get_session

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

FRIENDLY = {
    400: "The page sent something the score keeper could not read.",
    404: "There is nothing at this address. Check the link, or start from the home page.",
    405: "This address does not take that kind of request.",
    429: "Too many requests from this address in a short time. Wait a few minutes and try again.",
}


def init_app(app: Flask) -> None:
    """The error pages (JSON under ``/api``)."""
    app.register_error_handler(CSRFError, _csrf_error)
    app.register_error_handler(RequestEntityTooLarge, _too_large)
    app.register_error_handler(SecurityError, _untrusted_host)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(InternalServerError, _server_error)


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.blueprint in ("api", "outbox")


def _error_page(status: int, message: str) -> tuple[Response | str, int]:
    if _wants_json():
        return jsonify({"error": {"field": None, "message": message}}), status
    title = ERROR_TITLES.get(status, "That did not work")
    return render_template("errors/error.html", status=status, title=title, message=message), status


def _csrf_error(error: CSRFError) -> tuple[Response | str, int]:
    return _error_page(
        400, "This form has expired or came from another page. Go back, reload it and try again."
    )


def _untrusted_host(error: SecurityError) -> tuple[Response, int]:
    """A Host outside ``TRUSTED_HOSTS``: no page can be drawn, as no address can be built for it."""
    return Response("This server does not answer for that host name.\n", mimetype="text/plain"), 400


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
    return _error_page(error.code, message or error.description or "")


def _server_error(error: InternalServerError) -> tuple[Response | str, int]:
    get_session().rollback()
    return _error_page(500, "The score keeper hit a problem; nothing was saved. Please try again.")
