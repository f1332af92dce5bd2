"""Events (club nights, league seasons), the games linked to them, and a game's next game.

New tables only: nothing in ``tables`` or ``events`` (the hand logs) changes.

Revision ID: 0002
Revises: 0001
"""
import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "club_events",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("share_code", sa.String(16), nullable=False, unique=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("players", sa.Text, nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("rounds", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=False),
    )
    op.create_table(
        "event_games",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("event_id", sa.String(32), sa.ForeignKey("club_events.id"), nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("round", sa.Integer),
        sa.Column("entrants", sa.Text, nullable=False),
        sa.Column("excluded", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
    )
    op.create_index("ix_event_games_event_id", "event_games", ["event_id"])
    op.create_table(
        "table_links",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("previous_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False, unique=True),
    )


def downgrade() -> None:
    op.drop_table("table_links")
    op.drop_index("ix_event_games_event_id", table_name="event_games")
    op.drop_table("event_games")
    op.drop_table("club_events")
