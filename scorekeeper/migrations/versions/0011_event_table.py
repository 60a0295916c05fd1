"""An event may be held by a table (a club): ``event.table_id``, empty for every event stored before (it
goes on belonging to no table). The matches seated for such an event carry the same ``match.table_id``.

Revision ID: 0011
Revises: 0010
Create Date: 2027-01-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("event", sa.Column("table_id", sa.Integer(), nullable=True))
    op.create_index("ix_event_table_id", "event", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_event_table_id", "event")
    with op.batch_alter_table("event") as batch:
        batch.drop_column("table_id")
