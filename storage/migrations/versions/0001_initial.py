"""The schema as it was before migrations: tables and their event logs.

A database created by that code (no alembic_version table) is adopted: storage.migrate stamps it
at this revision instead of running it.

Revision ID: 0001
Revises:
"""
import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("share_code", sa.String(16), nullable=False, unique=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("players", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("snapshot", sa.Text, nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=False),
    )
    op.create_table(
        "events",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("op", sa.String(16), nullable=False),
        sa.Column("hand_index", sa.Integer),
        sa.Column("body", sa.Text),
        sa.Column("created_at", sa.String(40), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("events")
    op.drop_table("tables")
