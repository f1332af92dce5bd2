"""All SQL for tables and their hand logs (SQLAlchemy Core; SQLite by default, PostgreSQL by URL).

Schema:
- ``tables``: one row per table, with the hash of its edit token, its current ``version`` and the
  derived table JSON for that version (a cache rebuilt on every write, never the truth).
- ``changes``: a table's append-only log. Each write adds one change (``add`` a hand, ``undo`` the
  last, ``replace`` hand n, ``next`` game); the hand list is the fold of the changes
  (:func:`game.board.fold`), and the state its replay. Named ``events`` before revision 0003.
  ``(table_id, version)`` is the primary key, so two writers can never both append version n.
  ``request_key`` is the Idempotency-Key the write came with (unique per table, revision 0005): a
  phone that sends a change again because it never got the answer finds it made, not a conflict.
- ``table_boards``: a table's board, kept with its log so a write replays only from the hand it
  changes: one row per hand (the hand as sent, its record in the table JSON, and the state after
  it). ``tables.board_version`` is the log version the rows stand for; a table whose board is
  behind its log (written before revision 0004) has it rebuilt from the log on its next write.
  The log stays the truth: the board can always be rebuilt from it.
- ``table_links``: a game that follows another with the same players ("next game").
- ``club_events``: a club night or a league season: its organiser token's hash, rule set, players,
  settings and the seating of its rounds (JSON), and a version bumped on every change.
- ``event_games``: which tables are games of an event, in order, with the event player at each
  seat (``entrants``, null for a substitute) and whether the organiser excluded the game.
"""
from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Boolean, Column, ForeignKey, Index, Integer, MetaData, String, Table, Text, create_engine, delete, event, func, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, IntegrityError

from game.board import fold

metadata = MetaData()

tables = Table(
    "tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("share_code", String(16), nullable=False, unique=True),
    Column("token_hash", String(64), nullable=False),
    Column("ruleset", String(32), nullable=False),
    Column("rules", Text, nullable=False),
    Column("players", Text, nullable=False),
    Column("version", Integer, nullable=False),
    Column("snapshot", Text, nullable=False),
    Column("created_at", String(40), nullable=False),
    Column("updated_at", String(40), nullable=False),
    Column("board_version", Integer, nullable=False, server_default="0"),
)

table_boards = Table(
    "table_boards", metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("hand_index", Integer, primary_key=True),
    Column("hand", Text, nullable=False),
    Column("record", Text, nullable=False),
    Column("state", Text, nullable=False),
)

changes = Table(
    "changes", metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("version", Integer, primary_key=True),
    Column("op", String(16), nullable=False),
    Column("hand_index", Integer),
    Column("body", Text),
    Column("created_at", String(40), nullable=False),
    Column("request_key", String(64)),
    # one change per key and table: a change sent twice is stored once (NULLs never collide)
    Index("changes_request_key", "table_id", "request_key", unique=True),
)


table_links = Table(
    "table_links", metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("previous_id", String(32), ForeignKey("tables.id"), nullable=False, unique=True),
)

club_events = Table(
    "club_events", metadata,
    Column("id", String(32), primary_key=True),
    Column("share_code", String(16), nullable=False, unique=True),
    Column("token_hash", String(64), nullable=False),
    Column("name", String(80), nullable=False),
    Column("ruleset", String(32), nullable=False),
    Column("rules", Text, nullable=False),
    Column("players", Text, nullable=False),
    Column("settings", Text, nullable=False),
    Column("rounds", Text, nullable=False),
    Column("version", Integer, nullable=False),
    Column("created_at", String(40), nullable=False),
    Column("updated_at", String(40), nullable=False),
)

event_games = Table(
    "event_games", metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("event_id", String(32), ForeignKey("club_events.id"), nullable=False, index=True),
    Column("position", Integer, nullable=False),
    Column("round", Integer),
    Column("entrants", Text, nullable=False),
    Column("excluded", Boolean, nullable=False),
    Column("created_at", String(40), nullable=False),
)

EVENT_JSON = ("rules", "players", "settings", "rounds")


class VersionConflict(Exception):
    """Another write landed first."""


