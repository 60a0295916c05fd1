"""Changes of house rules as the player made them: ``rule_change.batch`` groups the rules changed at once,
``rule_change.action`` says how (``rescale ×10``, ``rescale ÷10``, ``undo``; null for a plain change).
And two facts of a deal: ``deal.out`` (the bidders announced going out) and ``deal.forced`` (all passed, the
dealer's side took the minimum bid).

Two nullable columns and two false by default; a change stored before is a change of its own, a deal
stored before announced nothing and was not forced.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rule_change", sa.Column("batch", sa.Integer(), nullable=True))
    op.add_column("rule_change", sa.Column("action", sa.String(length=16), nullable=True))
    op.add_column("deal", sa.Column("out", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.add_column("deal", sa.Column("forced", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("deal") as batch:
        batch.drop_column("forced")
        batch.drop_column("out")
    with op.batch_alter_table("rule_change") as batch:
        batch.drop_column("action")
        batch.drop_column("batch")
