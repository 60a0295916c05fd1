"""A table's season: ``play_table.season_best`` is how many of a player's best events count in the season
standings of the events the table holds; empty (every event counts) in every table stored before.

Revision ID: 0016
Revises: 0013
Create Date: 2027-03-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("play_table", sa.Column("season_best", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("play_table") as batch:
        batch.drop_column("season_best")