@dataclass(frozen=True)
class TableRow:
    id: str
    share_code: str
    token_hash: str
    ruleset: str
    rules: dict
    players: list
    version: int
    snapshot: str
    created_at: str
    updated_at: str
    board_version: int = 0


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def normalise_url(url: str) -> str:
    """Accept the usual postgres:// and postgresql:// URLs and use the psycopg 3 driver."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def make_engine(url: str) -> Engine:
    url = normalise_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record):
            dbapi_conn.isolation_level = None  # we issue BEGIN ourselves
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        @event.listens_for(engine, "begin")
        def _sqlite_begin(conn: Connection):
            # writers take the write lock up front, so a read-then-write never deadlocks; a read of
            # one statement needs no transaction of its own
            options = conn.get_execution_options()
            if options.get("write"):
                conn.exec_driver_sql("BEGIN IMMEDIATE")
            elif not options.get("single_read"):
                conn.exec_driver_sql("BEGIN")
    else:
        engine = create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=10)
    return engine


class StorageUnavailable(Exception):
    """The storage is known to be unusable (a damaged SQLite file): nothing is written to it."""


def storage_failure(err: BaseException) -> bool:
    """Whether ``err`` says the storage cannot be used now (a database down or unreachable, a disk
    full, a damaged SQLite file) rather than a bug in a query (a constraint or syntax error)."""
    from sqlalchemy import exc as sa

    if isinstance(err, (sa.IntegrityError, sa.ProgrammingError, sa.DataError, sa.NotSupportedError)):
        return False
    if isinstance(err, (StorageUnavailable, sa.OperationalError, sa.InterfaceError, sa.DatabaseError, sa.TimeoutError,
                        sa.DisconnectionError)):
        return True
    import errno

    return isinstance(err, OSError) and err.errno in (errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EROFS)


#: For this long after a write failed for want of storage (a full disk), /healthz says so, unless a
#: write succeeds meanwhile: reads alone cannot tell that writes fail.
WRITE_FAILURE_SECONDS = 60.0


class Database:
    def __init__(self, url: str):
        """Connect; the schema is prepared apart, by storage.migrate (see create_app)."""
        self.engine = make_engine(url)
        self._write_failed_at: float | None = None
        #: how often (seconds) SQLite's quick_check runs, for /healthz and before writes (INTEGRITY_CHECK_SECONDS)
        self.integrity_every = 300.0
        self._integrity: tuple[float | None, bool] = (None, True)   # (when, verdict) of quick_check
        self._integrity_lock = threading.Lock()

    def dispose(self) -> None:
        self.engine.dispose()

    @contextmanager
    def writing(self) -> Iterator[Connection]:
        try:
            with self.engine.connect().execution_options(write=True) as conn:
                with conn.begin():
                    # a damaged SQLite file may still take a new row (a table answered 201 that no
                    # read could return): write nothing to it (the check is cached, see health())
                    if conn.dialect.name == "sqlite" and not self._integrity_ok(conn, self.integrity_every):
                        raise StorageUnavailable("the database file is damaged")
                    yield conn
        except Exception as err:
            if storage_failure(err):
                self._write_failed_at = time.monotonic()
            raise
        self._write_failed_at = None

    def writes_failing(self) -> bool:
        """Whether the last write failed for want of storage, within WRITE_FAILURE_SECONDS."""
        failed = self._write_failed_at
        return failed is not None and time.monotonic() - failed < WRITE_FAILURE_SECONDS

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        """One read transaction: every query in it sees the same committed state.

        SQLite: a deferred BEGIN holds one snapshot from the first read (WAL). PostgreSQL: REPEATABLE
        READ, so the second query does not see a write committed after the first.
        """
        conn = self.engine.connect()
        try:
            if conn.dialect.name == "postgresql":
                conn = conn.execution_options(isolation_level="REPEATABLE READ")
            with conn.begin():
                yield conn
        finally:
            conn.close()

    def ping(self) -> None:
        with self.engine.connect() as conn:
            conn.execute(select(1)).scalar_one()

    def health(self, integrity_every: float = 300.0) -> str:
        """"ok", "unreachable" or "corrupt", as cheaply as can be told.

        Every call really reads both tables (the newest rows, through their primary keys), which a
        damaged root or index page fails. On SQLite, ``PRAGMA quick_check`` (every page, no index
        cross-check) runs too, at most once per ``integrity_every`` seconds per process; its
        verdict is kept in between. PostgreSQL checksums its pages on read itself.
        """
        try:
            with self.engine.connect().execution_options(single_read=True) as conn:
                conn.execute(select(tables.c.id).order_by(tables.c.id.desc()).limit(1)).all()
                conn.execute(select(changes.c.table_id, changes.c.version, changes.c.body)
                             .order_by(changes.c.table_id.desc(), changes.c.version.desc()).limit(1)).all()
                if conn.dialect.name == "sqlite" and not self._integrity_ok(conn, integrity_every):
                    return "corrupt"
        except DBAPIError as err:
            text = str(err.orig).lower()
            if any(word in text for word in ("malformed", "not a database", "corrupt", "checksum")) \
                    or getattr(err.orig, "sqlstate", "") in ("XX001", "XX002"):  # data / index corrupted
                return "corrupt"
            raise
        return "writes failing" if self.writes_failing() else "ok"

    def _integrity_ok(self, conn: Connection, every: float) -> bool:
        with self._integrity_lock:
            checked_at, ok = self._integrity
            if checked_at is None or time.monotonic() - checked_at >= every:
                rows = conn.exec_driver_sql("PRAGMA quick_check(1)").fetchall()
                ok = rows == [("ok",)]
                self._integrity = (time.monotonic(), ok)
            return ok

    # --- reads ---------------------------------------------------------------------------
    def find(self, key: str, conn: Connection | None = None) -> TableRow | None:
        """A table by id or by share code."""
        query = select(tables).where((tables.c.id == key) | (tables.c.share_code == key.upper()))
        if conn is not None:
            row = conn.execute(query).mappings().first()
        else:
            with self.engine.connect() as c:
                row = c.execute(query).mappings().first()
        if row is None:
            return None
        return TableRow(**{**row, "rules": json.loads(row["rules"]), "players": json.loads(row["players"])})

    def snapshot(self, key: str) -> tuple[int, str] | None:
        """(version, table JSON) by id or share code: the read path, with nothing decoded."""
        with self.engine.connect().execution_options(single_read=True) as conn:
            row = conn.execute(select(tables.c.version, tables.c.snapshot).where(tables.c.id == key)).first()
            if row is None and len(key) <= 16:
                row = conn.execute(select(tables.c.version, tables.c.snapshot)
                                   .where(tables.c.share_code == key.upper())).first()
        return (row[0], row[1]) if row is not None else None

    def changes_of(self, conn: Connection, table_id: str) -> list[dict]:
        rows = conn.execute(select(changes).where(changes.c.table_id == table_id).order_by(changes.c.version)).mappings()
        return [{**r, "body": json.loads(r["body"]) if r["body"] is not None else None} for r in rows]

    def made_by(self, table_id: str, request_key: str, conn: Connection | None = None) -> dict | None:
        """The change ``request_key`` made to the table (its op, hand_index and body), None if none."""
        query = (select(changes.c.op, changes.c.hand_index, changes.c.body)
                 .where((changes.c.table_id == table_id) & (changes.c.request_key == request_key)))
        if conn is not None:
            row = conn.execute(query).mappings().first()
        else:
            with self.engine.connect() as c:
                row = c.execute(query).mappings().first()
        return None if row is None else {**row, "body": json.loads(row["body"]) if row["body"] is not None else None}

    # --- writes --------------------------------------------------------------------------
    def insert_table(self, conn: Connection, *, id: str, share_code: str, token_hash: str, ruleset: str,
                     rules: dict, players: list, snapshot: str, stamp: str) -> bool:
        """Insert a new table at version 1; False if the id or share code is taken."""
        try:
            with conn.begin_nested():
                conn.execute(insert(tables).values(
                    id=id, share_code=share_code, token_hash=token_hash, ruleset=ruleset, rules=json.dumps(rules),
                    players=json.dumps(players), version=1, snapshot=snapshot, created_at=stamp, updated_at=stamp,
                    board_version=1))
        except IntegrityError:
            return False
        return True

    def append_change(self, conn: Connection, table_id: str, version: int, op: str, hand_index: int | None,
                     body: dict | None, snapshot_for, board: bool = True, request_key: str | None = None) -> str:
        """Append change ``version + 1`` and store the new snapshot; VersionConflict if not current
        (or if ``request_key`` already made a change of this table).
        ``board``: the caller brought the table's board rows to the new version in this transaction."""
        new_version = version + 1
        stamp = now()
        snapshot = snapshot_for(new_version, stamp)
        values = {"version": new_version, "snapshot": snapshot, "updated_at": stamp}
        if board:
            values["board_version"] = new_version
        result = conn.execute(update(tables).where((tables.c.id == table_id) & (tables.c.version == version))
                              .values(**values))
        if result.rowcount != 1:
            raise VersionConflict()
        try:
            with conn.begin_nested():
                conn.execute(insert(changes).values(
                    table_id=table_id, version=new_version, op=op, hand_index=hand_index,
                    body=json.dumps(body) if body is not None else None, created_at=stamp, request_key=request_key))
        except IntegrityError:
            raise VersionConflict() from None
        return snapshot


    # --- a table's board: one row per hand --------------------------------------------------
    def board_count(self, conn: Connection, table_id: str) -> int:
        """How many hands the board holds (the primary key's last entry: no scan)."""
        last = conn.execute(select(func.max(table_boards.c.hand_index)).where(table_boards.c.table_id == table_id)).scalar()
        return 0 if last is None else last + 1

    def board_rows(self, conn: Connection, table_id: str, start: int = 0, stop: int | None = None,
                   columns: tuple[str, ...] = ("hand_index", "hand", "record", "state")) -> list:
        """Rows ``start`` to ``stop`` (exclusive) of a table's board, in order, undecoded."""
        query = select(*(table_boards.c[c] for c in columns)).where(
            (table_boards.c.table_id == table_id) & (table_boards.c.hand_index >= start))
        if stop is not None:
            query = query.where(table_boards.c.hand_index < stop)
        return list(conn.execute(query.order_by(table_boards.c.hand_index)).all())

    def board_state(self, conn: Connection, table_id: str, index: int) -> str | None:
        """The state after hand ``index`` (JSON text), or None if there is no such hand."""
        if index < 0:
            return None
        return conn.execute(select(table_boards.c.state).where(
            (table_boards.c.table_id == table_id) & (table_boards.c.hand_index == index))).scalar()

    def put_board_rows(self, conn: Connection, table_id: str, start: int, rows: list[tuple[str, str, str]]) -> None:
        """Replace the board from hand ``start`` on with ``rows`` (hand, record, state as JSON text)."""
        conn.execute(delete(table_boards).where((table_boards.c.table_id == table_id) & (table_boards.c.hand_index >= start)))
        if rows:
            try:
                conn.execute(insert(table_boards), [{"table_id": table_id, "hand_index": start + i, "hand": h, "record": r, "state": s}
                                                    for i, (h, r, s) in enumerate(rows)])
            except IntegrityError:  # another writer built the same rows first (PostgreSQL): the caller rolls back
                raise VersionConflict() from None

    # --- links between games, and events -------------------------------------------------
    def links_of(self, conn: Connection, table_id: str) -> dict:
        """The game before and after this one, and the event it belongs to (if any)."""
        out: dict = {}
        prev = conn.execute(select(table_links.c.previous_id).where(table_links.c.table_id == table_id)).scalar()
        nxt = conn.execute(select(table_links.c.table_id).where(table_links.c.previous_id == table_id)).scalar()
        if prev:
            out["previous_table"] = prev
        if nxt:
            out["next_table"] = nxt
        ev = conn.execute(select(club_events.c.id, club_events.c.name, club_events.c.share_code, event_games.c.entrants)
                          .join(event_games, event_games.c.event_id == club_events.c.id)
                          .where(event_games.c.table_id == table_id)).mappings().first()
        if ev:
            out["event"] = {"id": ev["id"], "name": ev["name"], "share_code": ev["share_code"],
                            "entrants": json.loads(ev["entrants"])}
        return out

    def link_tables(self, conn: Connection, previous_id: str, table_id: str) -> bool:
        try:
            with conn.begin_nested():
                conn.execute(insert(table_links).values(table_id=table_id, previous_id=previous_id))
        except IntegrityError:
            return False
        return True

    def event_token_hash_of_table(self, conn: Connection, table_id: str) -> str | None:
        return conn.execute(select(club_events.c.token_hash).join(event_games, event_games.c.event_id == club_events.c.id)
                            .where(event_games.c.table_id == table_id)).scalar()

    def insert_event(self, conn: Connection, **row) -> bool:
        values = {**row, **{k: json.dumps(row[k]) for k in EVENT_JSON}}
        try:
            with conn.begin_nested():
                conn.execute(insert(club_events).values(**values))
        except IntegrityError:
            return False
        return True

    def find_event(self, key: str, conn: Connection | None = None) -> dict | None:
        query = select(club_events).where((club_events.c.id == key) | (club_events.c.share_code == key.upper()))
        if conn is not None:
            row = conn.execute(query).mappings().first()
        else:
            with self.engine.connect() as c:
                row = c.execute(query).mappings().first()
        if row is None:
            return None
        return {**row, **{k: json.loads(row[k]) for k in EVENT_JSON}}

    def update_event(self, conn: Connection, event_id: str, version: int, **changes) -> int:
        """Store changes and bump the version; VersionConflict if another write came first."""
        values = {k: json.dumps(v) if k in EVENT_JSON else v for k, v in changes.items()}
        result = conn.execute(update(club_events).where((club_events.c.id == event_id) & (club_events.c.version == version))
                              .values(**values, version=version + 1, updated_at=now()))
        if result.rowcount != 1:
            raise VersionConflict()
        return version + 1

    def add_event_game(self, conn: Connection, event_id: str, table_id: str, round: int | None, entrants: list) -> None:
        position = conn.execute(select(func.coalesce(func.max(event_games.c.position), 0))
                                .where(event_games.c.event_id == event_id)).scalar_one() + 1
        conn.execute(insert(event_games).values(table_id=table_id, event_id=event_id, position=position, round=round,
                                                entrants=json.dumps(entrants), excluded=False, created_at=now()))

    def event_game_count(self, conn: Connection, event_id: str) -> int:
        return conn.execute(select(func.count()).select_from(event_games)
                            .where(event_games.c.event_id == event_id)).scalar_one()

    def set_game_excluded(self, conn: Connection, event_id: str, table_id: str, excluded: bool) -> bool:
        result = conn.execute(update(event_games).where((event_games.c.event_id == event_id) & (event_games.c.table_id == table_id))
                              .values(excluded=excluded))
        return result.rowcount == 1

    def event_fingerprint(self, key: str) -> tuple[str, str] | None:
        """(event id, a tag that changes whenever the event or any of its games changes): its
        version, its number of games and the sum of their tables' versions (which only grow)."""
        with self.engine.connect().execution_options(single_read=True) as conn:
            row = conn.execute(select(club_events.c.id, club_events.c.version)
                               .where((club_events.c.id == key) | (club_events.c.share_code == key.upper()))).first()
            if row is None:
                return None
            games = conn.execute(select(func.count(), func.coalesce(func.sum(tables.c.version), 0))
                                 .select_from(event_games.join(tables, tables.c.id == event_games.c.table_id))
                                 .where(event_games.c.event_id == row[0])).one()
        return row[0], f"{row[1]}.{games[0]}.{games[1]}"

    def event_games_cached(self, event_id: str, known: dict[str, tuple[int, dict]]) -> list[dict]:
        """The event's games in order, like :meth:`event_games_of`, decoding only the tables whose
        version is not the one in ``known`` (table id -> (version, table JSON decoded)), which is
        brought up to date: after one hand, one table is read and decoded, not every table."""
        with self.reading() as conn:
            rows = conn.execute(select(event_games.c.table_id, event_games.c.position, event_games.c.round, event_games.c.entrants,
                                       event_games.c.excluded, tables.c.version)
                                .join(tables, tables.c.id == event_games.c.table_id)
                                .where(event_games.c.event_id == event_id).order_by(event_games.c.position)).mappings().all()
            stale = [r["table_id"] for r in rows if known.get(r["table_id"], (None,))[0] != r["version"]]
            for i in range(0, len(stale), 500):
                for tid, version, snapshot in conn.execute(select(tables.c.id, tables.c.version, tables.c.snapshot)
                                                           .where(tables.c.id.in_(stale[i:i + 500]))).all():
                    known[tid] = (version, json.loads(snapshot))
        for gone in set(known) - {r["table_id"] for r in rows}:
            del known[gone]
        return [{"table_id": r["table_id"], "position": r["position"], "round": r["round"],
                 "entrants": json.loads(r["entrants"]), "excluded": bool(r["excluded"]),
                 "table": known[r["table_id"]][1]} for r in rows]

    def event_games_of(self, event_id: str, conn: Connection | None = None) -> list[dict]:
        """The event's games in order, each with its table's current JSON."""
        query = (select(event_games.c.table_id, event_games.c.position, event_games.c.round, event_games.c.entrants,
                        event_games.c.excluded, tables.c.snapshot)
                 .join(tables, tables.c.id == event_games.c.table_id)
                 .where(event_games.c.event_id == event_id).order_by(event_games.c.position))
        if conn is not None:
            rows = conn.execute(query).mappings().all()
        else:
            with self.engine.connect() as c:
                rows = c.execute(query).mappings().all()
        return [{"table_id": r["table_id"], "position": r["position"], "round": r["round"],
                 "entrants": json.loads(r["entrants"]), "excluded": bool(r["excluded"]),
                 "table": json.loads(r["snapshot"])} for r in rows]


def hands_from_changes(log: list[dict]) -> list[dict]:
    """Fold the log of changes into the current list of hands (the same fold a phone runs offline)."""
    return fold(log)
