"""Schema migrations: the revisions build exactly storage/db.py's schema, a database made before
migrations is adopted with every hand kept, and processes starting together never race."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from app import create_app
from services.tables import TableService
from storage import Database, migrate
from storage.db import metadata, normalise_url

ROOT = Path(__file__).resolve().parents[1]
PG_URL = os.environ.get("TEST_DATABASE_URL")


def _backends():
    yield "sqlite"
    if PG_URL:
        yield "postgres"
    elif os.environ.get("REQUIRE_POSTGRES"):
        raise RuntimeError("REQUIRE_POSTGRES is set but TEST_DATABASE_URL is not")


@pytest.fixture(params=list(_backends()))
def empty_db(request, tmp_path):
    """The URL of an empty database: a new SQLite file, or a new PostgreSQL database dropped after."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'empty.sqlite3'}"
        return
    name = f"tenbou_mig_{uuid.uuid4().hex[:12]}"
    admin = create_engine(normalise_url(PG_URL), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def test_the_revisions_build_exactly_the_schema_the_code_uses(empty_db):
    """Fails when storage/db.py changes without a revision (or a revision without storage/db.py)."""
    before, after = migrate.upgrade(empty_db)
    assert (before, after) == (None, migrate.head())
    engine = Database(empty_db).engine
    try:
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), metadata)
    finally:
        engine.dispose()
    assert diff == []


def test_upgrading_twice_changes_nothing(empty_db):
    migrate.upgrade(empty_db)
    assert migrate.upgrade(empty_db) == (migrate.head(), migrate.head())


def written_then_taken_back(url: str, revision: str, write) -> object:
    """A database at an old ``revision`` holding what ``write(service)`` recorded: written by this
    code at head, then taken back by the revisions' own downgrades (the old code wrote the same
    rows: no revision rewrites a hand). Returns what ``write`` returned."""
    migrate.upgrade(url)
    database = Database(url)
    try:
        result = write(TableService(database))
    finally:
        database.dispose()
    migrate.downgrade(url, revision)
    return result


def record_four(service):
    table = service.create({"ruleset": "ema", "players": ["a", "b", "c", "d"]})
    for n in range(3):
        service.record(table["id"], table["edit_token"], n + 1, {"result": "abort", "kind": "four_winds", "riichi": [n]})
    service.undo(table["id"], table["edit_token"], 4)
    return table, service.read(table["id"])


def test_a_database_made_before_migrations_is_adopted_with_every_hand(empty_db):
    table, old_snapshot = written_then_taken_back(empty_db, "0001", record_four)
    engine = Database(empty_db).engine
    with engine.begin() as conn:  # what the old start-up left: the tables, no alembic_version
        conn.execute(text("DROP TABLE alembic_version"))
        assert migrate.current(conn) is None
        assert inspect_has(conn, "events") and not inspect_has(conn, "changes")
        assert not inspect_has(conn, "club_events")
    engine.dispose()

    app = create_app({"TESTING": True, "DATABASE_URL": empty_db})
    try:
        resp = app.test_client().get(f"/api/tables/{table['share_code']}")
        assert resp.status_code == 200
        assert [h["riichi"] for h in resp.get_json()["hands"]] == [[0], [1]]  # the hands, told apart
        assert (resp.get_json()["version"], resp.get_data(as_text=True)) == old_snapshot
        with app.extensions["database"].engine.connect() as conn:
            assert migrate.current(conn) == migrate.head()
        # and it goes on taking hands with the old token
        resp = app.test_client().post(f"/api/tables/{table['id']}/hands", json={"result": "abort", "kind": "four_winds"},
                                      headers={"Authorization": f"Bearer {table['edit_token']}", "If-Match": f'"{old_snapshot[0]}"'})
        assert resp.status_code == 200, resp.get_json()
        assert len(resp.get_json()["hands"]) == 3
        assert [h.get("riichi") for h in resp.get_json()["hands"]] == [[0], [1], None]
    finally:
        app.extensions["database"].dispose()


def test_a_worker_that_may_not_migrate_refuses_an_out_of_date_database(empty_db):
    with pytest.raises(migrate.SchemaOutOfDate, match="storage.migrate upgrade"):
        create_app({"TESTING": True, "DATABASE_URL": empty_db, "MIGRATE": False})
    migrate.upgrade(empty_db)
    app = create_app({"TESTING": True, "DATABASE_URL": empty_db, "MIGRATE": False})
    assert app.test_client().post("/api/tables", json={"ruleset": "wrr", "players": ["a", "b", "c", "d"]}).status_code == 201
    app.extensions["database"].dispose()


STARTER = """
import sys, time
sys.path.insert(0, {root!r})
from app import create_app
import services.tables, storage, web.api, web.recognize, web.tables  # everything create_app imports, before the line
start = {start!r}
time.sleep(max(0.0, start - time.time()))   # every process starts at the same instant
app = create_app({{"DATABASE_URL": {url!r}}})
resp = app.test_client().post("/api/tables", json={{"ruleset": "wrr", "players": ["a", "b", "c", "d"]}})
print(resp.status_code)
"""


