"""The preview of an undo, as a change of house rules is previewed: the change, the sheet before and after,
and the button that confirms it. Drawn for "Undo the last change" and for an undo on the house-rules page."""

from __future__ import annotations

from flask import render_template
from flask_wtf import FlaskForm

from ..models import MatchRow
from ..rule_history import rule_changes
from ..store import reading, writing
from ..store.describe import describe_facts


def undo_preview(loaded: reading.Loaded, form: FlaskForm, undoing: writing.Undoing, action: str, back: str,
                 outbox: bool = False) -> str:
    """The page; ``form`` holds the version, the write key and ``confirm`` (set here) that the button sends
    to ``action``; ``back`` is the page it came from; ``outbox``: the button's form is kept on the phone when
    the network is gone."""
    row, match = loaded
    form.confirm.data = "yes"
    return render_template("history/undo.html", row=row, form=form, preview=undoing.preview, action=action,
                           back=back, outbox=outbox, what=undoing.change.describe(row), deal=_deal_words(row, undoing),
                           rules=rule_changes(match.rules, undoing.after.rules),
                           names=[side.shown_name for side in match.sides],
                           deals_move=len(undoing.after.deals) != len(match.deals))


def _deal_words(row: MatchRow, undoing: writing.Undoing) -> tuple[int, str, str] | None:
    """The deal an undo changes: its number, as it is and as it will be (None for a change of rules)."""
    change = undoing.change.deal
    if change is None:
        return None
    now = describe_facts(row, change.after) if change.after is not None else "not on the sheet"
    then = describe_facts(row, change.before) if change.before is not None else "not on the sheet"
    return change.number, now, then
