"""The director's corrections of a closed table: ``event_correction``, one row a correction (a deal changed
or deleted, or an adjusted score given), with when and why. No event stored before has any. ``event.ranking``: how a
progressive event ranks its players, ``points`` (then rounds won) for every event stored before.
``event_round.paused_at``, ``paused_seconds``, ``extra_minutes``: a time-limited round's clock as the director
paused and extended it (running, 0 and 0 in every round stored before).

Revision ID: 0014
Revises: 0013
Create Date: 2027-02-15
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "event_correction",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("event_id", sa.Integer(), sa.ForeignKey("event.id", ondelete="CASCADE"), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("table", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("deal", sa.Integer(), nullable=True),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.Column("totals", sa.JSON(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("made_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_event_correction_event_id", "event_correction", ["event_id"])
    op.add_column("event", sa.Column("ranking", sa.String(length=16), nullable=False, server_default="points"))
    op.add_column("event_round", sa.Column("paused_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("event_round", sa.Column("paused_seconds", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("event_round", sa.Column("extra_minutes", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("event_round") as batch:
        batch.drop_column("extra_minutes")
        batch.drop_column("paused_seconds")
        batch.drop_column("paused_at")
    with op.batch_alter_table("event") as batch:
        batch.drop_column("ranking")
    op.drop_index("ix_event_correction_event_id", "event_correction")
    op.drop_table("event_correction")