def test_processes_starting_together_on_an_empty_database_all_boot(empty_db):
    """Before migrations, two processes on an empty PostgreSQL both ran CREATE TABLE and one died."""
    n = 4
    # import time is the slow part: let every process get to the starting line first
    start = time.time() + 6
    procs = [subprocess.Popen([sys.executable, "-c", STARTER.format(root=str(ROOT), url=empty_db, start=start)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(n)]
    results = [p.communicate(timeout=120) for p in procs]
    for proc, (out, err) in zip(procs, results):
        assert proc.returncode == 0, err[-3000:]
        assert out.strip() == "201", (out, err[-3000:])
    engine = Database(empty_db).engine
    try:
        with engine.connect() as conn:
            assert migrate.current(conn) == migrate.head()
            assert conn.execute(text("SELECT count(*) FROM tables")).scalar_one() == n
    finally:
        engine.dispose()


def test_the_migration_command_line(empty_db):
    env = {**os.environ, "DATABASE_URL": empty_db}
    run = lambda *args: subprocess.run([sys.executable, "-m", "storage.migrate", *args], cwd=ROOT, env=env,  # noqa: E731
                                       capture_output=True, text=True, check=True).stdout.strip()
    assert run("current") == "none"
    assert run("upgrade") == f"database schema: empty -> {migrate.head()}"
    assert run("current") == migrate.head()
    assert json.dumps(run("upgrade")) == json.dumps(f"database schema: {migrate.head()} (current)")


def test_upgrading_a_database_at_0001_with_data_keeps_every_hand(empty_db):
    """From the schema before events and before the log was named ``changes`` (revision 0001),
    with tables and hands in it, upgrading adds the event tables and renames the log; every hand
    and snapshot is kept, old tables take hands, and an old table's next game can be played."""
    tag = lambda n: [{"seat": 0, "points": 100, "reason": n}]  # noqa: E731  (a referee's note tells hands apart)
    hands = [{"result": "draw", "tenpai": [0], "penalties": tag("h0")},
             {"result": "ron", "from_seat": 2, "winners": [{"seat": 1, "value": {"han": 3, "fu": 30}}], "penalties": tag("h1")},
             {"result": "end", "penalties": tag("h2")}]

    def write(service):
        table = service.create({"ruleset": "wrr", "players": ["a", "b", "c", "d"]})
        for version, hand in enumerate(hands, start=1):
            service.record(table["id"], table["edit_token"], version, hand)
        return table, service.read(table["id"])

    table, old_snapshot = written_then_taken_back(empty_db, "0001", write)
    engine = Database(empty_db).engine
    with engine.connect() as conn:
        assert migrate.current(conn) == "0001"
        assert not inspect_has(conn, "club_events") and not inspect_has(conn, "changes")
        assert conn.execute(text("SELECT count(*) FROM events")).scalar_one() == len(hands)
    engine.dispose()

    assert migrate.upgrade(empty_db) == ("0001", migrate.head())
    app = create_app({"TESTING": True, "DATABASE_URL": empty_db})
    try:
        client = app.test_client()
        resp = client.get(f"/api/tables/{table['id']}")
        assert (resp.get_json()["version"], resp.get_data(as_text=True)) == old_snapshot
        assert [h["penalties"][0]["reason"] for h in resp.get_json()["hands"]] == ["h0", "h1", "h2"]
        nxt = client.post(f"/api/tables/{table['id']}/next", headers={"Authorization": f"Bearer {table['edit_token']}"})
        assert nxt.status_code == 201 and nxt.get_json()["previous_table"] == table["id"]
        again = client.get(f"/api/tables/{table['id']}").get_json()
        assert [h["penalties"][0]["reason"] for h in again["hands"]] == ["h0", "h1", "h2"]
        assert again["next_table"] == nxt.get_json()["id"]
        ev = client.post("/api/events", json={"name": "after the upgrade", "players": ["a", "b", "c", "d"]})
        assert ev.status_code == 201
    finally:
        app.extensions["database"].dispose()


def test_the_log_renamed_to_changes_goes_back_and_forth_with_its_rows(empty_db):
    """Revision 0003 only renames the log: down to 0002 and up again keeps every change."""
    table, snapshot = written_then_taken_back(empty_db, "0002", record_four)
    engine = Database(empty_db).engine
    with engine.connect() as conn:
        assert inspect_has(conn, "events") and not inspect_has(conn, "changes")
        assert conn.execute(text("SELECT count(*) FROM events")).scalar_one() == 4  # 3 hands and an undo
    engine.dispose()
    assert migrate.upgrade(empty_db) == ("0002", migrate.head())
    database = Database(empty_db)
    try:
        service = TableService(database)
        assert service.read(table["id"]) == snapshot
        with database.engine.connect() as conn:
            assert [c["op"] for c in database.changes_of(conn, table["id"])] == ["add", "add", "add", "undo"]
            diff = compare_metadata(MigrationContext.configure(conn), metadata)
        assert diff == []
    finally:
        database.dispose()


def inspect_has(conn, name: str) -> bool:
    from sqlalchemy import inspect

    return inspect(conn).has_table(name)


def test_gunicorn_prepares_an_empty_database_once_before_its_workers(empty_db, tmp_path):
    """The production path: the master migrates in on_starting, both workers boot and only check."""
    from server_helpers import free_port

    port = free_port()
    log = tmp_path / "gunicorn.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith("TENBOU_")}
    env.update({"DATABASE_URL": empty_db, "BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": "2", "ACCESS_LOG": "/dev/null"})
    with open(log, "w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "app:create_app()"],
                                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 90
        while log.read_text().count("Booting worker") < 2 or "Listening at" not in log.read_text():
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.2)
        import urllib.request
        for _ in range(4):  # reach both workers, most likely
            body = urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rulesets", timeout=30).read()
            assert body
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    text = log.read_text()
    assert text.count("database schema: empty -> ") == 1
    assert "Worker failed to boot" not in text and "Traceback" not in text, text[-3000:]


def test_table_boards_come_and_go_with_0004_and_a_table_from_before_gets_its_board_from_the_log(empty_db):
    """Revision 0004 adds the boards kept with the logs; down to 0003 drops them and keeps every
    change. A table written at 0003 has no board: its next write builds it from its log."""
    table, snapshot = written_then_taken_back(empty_db, "0003", record_four)
    engine = Database(empty_db).engine
    with engine.connect() as conn:
        from sqlalchemy import inspect

        assert not inspect_has(conn, "table_boards")
        assert "board_version" not in {c["name"] for c in inspect(conn).get_columns("tables")}
        assert conn.execute(text("SELECT count(*) FROM changes")).scalar_one() == 4
    engine.dispose()
    assert migrate.upgrade(empty_db) == ("0003", migrate.head())
    database = Database(empty_db)
    try:
        with database.engine.connect() as conn:
            assert conn.execute(text("SELECT version, board_version FROM tables")).one() == (5, 0)
            assert conn.execute(text("SELECT count(*) FROM table_boards")).scalar_one() == 0
        service = TableService(database)
        assert service.read(table["id"]) == snapshot
        written = json.loads(service.record(table["id"], table["edit_token"], 5, {"result": "abort", "kind": "four_winds"}))
        assert [h.get("riichi") for h in written["hands"]] == [[0], [1], None]
        with database.engine.connect() as conn:
            assert conn.execute(text("SELECT version, board_version FROM tables")).one() == (6, 6)
            assert conn.execute(text("SELECT hand_index FROM table_boards ORDER BY hand_index")).scalars().all() == [0, 1, 2]
        # and back down: the log is all there is again, with its new change
        database.dispose()
        migrate.downgrade(empty_db, "0003")
        with database.engine.connect() as conn:
            assert not inspect_has(conn, "table_boards")
            assert conn.execute(text("SELECT count(*) FROM changes")).scalar_one() == 5
    finally:
        database.dispose()


def test_request_keys_come_and_go_with_0005_and_the_changes_from_before_keep_none(empty_db):
    """Revision 0005 gives each change the Idempotency-Key it came with. The changes written before
    have none and are kept as they are; down to 0004 drops the keys and keeps every change."""
    table, snapshot = written_then_taken_back(empty_db, "0004", record_four)
    engine = Database(empty_db).engine
    with engine.connect() as conn:
        from sqlalchemy import inspect

        assert "request_key" not in {c["name"] for c in inspect(conn).get_columns("changes")}
    engine.dispose()
    assert migrate.upgrade(empty_db) == ("0004", migrate.head())
    database = Database(empty_db)
    try:
        service = TableService(database)
        assert service.read(table["id"]) == snapshot
        hand = {"result": "abort", "kind": "four_winds"}
        first = service.record(table["id"], table["edit_token"], 5, hand, "k-1")
        assert service.record(table["id"], table["edit_token"], 5, hand, "k-1") == first  # sent again: made once
        with database.engine.connect() as conn:
            keys = conn.execute(text("SELECT request_key FROM changes ORDER BY version")).scalars().all()
        assert keys == [None, None, None, None, "k-1"]
        database.dispose()
        migrate.downgrade(empty_db, "0004")
        with database.engine.connect() as conn:
            assert "request_key" not in {c["name"] for c in inspect(conn).get_columns("changes")}
            assert conn.execute(text("SELECT count(*) FROM changes")).scalar_one() == 5
    finally:
        database.dispose()
