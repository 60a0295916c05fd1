"""Who bid and who dealt: ``deal.bid_by`` and ``deal.dealt_by``, players' names, both optional.

Two nullable columns added; every stored deal keeps its facts and reads as before (no one recorded).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("deal", sa.Column("bid_by", sa.String(length=100), nullable=True))
    op.add_column("deal", sa.Column("dealt_by", sa.String(length=100), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("deal") as batch:
        batch.drop_column("dealt_by")
        batch.drop_column("bid_by")
