"""Tables: create, read, record hands, undo, correct, export. No Flask here.

Every write is one transaction: apply the change to the table's board (kept with the log, one
row per hand with the state after it), replaying only from the hand it changes (so an impossible
hand is refused before anything is stored), then append one change to the log and the new
snapshot only if the version the client saw is still current. A write costs the same at hand
1,000 as at hand 10; a correction replays from the corrected hand on. The log stays the truth: a
board behind its log is rebuilt from it.
"""
from __future__ import annotations

import csv
import hashlib
import hmac
import io
import json
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from game.board import board, change_hands
from game.ledger import LedgerError, TableState, clean_hand, new_state, printable, replay, state_dict, state_from_json, state_to_json
from scoring.errors import Refusal, ScoringError
from scoring.rules import get_ruleset
from storage.db import Database, TableRow, VersionConflict, hands_from_changes, now

SHARE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
#: 16 characters of 32 are 80 bits: at 500 guesses a second against a million tables, one hit takes
#: about 76,000 years on average. Codes of 6 characters made before are still found.
SHARE_CODE_LENGTH = 16
MAX_PLAYER_NAME = 40
MAX_HANDS = 1000
#: Changes (hands added, undone or corrected) one table keeps in its log, and the bytes of one hand.
MAX_CHANGES = 3000
MAX_HAND_BYTES = 16 * 1024
KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
MAX_KEY = 32


class TableError(Refusal):
    """A request the tables and events layer refuses. ``table`` is the table's current JSON when the
    refusal is a conflict, so the phone can show what changed."""

    def __init__(self, field: str | None, kind: str | None, detail_id: str, /, table: str | None = None,
                 **params: Any) -> None:
        super().__init__(field, kind, detail_id, **params)
        self.table = table


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def player_names(raw: Any, least: int, most: int) -> list[str]:
    """``raw`` as a list of ``least`` to ``most`` distinct, printable, stripped names: the one rule
    for a table's four players and an event's players. A name is refused at ``players[i]`` (the list
    index, from 0); the sentence a player reads numbers players from 1, as people count them."""
    if not isinstance(raw, list):
        raise TableError("players", "malformed", "players_list")
    if not least <= len(raw) <= most:
        if least == most == 4:
            raise TableError("players", "impossible", "table_players_count", count=len(raw))
        raise TableError("players", "impossible", "event_players_count", min=least, max=most, count=len(raw))
    names: list[str] = []
    for i, name in enumerate(raw):
        field = f"players[{i}]"
        if not isinstance(name, str) or not name.strip():
            raise TableError(field, "impossible", "player_name_missing", number=i + 1)
        if len(name.strip()) > MAX_PLAYER_NAME:
            raise TableError(field, "impossible", "name_length", max=MAX_PLAYER_NAME)
        if not printable(name):
            raise TableError(field, "impossible", "name_characters")
        # two players of one name make the board, the history and the standings ambiguous
        same = [j for j, other in enumerate(names) if other.casefold() == name.strip().casefold()]
        if same:
            raise TableError(field, "impossible", "name_taken", name=name.strip(), number=same[0] + 1)
        names.append(name.strip())
    return names


def rules_of(ruleset_id: Any, overrides: Any):
    try:
        return get_ruleset(ruleset_id, overrides)
    except ScoringError as err:
        raise err.moved(TableError, err.field) from None


def parse_if_match(value: str | None) -> int | None:
    """The table version a write says it was made on (None when the header is missing or "*")."""
    if value is None or value.strip() in ("", "*"):
        return None
    text = value.strip()
    if text.startswith("W/"):
        text = text[2:]
    text = text.strip('"')
    if not (text.isascii() and text.isdigit() and len(text) <= 12):
        raise TableError("If-Match", "malformed", "if_match")
    return int(text)


class _MadeBefore(Exception):
    """A write whose Idempotency-Key made its change already: the table now, as the answer."""

    def __init__(self, snapshot: str):
        super().__init__("made before")
        self.snapshot = snapshot


#: An Idempotency-Key: a UUID, or any token of up to 64 of these characters (OpenAPI says so from here).
REQUEST_KEY = re.compile(r"[A-Za-z0-9._~:+/=-]{1,64}")


