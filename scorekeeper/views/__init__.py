"""Blueprints and error pages."""

from __future__ import annotations

import importlib

from flask import Flask, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError
from werkzeug.wrappers import Response

from ..db import get_session

# Areas whose blueprints live in their own modules; each module exposes ``bp`` (and may have
# ``init_app(app)`` for extra wiring such as its own CSRF rule).
AREAS = ("matches", "deals", "house_rules", "meld", "pages", "transfer", "api")

ERROR_TITLES = {
    400: "That did not work",
    404: "Not found",
    405: "Not allowed",
    500: "Something went wrong",
}

FRIENDLY = {
    400: "The page sent something the score keeper could not read.",
    404: "There is nothing at this address. Check the link, or start from the home page.",
    405: "This address does not take that kind of request.",
}


def init_app(app: Flask) -> None:
    for area in AREAS:
        try:
            module = importlib.import_module(f"{__name__}.{area}")
        except ModuleNotFoundError as error:
            if error.name == f"{__name__}.{area}":
                continue  # area not installed in this build
            raise
        if hasattr(module, "init_app"):
            module.init_app(app)
        else:
            app.register_blueprint(module.bp)
    app.register_error_handler(CSRFError, _csrf_error)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(InternalServerError, _server_error)


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.blueprint == "api"


def _error_page(status: int, message: str) -> tuple[Response | str, int]:
    if _wants_json():
        return jsonify({"error": message}), status
    title = ERROR_TITLES.get(status, "That did not work")
    return render_template("errors/error.html", status=status, title=title, message=message), status


def _csrf_error(error: CSRFError) -> tuple[Response | str, int]:
    return _error_page(
        400, "This form has expired or came from another page. Go back, reload it and try again."
    )


def _http_error(error: HTTPException) -> tuple[Response | str, int] | HTTPException:
    if error.code is None or error.code < 400:
        return error
    message = FRIENDLY.get(error.code, "") if error.description == type(error).description else ""
    return _error_page(error.code, message or error.description or "")


def _server_error(error: InternalServerError) -> tuple[Response | str, int]:
    get_session().rollback()
    return _error_page(500, "The score keeper hit a problem; nothing was saved. Please try again.")
