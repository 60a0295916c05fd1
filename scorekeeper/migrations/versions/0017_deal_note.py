"""A note on a deal: ``deal.note``, a short free text, optional.

One nullable column added; every stored deal keeps its facts and reads as before (no note).

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("deal", sa.Column("note", sa.String(length=200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("deal") as batch:
        batch.drop_column("note")
