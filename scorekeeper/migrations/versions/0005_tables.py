"""Tables: the people who play together (``play_table``), their players (``table_player``), their rule
cards (``rule_card``) and ``match.table_id`` (empty for every match stored before: it keeps working alone).

New tables and one nullable column; no existing row changes.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "play_table",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sa.String(length=64), nullable=False),
        sa.Column("edit_token", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_play_table_public_id", "play_table", ["public_id"], unique=True)
    for name in ("table_player", "rule_card"):
        extra = [sa.Column("auction", sa.Boolean(), nullable=False), sa.Column("rules", sa.JSON(), nullable=False)] \
            if name == "rule_card" else []
        op.create_table(
            name,
            sa.Column("id", sa.Integer(), nullable=False),
            sa.Column("table_id", sa.Integer(), nullable=False),
            sa.Column("position", sa.Integer(), nullable=False),
            sa.Column("name", sa.String(length=100), nullable=False),
            sa.Column("name_key", sa.String(length=200), nullable=False),
            *extra,
            sa.ForeignKeyConstraint(["table_id"], ["play_table.id"], ondelete="CASCADE"),
            sa.PrimaryKeyConstraint("id"),
            sa.UniqueConstraint("table_id", "name_key"),
        )
        op.create_index(f"ix_{name}_table_id", name, ["table_id"])
    # No foreign key: SQLite cannot add one to an existing table without rebuilding it.
    op.add_column("match", sa.Column("table_id", sa.Integer(), nullable=True))
    op.create_index("ix_match_table_id", "match", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_match_table_id", "match")
    with op.batch_alter_table("match") as batch:
        batch.drop_column("table_id")
    op.drop_table("rule_card")
    op.drop_table("table_player")
    op.drop_table("play_table")
