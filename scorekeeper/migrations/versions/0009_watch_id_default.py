"""A match written without a watch link gets one from the database: a server started before 0002, still
running after the upgrade, inserts matches that do not name ``match.watch_id``, and their watch link would
otherwise be empty (SQLite: the empty default of 0002, refused on the second such match by the unique
index) or missing (PostgreSQL: refused as NULL). Matches already left without one get one now.

PostgreSQL fills the column from a default (``gen_random_uuid``, 122 random bits in 32 hex digits). SQLite
cannot give an existing column a default that is not a constant without rebuilding the table, which
would cascade-delete its sides and deals; a trigger fills it after the insert instead (``randomblob``,
128 random bits).

Revision ID: 0009
Revises: 0008
Create Date: 2027-01-10
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

_match = sa.table("match", sa.column("id", sa.Integer()), sa.column("watch_id", sa.String(64)))
TRIGGER = "match_watch_id_filled"


def upgrade() -> None:
    connection = op.get_bind()
    if connection.dialect.name == "sqlite":
        op.execute(f"""CREATE TRIGGER {TRIGGER} AFTER INSERT ON "match" FOR EACH ROW
            WHEN NEW.watch_id IS NULL OR NEW.watch_id = ''
            BEGIN UPDATE "match" SET watch_id = lower(hex(randomblob(16))) WHERE id = NEW.id; END""")
    else:
        op.alter_column("match", "watch_id", existing_type=sa.String(length=64),
                        server_default=sa.text("replace(gen_random_uuid()::text, '-', '')"))
    empty = sa.or_(_match.c.watch_id.is_(None), _match.c.watch_id == "")
    for match_id in connection.execute(sa.select(_match.c.id).where(empty)).scalars().all():
        connection.execute(_match.update().where(_match.c.id == match_id).values(watch_id=secrets.token_urlsafe(16)))


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute(f"DROP TRIGGER IF EXISTS {TRIGGER}")
    else:
        op.alter_column("match", "watch_id", existing_type=sa.String(length=64), server_default=None)