def parse_request_key(value: str | None) -> str | None:
    """The Idempotency-Key a write came with (None without one). A phone sends the same key each
    time it sends one change again, so a change whose answer was lost is not made twice."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':  # the structured-field string form, "..."
        text = text[1:-1]
    if not REQUEST_KEY.fullmatch(text):
        raise TableError("Idempotency-Key", "malformed", "idempotency_key", max=64)
    return text


#: Games one event may hold (the app setting MAX_EVENT_GAMES): every change to an event re-reads its games.
MAX_EVENT_GAMES = 1000


def _replay_each(rules, hands: list[dict], state: TableState, start: int) -> tuple[list[dict], list[TableState], TableState]:
    """Hands replayed one by one from ``state`` (the first is hand number ``start``): their records,
    the state after each, and the state at the end. A refusal names the table's field."""
    states: list[TableState] = []
    records: list[dict] = []
    for n, hand in enumerate(hands, start):
        try:
            state, record = replay(rules, [hand], state, n)
        except ScoringError as err:
            raise err.moved(TableError, err.field) from None
        states.append(state)
        records.extend(record)
    return records, states, state


class TableService:
    def __init__(self, db: Database, max_event_games: int = MAX_EVENT_GAMES):
        self.db = db
        self.max_event_games = max_event_games

    def check_event_room(self, conn, event_id: str, adding: int = 1) -> None:
        """Refuse (422) a game that would take the event past MAX_EVENT_GAMES."""
        have = self.db.event_game_count(conn, event_id)
        if have + adding > self.max_event_games:
            raise TableError("games", "impossible", "event_games_full", max=self.max_event_games, count=have)

    # --- create & read -------------------------------------------------------------------
    def create(self, payload: Any) -> dict:
        if not isinstance(payload, Mapping):
            raise TableError("body", "malformed", "body_object")
        ruleset_id = payload.get("ruleset", "wrr")
        overrides = payload.get("rules") or {}
        rules_of(ruleset_id, overrides)
        players = player_names(payload.get("players"), 4, 4)
        token = secrets.token_urlsafe(24)
        with self.db.writing() as conn:
            snapshot = self.insert(conn, ruleset_id, overrides, players, hash_token(token))
        return {**json.loads(snapshot), "edit_token": token}

    def insert(self, conn, ruleset_id: str, overrides: Mapping, players: list, token_hash: str, links: Mapping | None = None) -> str:
        """Insert a new table (version 1) in the caller's transaction; its JSON."""
        rules = rules_of(ruleset_id, overrides)
        stamp = now()
        for _ in range(20):
            table_id = secrets.token_urlsafe(9)
            code = "".join(secrets.choice(SHARE_ALPHABET) for _ in range(SHARE_CODE_LENGTH))
            row = {"id": table_id, "share_code": code, "ruleset": rules.id, "rules": dict(overrides), "players": players}
            snapshot = self._snapshot({**row, "created_at": stamp}, [], 1, stamp, links)
            if self.db.insert_table(conn, token_hash=token_hash, snapshot=snapshot, stamp=stamp, **row):
                return snapshot
        raise TableError(None, "unavailable", "id_allocation")  # pragma: no cover - 20 collisions in a row

    def next_game(self, key: str, token: str | None) -> dict:
        """The next game with the same players: a new table, seats and winds drawn afresh, linked
        to this one (and to its event). Phones holding this table's edit token may record on it."""
        with self.db.writing() as conn:
            row = self.db.find(_key(key), conn)
            if row is None:
                raise TableError("id", "not_found", "no_table")
            self._authorise(conn, row, token)
            links = self.db.links_of(conn, row.id)
            event = links.get("event")
            if event:  # a game of an event counts in its standings: only the organiser adds one
                organiser = self.db.event_token_hash_of_table(conn, row.id)
                if not (token and organiser and hmac.compare_digest(hash_token(token), organiser)):
                    raise TableError("Authorization", "token_wrong", "next_game_organiser")
            if "next_table" in links:
                raise TableError("next_table", "impossible", "next_game_exists")
            doc = json.loads(row.snapshot)
            if not doc["state"]["finished"]:
                raise TableError("state", "impossible", "finish_game_first")
            order = list(range(4))
            secrets.SystemRandom().shuffle(order)
            players = [row.players[s] for s in order]
            new_links: dict = {"previous_table": row.id}
            if event:
                self.check_event_room(conn, event["id"])
                new_links["event"] = {**event, "entrants": [event["entrants"][s] for s in order]}
            snapshot = self.insert(conn, row.ruleset, row.rules, players, row.token_hash, new_links)
            new = json.loads(snapshot)
            self.db.link_tables(conn, row.id, new["id"])
            if event:
                self.db.add_event_game(conn, event["id"], new["id"], None, new_links["event"]["entrants"])
            fields = {"id": row.id, "share_code": row.share_code, "ruleset": row.ruleset, "rules": row.rules,
                      "players": row.players, "created_at": row.created_at}
            after = {**links, "next_table": new["id"]}
            shown = {"ruleset": doc["ruleset"], "ruleset_title": doc["ruleset_title"], "state": doc["state"]}
            records = _records_json(row.snapshot)
            if records is None:
                records = ",".join(_dumps(h) for h in doc["hands"])
            self.db.append_change(conn, row.id, row.version, "next", None, {"table": new["id"]},
                                 lambda version, stamp: _compose(fields, shown, records, version, stamp, after),
                                 board=row.board_version == row.version)
        return new

    def get(self, key: str) -> TableRow:
        row = self.db.find(_key(key))
        if row is None:
            raise TableError("id", "not_found", "no_table")
        return row

    def read(self, key: str) -> tuple[int, str]:
        """(version, table JSON): what GET /api/tables/<key> serves."""
        found = self.db.snapshot(_key(key))
        if found is None:
            raise TableError("id", "not_found", "no_table")
        return found

    # --- writes --------------------------------------------------------------------------
    # ``request_key``: the write's Idempotency-Key. A write sent again with the key of a change
    # already made answers with the table as it is now, and stores nothing.
    def record(self, key: str, token: str | None, if_match: int | None, body: Any, request_key: str | None = None) -> str:
        if not isinstance(body, Mapping):
            raise TableError("body", "malformed", "hand_object")
        body = self._checked(body)
        return self._write(key, token, if_match, "add", None, body, {"op": "add", "body": body}, request_key)

    def undo(self, key: str, token: str | None, if_match: int | None, request_key: str | None = None) -> str:
        return self._write(key, token, if_match, "undo", None, None, {"op": "undo"}, request_key)

    def correct(self, key: str, token: str | None, if_match: int | None, index: int, body: Any,
                request_key: str | None = None) -> str:
        body = self._checked(body)
        return self._write(key, token, if_match, "replace", index, body, {"op": "replace", "index": index, "body": body},
                           request_key)

    @staticmethod
    def _checked(body: Any) -> dict:
        """A new hand: a JSON object with only its documented fields, of a sensible size."""
        if not isinstance(body, Mapping):
            raise TableError("body", "malformed", "hand_object")
        try:
            body = clean_hand(body)
        except ScoringError as err:
            raise err.moved(TableError, err.field) from None
        size = len(json.dumps(body))
        if size > MAX_HAND_BYTES:
            raise TableError("body", "too_large", "hand_size", max=MAX_HAND_BYTES // 1024, size=size // 1024)
        return dict(body)

    def preview(self, key: str, token: str | None, body: Any, index: int | None = None) -> dict:
        """What recording `body` (or, with `index`, correcting hand `index` to it) would do, without
        storing anything: the hand's record (who pays whom, the deltas, where the sticks go) and the
        state after it. The record sheet shows this before the player taps Record."""
        body = self._checked(body)
        change = {"op": "add", "body": body} if index is None else {"op": "replace", "index": index, "body": body}
        with self.db.reading() as conn:
            row = self.db.find(_key(key), conn)
            if row is None:
                raise TableError("id", "not_found", "no_table")
            self._authorise(conn, row, token)
            rules = get_ruleset(row.ruleset, row.rules)
            if row.board_version == row.version:  # from the board: only the hands from the changed one on
                step = self._step(conn, row, rules, change)
                return {"version": row.version, "hand": step.records[0], "state": state_dict(rules, step.state)}
            hands = self._hands(conn, row)
        at = len(hands) if index is None else index
        shown = _board(rules, _changed(hands, change))
        return {"version": row.version, "hand": shown["hands"][at], "state": shown["state"]}

    def _hands(self, conn, row: TableRow) -> list:
        """The table's hands from its log. Hands stored before today's checks are read back with their
        unknown fields dropped, so an old record can never block the table (new hands are checked strictly)."""
        return [clean_hand(h, strict=False) for h in hands_from_changes(self.db.changes_of(conn, row.id))]

    def _write(self, key, token, if_match, op, index, body, change, request_key=None) -> str:
        try:
            return self._write_once(_key(key), token, if_match, op, index, body, change, request_key)
        except _MadeBefore as made:
            return made.snapshot

    def _write_once(self, key, token, if_match, op, index, body, change, request_key) -> str:
        with self.db.writing() as conn:
            row = self.db.find(key, conn)
            if row is None:
                raise TableError("id", "not_found", "no_table")
            self._authorise(conn, row, token)
            if if_match is None:  # a hand sent twice, or a correction made on an old copy, would be stored again
                raise TableError("If-Match", "precondition_required", "if_match_required")
            if if_match != row.version:
                # sent again after its answer was lost: the change it made is there (versions only grow,
                # so a change sent again always comes with a version that is no longer current)
                if self._made_before(row.id, request_key, op, index, body, conn):
                    return row.snapshot
                raise TableError("If-Match", "conflict", "table_changed", seen=if_match, now=row.version, table=row.snapshot)
            if row.version > MAX_CHANGES:
                raise TableError("hands", "impossible", "log_full", max=MAX_CHANGES)
            rules = get_ruleset(row.ruleset, row.rules)
            rebuilt = row.board_version != row.version
            try:
                if rebuilt:
                    self._rebuild_board(conn, row, rules)
                # replays from the changed hand only: refuses an impossible hand before anything is stored
                step = self._step(conn, row, rules, change)
                if step.count > MAX_HANDS:
                    raise TableError("hands", "impossible", "hands_full", max=MAX_HANDS)
                dumped = [_dumps(r) for r in step.records]
                records = self._new_records(conn, row, op, step, dumped, None if rebuilt else _records_json(row.snapshot))
                shown = {"ruleset": rules.id, "ruleset_title": rules.title, "state": state_dict(rules, step.state)}
                fields = {"id": row.id, "share_code": row.share_code, "ruleset": row.ruleset, "rules": row.rules,
                          "players": row.players, "created_at": row.created_at}
                links = self.db.links_of(conn, row.id)
                # the version check first: a second writer of the same version stops there, before the board
                snapshot = self.db.append_change(conn, row.id, row.version, op, index, body,
                                                 lambda version, stamp: _compose(fields, shown, records, version, stamp, links),
                                                 request_key=request_key)
                self.db.put_board_rows(conn, row.id, step.start, [
                    (_dumps(h), r, _dumps(state_to_json(st))) for h, r, st in zip(step.hands, dumped, step.states)])
                return snapshot
            except VersionConflict:
                current = self.db.find(row.id)
                # the same change sent twice at once (the first sending still under way): one is stored.
                # Raised, not returned, so that this transaction is rolled back.
                if current is not None and self._made_before(row.id, request_key, op, index, body):
                    raise _MadeBefore(current.snapshot) from None
                raise TableError("If-Match", "conflict", "changed_same_moment", table=current.snapshot if current else None) from None

    def _made_before(self, table_id: str, request_key: str | None, op: str, index: int | None, body: Any,
                     conn=None) -> bool:
        """Whether ``request_key`` already made this change to the table. A key that made another
        change is refused: the phone would otherwise take a change it never made for its own."""
        if request_key is None:
            return False
        made = self.db.made_by(table_id, request_key, conn)
        if made is None:
            return False
        sent = json.loads(json.dumps(body)) if body is not None else None  # as stored: tuples are lists
        if (made["op"], made["hand_index"], made["body"]) != (op, index, sent):
            raise TableError("Idempotency-Key", "impossible", "idempotency_key_reused")
        return True

    # --- the board kept with the log --------------------------------------------------------
    def _rebuild_board(self, conn, row: TableRow, rules) -> None:
        """The board of the whole log (a table written before boards were kept, or one whose board
        is behind): one full replay, stored row by row."""
        hands = self._hands(conn, row)
        records, states, _ = _replay_each(rules, hands, new_state(rules), 0)
        self.db.put_board_rows(conn, row.id, 0, [(_dumps(h), _dumps(r), _dumps(state_to_json(st)))
                                                 for h, r, st in zip(hands, records, states)])

    def _step(self, conn, row: TableRow, rules, change: dict) -> _Step:
        """One change applied to the board (which must be current): the hands from the first one it
        changes, their records and the states after each, and the state at the end."""
        count = self.db.board_count(conn, row.id)
        op = change["op"]
        if op == "add":
            start, hands = count, [change["body"]]
        elif op == "undo":
            if count == 0:
                raise TableError("hands", "impossible", "nothing_to_undo")
            start, hands = count - 1, []
        else:
            index = change["index"]
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < count:
                raise TableError("index", "not_found", "no_such_hand", index=index, count=count)
            later = self.db.board_rows(conn, row.id, index + 1, columns=("hand",))
            start, hands = index, [change["body"]] + [clean_hand(json.loads(r[0]), strict=False) for r in later]
        before = self.db.board_state(conn, row.id, start - 1)
        state = state_from_json(json.loads(before)) if before is not None else new_state(rules)
        records, states, state = _replay_each(rules, hands, state, start)
        return _Step(start, start + len(hands), hands, records, states, state)

    def _new_records(self, conn, row: TableRow, op: str, step: _Step, dumped: list[str], old: str | None) -> str:
        """The ``hands`` array of the new table JSON (without its brackets), read before the board
        rows change. An added or undone hand is put on or taken off the end of the stored array
        (``old``), so the other hands are not encoded again; a correction joins the stored records
        before it with the replayed ones."""
        if old is not None and op == "add":
            return old + "," + dumped[0] if old else dumped[0]
        if old is not None and op == "undo":
            last = self.db.board_rows(conn, row.id, step.start, step.start + 1, columns=("record",))
            if last and old.endswith(last[0][0]):
                return old[:len(old) - len(last[0][0])].rstrip(",")
        before = [r[0] for r in self.db.board_rows(conn, row.id, 0, step.start, columns=("record",))]
        return ",".join(before + dumped)

    def _authorise(self, conn, row: TableRow, token: str | None) -> None:
        """The table's edit token, or the organiser token of the event the game belongs to."""
        if not token:
            raise TableError("Authorization", "token_missing", "edit_token_missing")
        digest = hash_token(token)
        if hmac.compare_digest(digest, row.token_hash):
            return
        organiser = self.db.event_token_hash_of_table(conn, row.id)
        if organiser and hmac.compare_digest(digest, organiser):
            return
        raise TableError("Authorization", "token_wrong", "edit_token_wrong")

    # --- the table JSON --------------------------------------------------------------------
    @staticmethod
    def _snapshot(row: Mapping, hands: list, version: int, stamp: str | None, links: Mapping | None = None,
                  shown: Mapping | None = None) -> str:
        """The table JSON; ``shown`` is the board of ``hands`` when the caller has worked it out already."""
        if shown is None:
            shown = board(get_ruleset(row["ruleset"], row["rules"]), hands)  # the same board a phone projects offline
        return _compose(row, shown, ",".join(_dumps(r) for r in shown["hands"]), version, stamp, links)

    # --- export ----------------------------------------------------------------------------
    def export(self, key: str, fmt: str) -> tuple[str, str]:
        if fmt not in ("csv", "json"):
            raise TableError("format", "malformed", "export_format")
        if fmt == "json":
            # the snapshot and the log from one transaction, so a backup taken during play agrees with itself
            with self.db.reading() as conn:
                row = self.db.find(_key(key), conn)
                if row is None:
                    raise TableError("id", "not_found", "no_table")
                evs = self.db.changes_of(conn, row.id)
            doc = json.loads(row.snapshot)
            doc["log"] = [{k: ev[k] for k in ("version", "op", "hand_index", "body", "created_at")} for ev in evs]
            return json.dumps(doc, indent=1), "application/json"
        doc = json.loads(self.get(key).snapshot)
        return export_csv(doc), "text/csv"


@dataclass(frozen=True)
class _Step:
    """One change on a table's board: the hands from ``start`` to ``count`` (exclusive) after it,
    their records and the state after each, and the state after the last hand."""
    start: int
    count: int
    hands: list
    records: list
    states: list
    state: TableState


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


_HANDS_OPEN, _HANDS_CLOSE = ',"hands":[', '],"created_at":'


def _records_json(snapshot: str) -> str | None:
    """The inside of the ``hands`` array of a stored table JSON, as stored (None if not found).
    Keys are written unescaped and no text of a hand, name or rule is, so the two markers can only
    be the array's own ends."""
    start, end = snapshot.find(_HANDS_OPEN), snapshot.rfind(_HANDS_CLOSE)
    if start < 0 or end < start:
        return None
    return snapshot[start + len(_HANDS_OPEN):end]


def _compose(row: Mapping, shown: Mapping, records: str | None, version: int, stamp: str | None,
             links: Mapping | None = None) -> str:
    """The table JSON, with its ``hands`` array given already encoded (``records``, no brackets).
    Byte for byte what encoding the whole document at once gives."""
    head = {"id": row["id"], "share_code": row["share_code"], "ruleset": shown["ruleset"], "ruleset_title": shown["ruleset_title"],
            "rules": row["rules"], "players": row["players"], "version": version, "state": shown["state"]}
    tail = {"created_at": row["created_at"], "updated_at": stamp, **(links or {})}
    return _dumps(head)[:-1] + _HANDS_OPEN + (records or "") + "]," + _dumps(tail)[1:]


def _changed(hands: list, change: dict) -> list:
    try:
        return change_hands(hands, change)
    except LedgerError as err:
        raise err.moved(TableError, err.field) from None


def _board(rules, hands: list) -> dict:
    """The board of these hands; a hand the rules refuse is the request's fault (422 naming it)."""
    try:
        return board(rules, hands)
    except ScoringError as err:
        raise err.moved(TableError, err.field) from None


def _key(key: str) -> str:
    """A table id or share code as typed; anything else cannot name a table (and never reaches SQL)."""
    if not isinstance(key, str) or not 0 < len(key) <= MAX_KEY or not KEY_CHARS.issuperset(key):
        raise TableError("id", "not_found", "table_id_characters")
    return key


# --- CSV export --------------------------------------------------------------------------------------
# Written from the stored table JSON, defensively: a record stored before today's checks may hold a
# null, a seat out of range or a name no spreadsheet can read, and the export must still come out.

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A CSV cell: numbers as they are; text made safe to open in a spreadsheet.

    Text that starts like a formula (=, +, -, @, tab, carriage return) gets a leading apostrophe, the
    usual defence against formula injection; characters that cannot be written as UTF-8 become "?".
    """
    if isinstance(value, bool) or value is None:
        return "" if value is None else str(value).lower()
    if isinstance(value, (int, float)):
        return value
    text = value if isinstance(value, str) else json.dumps(value)
    text = text.encode("utf-8", "replace").decode("utf-8")
    if text.startswith(FORMULA_START):
        text = "'" + text
    return text


def _name(names: list, seat: Any) -> str:
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return str(names[seat])
    return f"seat {seat}"


def _seat_list(value: Any) -> list:
    return value if isinstance(value, list) else []


def export_csv(doc: Mapping) -> str:
    out = io.StringIO()
    w = csv.writer(out)
    names = [str(n) for n in _seat_list(doc.get("players"))] or ["seat 0", "seat 1", "seat 2", "seat 3"]

    def row(cells: list) -> None:
        w.writerow([csv_cell(c) for c in cells])

    def four(value: Any) -> list:
        items = value if isinstance(value, list) else []
        return (items + [None] * 4)[:4]

    row(["hand", "round", "honba", "dealer", "result", "details"]
        + [f"{n} change" for n in names] + [f"{n} score" for n in names] + ["riichi sticks"])
    for i, h in enumerate(_seat_list(doc.get("hands"))):
        if not isinstance(h, Mapping):
            continue
        row([i + 1, f"{h.get('round_wind', '')} {h.get('hand_number', '')}", h.get("honba"), _name(names, h.get("dealer")),
             h.get("result"), _details(h, names)] + four(h.get("deltas")) + four(h.get("scores_after"))
            + [h.get("riichi_sticks_after")])
    state: Mapping[str, Any] = doc["state"] if isinstance(doc.get("state"), Mapping) else {}
    if state.get("finished"):
        w.writerow([])
        row(["place", "player", "points", "uma", "oka", "penalty", "final"])
        for s in _seat_list(state.get("standings")):
            if isinstance(s, Mapping):
                row([s.get("place"), _name(names, s.get("seat")), s.get("points"), s.get("uma"), s.get("oka"),
                     s.get("penalty"), s.get("final")])
    return out.getvalue()


def _details(h: Mapping, names: list) -> str:
    parts = []
    for w in _seat_list(h.get("winners")):
        if not isinstance(w, Mapping):
            continue
        if w.get("yakuman"):
            value = f"{w.get('yakuman')}x yakuman"
        elif w.get("han") is None and isinstance(w.get("limit"), str):
            value = str(w["limit"])  # a limit entered as a limit: no han or fu were entered
        else:
            value = f"{w.get('han')} han {w.get('fu')} fu"
        parts.append(f"{_name(names, w.get('seat'))} {value}")
    result = h.get("result")
    if result == "ron":
        parts.append(f"from {_name(names, h.get('from_seat'))}")
    if result == "draw":
        parts.append("tenpai: " + (", ".join(_name(names, s) for s in _seat_list(h.get("tenpai"))) or "none"))
    if result == "abort":
        parts.append(str(h.get("kind") or ""))
    if result == "chombo":
        parts.append(_name(names, h.get("seat")))
    return "; ".join(parts)
