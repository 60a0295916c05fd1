"""The first layout: matches, their sides, deals and rule changes, and the old schema_version marker.

This is the layout that ``metadata.create_all`` made before migrations existed (with a
``schema_version`` row holding 1); such a database is stamped at this revision, not rebuilt.

Revision ID: 0001
Revises:
Create Date: 2025-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "match",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sa.String(length=64), nullable=False),
        sa.Column("edit_token", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("auction", sa.Boolean(), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("last_change", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_match_public_id", "match", ["public_id"], unique=True)

    op.create_table(
        "side",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("match_id", "position"),
    )
    op.create_index("ix_side_match_id", "side", ["match_id"], unique=False)

    op.create_table(
        "deal",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("passed", sa.Boolean(), nullable=False),
        sa.Column("bidder", sa.Integer(), nullable=True),
        sa.Column("bid", sa.Integer(), nullable=True),
        sa.Column("trump", sa.String(length=1), nullable=True),
        sa.Column("thrown_in", sa.Boolean(), nullable=False),
        sa.Column("meld_table", sa.String(length=32), nullable=False),
        sa.Column("trick_scale", sa.String(length=32), nullable=False),
        sa.Column("last_trick", sa.Integer(), nullable=False),
        sa.Column("sides", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("match_id", "position"),
    )
    op.create_index("ix_deal_match_id", "deal", ["match_id"], unique=False)

    op.create_table(
        "rule_change",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("changed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rule", sa.String(length=32), nullable=False),
        sa.Column("old_value", sa.JSON(), nullable=False),
        sa.Column("new_value", sa.JSON(), nullable=False),
        sa.Column("after_deal", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_rule_change_match_id", "rule_change", ["match_id"], unique=False)

    # The marker the app kept before migrations; alembic_version now says which layout a database has.
    schema_version = op.create_table(
        "schema_version",
        sa.Column("version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("version"),
    )
    op.bulk_insert(schema_version, [{"version": 1}])


def downgrade() -> None:
    op.drop_table("schema_version")
    op.drop_index("ix_rule_change_match_id", table_name="rule_change")
    op.drop_table("rule_change")
    op.drop_index("ix_deal_match_id", table_name="deal")
    op.drop_table("deal")
    op.drop_index("ix_side_match_id", table_name="side")
    op.drop_table("side")
    op.drop_index("ix_match_public_id", table_name="match")
    op.drop_table("match")
