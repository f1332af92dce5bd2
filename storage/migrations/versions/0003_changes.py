"""A table's log of changes is named ``changes``, as game/board.py calls it (it was ``events``,
which also meant the club events of ``club_events``). Rows and columns are kept as they are.

Revision ID: 0003
Revises: 0002
"""
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

# PostgreSQL names a table's constraints after it; they follow the table's new name.
_PG_CONSTRAINTS = (("events_pkey", "changes_pkey"), ("events_table_id_fkey", "changes_table_id_fkey"))


def _rename(old: str, new: str) -> None:
    op.rename_table(old, new)
    if op.get_bind().dialect.name == "postgresql":
        for a, b in _PG_CONSTRAINTS:
            before, after = (a, b) if new == "changes" else (b, a)
            op.execute(f'ALTER TABLE {new} RENAME CONSTRAINT "{before}" TO "{after}"')


def upgrade() -> None:
    _rename("events", "changes")


def downgrade() -> None:
    _rename("changes", "events")
