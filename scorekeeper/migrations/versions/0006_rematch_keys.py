"""A rematch named by its form's key: ``write_key.started_match_id`` is the match the keyed rematch started.

One nullable column added; every stored key reads as before (a deal's write, which starts no match).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("write_key", sa.Column("started_match_id", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("write_key") as batch:
        batch.drop_column("started_match_id")
