"""Each match gets a watch link: ``match.watch_id``, 128 random bits, unique; existing matches get one each.

On SQLite the column is added in place (``ALTER TABLE … ADD COLUMN``, NOT NULL with an empty default
that no row keeps): rebuilding the ``match`` table would cascade-delete its sides and deals.

Revision ID: 0002
Revises: 0001
Create Date: 2025-12-14
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

_match = sa.table("match", sa.column("id", sa.Integer()), sa.column("watch_id", sa.String(64)))


def upgrade() -> None:
    connection = op.get_bind()
    sqlite = connection.dialect.name == "sqlite"
    # SQLite adds a NOT NULL column only with a default; elsewhere the column is filled, then made NOT NULL.
    op.add_column("match", sa.Column("watch_id", sa.String(length=64), nullable=not sqlite,
                                     server_default="" if sqlite else None))
    ids = connection.execute(sa.select(_match.c.id)).scalars().all()
    for match_id in ids:
        connection.execute(
            _match.update().where(_match.c.id == match_id).values(watch_id=secrets.token_urlsafe(16))
        )
    if not sqlite:
        op.alter_column("match", "watch_id", existing_type=sa.String(length=64), nullable=False)
    op.create_index("ix_match_watch_id", "match", ["watch_id"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_match_watch_id", table_name="match")
    op.drop_column("match", "watch_id")  # SQLite 3.35 or later
