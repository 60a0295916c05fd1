"""One blueprint per area of the app, and the error pages (``errors``). No blueprint imports another."""

from __future__ import annotations

from flask import Flask

from ..sheet.view import points, signed_points


def init_app(app: Flask) -> None:
    """Register every area's blueprint (the API wires its own CSRF rule) and the error pages."""
    from . import api, deals, errors, house_rules, matches, meld, pages, transfer

    for area in (matches, deals, house_rules, meld, pages, transfer):
        app.register_blueprint(area.bp)
    api.init_app(app)
    errors.init_app(app)
    app.add_template_filter(points)
    app.add_template_filter(signed_points)
