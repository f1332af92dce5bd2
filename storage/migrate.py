"""Schema migrations (Alembic, configured here in code: there is no alembic.ini).

The revisions are in ``storage/migrations/versions/``; ``storage/db.py`` holds the metadata they
must add up to (tests/test_migrations.py checks that they agree). To change the schema: edit
``storage/db.py``, then

    .venv/bin/python -m storage.migrate revision -m "what changes and why" --autogenerate

review the new file it writes in ``storage/migrations/versions/`` (``NNNN_what_changes.py``: revision
ids are numbers in order), and run the tests. ``upgrade`` runs at start-up: once in gunicorn's master before any
worker forks (gunicorn.conf.py), else by ``create_app`` itself.

Upgrading takes a lock first (a PostgreSQL advisory lock; SQLite's write lock), so processes that
start together never race: one migrates, the others wait and then find nothing to do. A database
created before migrations existed (the tables are there, ``alembic_version`` is not) is adopted:
stamped at the first revision, whose schema it has, and then upgraded like any other.
"""
from __future__ import annotations

import argparse
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine

from .db import make_engine

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "migrations")
BASELINE = "0001"            # the schema of every database made before migrations
_PG_LOCK_KEY = 0x7E6B0       # any constant: the advisory lock all Tenbou processes agree on


class SchemaOutOfDate(RuntimeError):
    """The database is not at the revision this code needs (and this process may not migrate)."""


def config(connection: Connection | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", HERE)
    cfg.set_main_option("path_separator", "os")
    cfg.set_main_option("file_template", "%%(rev)s_%%(slug)s")
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


@lru_cache(maxsize=1)
def head() -> str:
    """The newest revision (the one this code needs)."""
    heads = ScriptDirectory.from_config(config()).get_heads()
    if len(heads) != 1:
        raise RuntimeError(f"migrations have {len(heads)} heads {heads}: merge them into one")
    return heads[0]


def current(conn: Connection) -> str | None:
    """The revision a database is at; None for an empty database or one made before migrations."""
    return MigrationContext.configure(conn).get_current_revision()


@contextmanager
def _locked(engine: Engine) -> Iterator[Connection]:
    """One connection in one transaction, holding the lock every migrating process takes."""
    with engine.connect().execution_options(write=True) as conn:  # SQLite: BEGIN IMMEDIATE
        with conn.begin():
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_LOCK_KEY})
            yield conn


def upgrade(target: str | Engine, revision: str = "head") -> tuple[str | None, str | None]:
    """Bring a database (URL or engine) to ``revision``; returns (revision before, revision after)."""
    engine = make_engine(target) if isinstance(target, str) else target
    try:
        with _locked(engine) as conn:
            before = current(conn)
            if before is None and inspect(conn).has_table("tables"):
                command.stamp(config(conn), BASELINE)  # made before migrations: adopt it
                before = BASELINE
            if before != head() or revision != "head":
                command.upgrade(config(conn), revision)
            after = current(conn)
    finally:
        if isinstance(target, str):
            engine.dispose()
    return before, after


def downgrade(target: str | Engine, revision: str) -> tuple[str | None, str | None]:
    """Take a database back to ``revision`` (for rolling back a release); returns (before, after)."""
    engine = make_engine(target) if isinstance(target, str) else target
    try:
        with _locked(engine) as conn:
            before = current(conn)
            command.downgrade(config(conn), revision)
            after = current(conn)
    finally:
        if isinstance(target, str):
            engine.dispose()
    return before, after


def check(engine: Engine) -> None:
    """Raise SchemaOutOfDate unless the database is at the head revision (a cheap read)."""
    with engine.connect() as conn:
        at = current(conn)
    if at != head():
        raise SchemaOutOfDate(
            f"the database schema is at revision {at or 'none'} but this code needs {head()}: "
            "run `.venv/bin/python -m storage.migrate upgrade` (./scripts/serve does it before starting)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m storage.migrate", description=__doc__.split("\n")[0])
    parser.add_argument("--url", default=None, help="database URL (default: DATABASE_URL, else the app's SQLite file)")
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("upgrade", help="migrate the database to the newest revision (adopting an old one)")
    sub.add_parser("current", help="print the database's revision")
    down = sub.add_parser("downgrade", help="take the database back to an older revision (rolling back a release)")
    down.add_argument("revision")
    rev = sub.add_parser("revision", help="write a new revision file (compared with a scratch database)")
    rev.add_argument("-m", "--message", required=True)
    rev.add_argument("--autogenerate", action="store_true", help="fill it from the difference with storage/db.py")
    args = parser.parse_args(argv)

    url = args.url or os.environ.get("DATABASE_URL") or os.environ.get("TENBOU_DATABASE_URL") or _default_url()
    if args.cmd == "upgrade":
        before, after = upgrade(url)
        print(f"database schema: {before or 'empty'} -> {after}" if before != after else f"database schema: {after} (current)")
    elif args.cmd == "downgrade":
        before, after = downgrade(url, args.revision)
        print(f"database schema: {before or 'empty'} -> {after or 'empty'}")
    elif args.cmd == "current":
        engine = make_engine(url)
        with engine.connect() as conn:
            print(current(conn) or "none")
        engine.dispose()
    else:
        # autogenerate compares storage/db.py with a database at head: a scratch SQLite one unless --url
        with tempfile.TemporaryDirectory() as scratch:
            url = args.url or f"sqlite:///{os.path.join(scratch, 'head.sqlite3')}"
            upgrade(url)
            engine = make_engine(url)
            with engine.connect() as conn:
                number = len(list(ScriptDirectory.from_config(config()).walk_revisions())) + 1
                command.revision(config(conn), message=args.message, autogenerate=args.autogenerate,
                                 rev_id=f"{number:04d}")
            engine.dispose()


def _default_url() -> str:
    """The URL create_app() uses when DATABASE_URL is not set: SQLite in instance/."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.makedirs(os.path.join(root, "instance"), exist_ok=True)
    return "sqlite:///" + os.path.join(root, "instance", "tenbou.sqlite3")


if __name__ == "__main__":
    main()
