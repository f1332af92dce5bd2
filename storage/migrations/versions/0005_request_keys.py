"""A change remembers the Idempotency-Key it came with: ``changes.request_key``, unique per table.
A phone that lost the answer to a hand it sent (the wifi dropped after the server stored it) sends
the hand again with the same key and gets the table back, rather than a conflict it would resolve
by recording the hand twice. Changes made before have no key; none is touched.

Revision ID: 0005
Revises: 0004
"""
import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("changes", sa.Column("request_key", sa.String(64), nullable=True))
    op.create_index("changes_request_key", "changes", ["table_id", "request_key"], unique=True)


def downgrade() -> None:
    op.drop_index("changes_request_key", table_name="changes")
    op.drop_column("changes", "request_key")  # SQLite 3.35+ drops a column in place
