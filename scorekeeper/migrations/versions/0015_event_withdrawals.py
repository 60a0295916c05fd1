"""A team event's movement (``event.movement``: "round-robin" or "stay-move"; empty in every event stored
before, which keeps the movement chosen by its number of rounds).

Revision ID: 0015
Revises: 0013
Create Date: 2027-02-20
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("event", sa.Column("movement", sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("event") as batch:
        batch.drop_column("movement")
