"""Each deal's history: ``deal_change``, one row per entry, correction, deletion or undo of a deal, with
the deal before and after, when and from which phone (``by``, ``by_name``, which a change of house rules
keeps too). Deals and changes stored before have no history and no phone.

Revision ID: 0012
Revises: 0011
Create Date: 2027-02-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "deal_change",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("match_id", sa.Integer(), sa.ForeignKey("match.id", ondelete="CASCADE"), nullable=False),
        sa.Column("deal_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("changed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("by", sa.String(40), nullable=True),
        sa.Column("by_name", sa.String(100), nullable=True),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.Column("undo", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_deal_change_match_id", "deal_change", ["match_id"])
    op.create_index("ix_deal_change_deal_id", "deal_change", ["deal_id"])
    op.add_column("rule_change", sa.Column("by", sa.String(40), nullable=True))
    op.add_column("rule_change", sa.Column("by_name", sa.String(100), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rule_change") as batch:
        batch.drop_column("by_name")
        batch.drop_column("by")
    op.drop_index("ix_deal_change_deal_id", "deal_change")
    op.drop_index("ix_deal_change_match_id", "deal_change")
    op.drop_table("deal_change")
