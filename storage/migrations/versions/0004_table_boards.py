"""A table's board is kept with its log: ``table_boards`` holds each hand, its record and the state
after it, and ``tables.board_version`` says which version of the log they stand for. A write then
replays only from the hand it changes. Existing tables start at board version 0 and get their board
built from their log on their next write; no change of the log is touched either way.

Revision ID: 0004
Revises: 0003
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("board_version", sa.Integer(), nullable=False, server_default="0"))
    op.create_table(
        "table_boards",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("hand_index", sa.Integer(), primary_key=True),
        sa.Column("hand", sa.Text(), nullable=False),
        sa.Column("record", sa.Text(), nullable=False),
        sa.Column("state", sa.Text(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("table_boards")
    op.drop_column("tables", "board_version")  # SQLite 3.35+ drops a column in place
