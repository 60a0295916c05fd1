"""A team event's movement (``event.movement``: "round-robin" or "stay-move"; empty in every event stored
before, which keeps the movement chosen by its number of rounds), and the players withdrawn from an event
or replaced by a substitute for a round (``event_withdrawal``).

Revision ID: 0015
Revises: 0013
Create Date: 2027-02-20
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("event", sa.Column("movement", sa.String(length=16), nullable=True))
    op.create_table(
        "event_withdrawal",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("player", sa.String(length=100), nullable=False),
        sa.Column("from_round", sa.Integer(), nullable=False),
        sa.Column("substitute", sa.String(length=100), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["event.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_event_withdrawal_event_id", "event_withdrawal", ["event_id"])


def downgrade() -> None:
    op.drop_index("ix_event_withdrawal_event_id", "event_withdrawal")
    op.drop_table("event_withdrawal")
    with op.batch_alter_table("event") as batch:
        batch.drop_column("movement")
