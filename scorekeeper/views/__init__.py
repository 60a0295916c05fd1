"""One blueprint per area of the app, and the error pages (``errors``). No blueprint imports another."""

from __future__ import annotations

from flask import Flask, request

from ..device import this_phone
from ..extensions import READS
from ..forms.common import new_write_key
from ..models import utc_iso
from ..rules.messages import say, unfilled
from ..rules.rotation import next_dealer
from ..sheet.row_parts import draw_row_parts
from ..sheet.rows import sheet_rows
from ..sheet.view import points, signed_points
from ..store.history import THE_API, act_as


def init_app(app: Flask) -> None:
    """Register every area's blueprint (the API wires its own CSRF rule) and the error pages."""
    from . import (
        api,
        deals,
        errors,
        events,
        events_api,
        history,
        house_rules,
        installable,
        matches,
        meld,
        meld_prices,
        outbox,
        pages,
        result,
        samples,
        table_stats,
        tables,
        transfer,
    )
    from .path_parts import init_app as numbers_and_text_in_paths

    numbers_and_text_in_paths(app)  # before any route: their numbers are read by its converter
    areas = (matches, deals, history, house_rules, meld_prices, meld, outbox, pages, result, samples, transfer, tables,
             table_stats, installable, events)
    for area in areas:
        app.register_blueprint(area.bp)
    api.init_app(app)
    events_api.init_app(app)
    errors.init_app(app)
    app.add_template_filter(points)
    app.add_template_filter(signed_points)
    app.add_template_filter(utc_iso)
    app.add_template_global(next_dealer)
    app.add_template_global(sheet_rows)
    app.add_template_global(draw_row_parts)
    app.add_template_global(new_write_key)
    app.add_template_global(say)
    app.add_template_global(unfilled)
    app.before_request(_name_the_writer)


def _name_the_writer() -> None:
    """Tell the store who this request's writes are by, for the deals' history: the API, or this phone."""
    if request.method not in READS:
        act_as(THE_API if request.path.startswith("/api/") else this_phone())
