"""Alembic environment for Tenbou's schema (programmatic: no alembic.ini; see storage/migrate.py).

storage.migrate.upgrade() opens one connection, takes the migration lock on it and hands it over in
``config.attributes["connection"]``; everything here runs inside that connection's transaction.
"""
from alembic import context

from storage.db import metadata

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=metadata,
    # SQLite cannot ALTER most things: op.batch_alter_table() rebuilds the table instead.
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
