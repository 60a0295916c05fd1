"""Events: a club night or tournament (``event``), its entrants (``event_entrant``), its rounds as seated
(``event_round``) and each round's tables (``event_table``), each table pointing at the ordinary match
played there.

New tables only; no existing row changes.

Revision ID: 0010
Revises: 0009
Create Date: 2027-01-20
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sa.String(length=64), nullable=False),
        sa.Column("standings_id", sa.String(length=64), nullable=False),
        sa.Column("director_token", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("format", sa.String(length=16), nullable=False),
        sa.Column("auction", sa.Boolean(), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("round_end", sa.String(length=16), nullable=False),
        sa.Column("round_end_count", sa.Integer(), nullable=True),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_event_public_id", "event", ["public_id"], unique=True)
    op.create_index("ix_event_standings_id", "event", ["standings_id"], unique=True)
    op.create_table(
        "event_entrant",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["event.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_id", "position"),
    )
    op.create_index("ix_event_entrant_event_id", "event_entrant", ["event_id"])
    op.create_table(
        "event_round",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seating", sa.JSON(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["event_id"], ["event.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_id", "number"),
    )
    op.create_index("ix_event_round_event_id", "event_round", ["event_id"])
    op.create_table(
        "event_table",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("closed_after", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["round_id"], ["event_round.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("match_id"),
        sa.UniqueConstraint("round_id", "number"),
    )
    op.create_index("ix_event_table_round_id", "event_table", ["round_id"])


def downgrade() -> None:
    op.drop_table("event_table")
    op.drop_table("event_round")
    op.drop_table("event_entrant")
    op.drop_table("event")
