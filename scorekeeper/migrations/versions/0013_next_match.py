"""The next match of a decided one, one per match: ``match.follows_id`` names the match it follows, unique, so
that of two phones starting it at once the second finds the first one's; ``match.first_dealer`` is who deals
its first deal (the player after the last dealer of the match it follows); ``match.started_by`` the name of the
phone that started it, when the phone has one. All three are empty in every match stored before.

Revision ID: 0013
Revises: 0012
Create Date: 2027-02-08
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("match", sa.Column("follows_id", sa.Integer(), nullable=True))
    op.add_column("match", sa.Column("first_dealer", sa.String(length=100), nullable=True))
    op.add_column("match", sa.Column("started_by", sa.String(length=100), nullable=True))
    op.create_index("ix_match_follows_id", "match", ["follows_id"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_match_follows_id", "match")
    with op.batch_alter_table("match") as batch:
        batch.drop_column("started_by")
        batch.drop_column("first_dealer")
        batch.drop_column("follows_id")
