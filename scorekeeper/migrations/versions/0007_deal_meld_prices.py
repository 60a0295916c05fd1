"""The table's own meld prices a deal was entered under: ``deal.meld_prices``, nullable.

Null means none (the meld table's prices), so every stored deal keeps its facts and scores as before.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("deal", sa.Column("meld_prices", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("deal") as batch:
        batch.drop_column("meld_prices")
