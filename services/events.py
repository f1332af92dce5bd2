"""Events (club nights, league seasons): create, read with standings and statistics, seat a
round, add games, exclude a game, export. No Flask here; the arithmetic is in league/ and game/.

An event is organised with its own token (like a table's edit token: only its hash is stored) and
read by anyone with its id or share code. Its games are ordinary tables, created with the event's
rule set and players; their hands are recorded with the table's token or the organiser's.
"""
from __future__ import annotations

import csv
import hmac
import io
import json
import random
import secrets
import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from game.ledger import printable
from league.seating import SeatingError, repeat_meetings, seat_round
from league.standings import score_lines, standings
from league.stats import event_stats, game_stats, game_tally
from scoring.rules import get_ruleset
from scoring.schema import validator
from services import contract
from services.contract import MAX_ROUNDS
from services.tables import KEY_CHARS, MAX_KEY, SHARE_ALPHABET, SHARE_CODE_LENGTH, TableError, TableService, csv_cell, hash_token, player_names, rules_of
from storage.db import VersionConflict, now

MAX_EVENT_PLAYERS = 200
MAX_NAME = 80


def _valid_key(key: Any) -> bool:
    """An id or share code as typed: anything else names nothing (and never reaches SQL: PostgreSQL
    refuses a NUL byte with an error, not an empty result)."""
    return isinstance(key, str) and 0 < len(key) <= MAX_KEY and KEY_CHARS.issuperset(key)


def _name(raw: Any) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise TableError("name", "impossible" if isinstance(raw, str) else "malformed", "event_name")
    if len(raw.strip()) > MAX_NAME:
        raise TableError("name", "impossible", "name_length", max=MAX_NAME)
    if not printable(raw):
        raise TableError("name", "impossible", "name_characters")
    return raw.strip()


_check_settings = validator(contract.settings(), TableError)
_check_round = validator(contract.ROUND, TableError)


def _settings(raw: Any, base: Mapping | None = None) -> dict:
    """The settings with ``raw``'s changes, checked against their declared shape (services/contract.py)."""
    out = dict(base or {"seating": "balanced", "mode": "byes", "rounds_planned": 0})
    _check_settings(raw, "settings")
    out.update(raw or {})
    return out


def _encoded(doc: Mapping) -> tuple[dict, str]:
    """The document as JSON text (byte for byte ``json.dumps(doc, separators=(",", ":"))``), and
    the fingerprint of each part: a hash per top-level value, and per entry of a list."""
    parts: dict[str, Any] = {}
    pieces = []
    for key, value in doc.items():
        if isinstance(value, list):
            items = [json.dumps(v, separators=(",", ":")) for v in value]
            parts[key] = [hash(i) for i in items]
            text = "[" + ",".join(items) + "]"
        else:
            text = json.dumps(value, separators=(",", ":"))
            parts[key] = hash(text)
        pieces.append(json.dumps(key) + ":" + text)
    return parts, "{" + ",".join(pieces) + "}"


def _delta(old: Mapping, new: Mapping, doc: Mapping, since: str, tag: str) -> dict:
    """What changed from the document whose fingerprints are ``old`` to ``doc`` (fingerprints ``new``)."""
    out: dict[str, Any] = {"tag": tag, "since": since, "set": {}, "lists": {}}
    for key, mark in new.items():
        before = old.get(key)
        if before == mark:
            continue
        if isinstance(mark, list) and isinstance(before, list):
            items = {str(i): doc[key][i] for i, m in enumerate(mark) if i >= len(before) or before[i] != m}
            out["lists"][key] = {"length": len(mark), "items": items}
        else:
            out["set"][key] = doc[key]
    return out


def _current(row: Mapping, if_match: int | None) -> None:
    """A change made on the event as the organiser's phone last saw it (If-Match: its version; none
    given, any). A tap sent again after its answer was lost meets the change it made: a 409."""
    if if_match is not None and if_match != row["version"]:
        raise TableError("If-Match", "conflict", "event_changed_since", seen=if_match, now=row["version"])


def _body(payload: Any) -> Mapping:
    if not isinstance(payload, Mapping):
        raise TableError("body", "malformed", "body_object")
    return payload


class EventService:
    CACHED_EVENTS = 64
    #: Earlier versions of each cached event a phone can ask "what changed since" about (only the
    #: fingerprints of their parts are kept, not the documents).
    KEPT_TAGS = 16

    def __init__(self, tables: TableService):
        self.tables = tables
        self.db = tables.db
        # the last document of each recently read event, by its tag: every phone following an
        # event reads it after each hand at any of its tables, and one computation serves them all
        self._cache: OrderedDict[str, dict] = OrderedDict()
        self._lock = threading.Lock()

    # --- create & read -------------------------------------------------------------------
    def create(self, payload: Any) -> dict:
        body = _body(payload)
        name = _name(body.get("name"))
        ruleset_id = body.get("ruleset", "wrr")
        overrides = body.get("rules") or {}
        rules_of(ruleset_id, overrides)
        players = player_names(body.get("players", []), 0, MAX_EVENT_PLAYERS)
        settings = _settings(body.get("settings"))
        token = secrets.token_urlsafe(24)
        stamp = now()
        with self.db.writing() as conn:
            for _ in range(20):
                event_id = secrets.token_urlsafe(9)
                code = "".join(secrets.choice(SHARE_ALPHABET) for _ in range(SHARE_CODE_LENGTH))
                if self.db.insert_event(conn, id=event_id, share_code=code, token_hash=hash_token(token), name=name,
                                        ruleset=ruleset_id, rules=dict(overrides), players=players, settings=settings,
                                        rounds=[], version=1, created_at=stamp, updated_at=stamp):
                    break
            else:  # pragma: no cover
                raise TableError(None, "unavailable", "id_allocation")
        return {**self.read(event_id), "organiser_token": token}

    def _find(self, key: str, conn=None) -> dict:
        row = self.db.find_event(key, conn) if _valid_key(key) else None
        if row is None:
            raise TableError("id", "not_found", "no_event")
        return row

    def read(self, key: str) -> dict:
        """The event JSON: players, rounds, games, standings, statistics."""
        found = self.db.event_fingerprint(key) if _valid_key(key) else None
        if found is None:
            raise TableError("id", "not_found", "no_event")
        event_id, tag = found
        return self._cached(event_id, tag)["doc"]

    def read_json(self, key: str) -> tuple[str, str]:
        """(tag, the event JSON as text): what GET /api/events/<key> serves, encoded once per change."""
        found = self.db.event_fingerprint(key) if _valid_key(key) else None
        if found is None:
            raise TableError("id", "not_found", "no_event")
        entry = self._cached(*found)
        return entry["doc"]["tag"], entry["json"]

    def changes(self, key: str, since: str) -> tuple[str, str | None]:
        """(tag, what changed since the version tagged ``since``, as JSON text; None if nothing).

        What a phone on the event page polls: ``{"tag", "since", "set": {key: value}, "lists":
        {key: {"length": n, "items": {"i": value}}}}`` gives the top-level values that changed
        whole and, of the lists (games, standings, statistics, rounds...), the new length and
        only the entries that changed. Applied to the document tagged ``since`` it gives the
        current one exactly. A tag this server no longer knows (too old, or another server
        process) gets ``{"tag", "full": <the event JSON>}``.
        """
        found = self.db.event_fingerprint(key) if _valid_key(key) else None
        if found is None:
            raise TableError("id", "not_found", "no_event")
        entry = self._cached(*found)
        tag = entry["doc"]["tag"]
        if since == tag:
            return tag, None
        with self._lock:
            text = entry["deltas"].get(since)
            old = entry["history"].get(since)
        if text is not None:
            return tag, text
        if old is None:
            return tag, '{"tag":' + json.dumps(tag) + ',"full":' + entry["json"] + "}"
        text = json.dumps(_delta(old, entry["parts"], entry["doc"], since, tag), separators=(",", ":"))
        with self._lock:
            entry["deltas"][since] = text
        return tag, text

    def _cached(self, event_id: str, tag: str) -> dict:
        with self._lock:
            entry = self._cache.get(event_id)
            if entry is not None and entry["doc"]["tag"] == tag:
                self._cache.move_to_end(event_id)
                return entry
            # what the last document read of the event keeps for the next: decoded tables, each
            # game's figures, and the fingerprints of earlier versions
            known = dict(entry["tables"]) if entry else {}
            derived = dict(entry["derived"]) if entry else {}
            history = OrderedDict(entry["history"]) if entry else OrderedDict()
        row = self._find(event_id)
        doc = self._document(row, self.db.event_games_cached(row["id"], known), derived)
        parts, text = _encoded(doc)
        history[doc["tag"]] = parts
        while len(history) > self.KEPT_TAGS:
            history.popitem(last=False)
        entry = {"doc": doc, "json": text, "parts": parts, "tables": known, "derived": derived, "history": history, "deltas": {}}
        with self._lock:
            self._cache[event_id] = entry
            self._cache.move_to_end(event_id)
            while len(self._cache) > self.CACHED_EVENTS:
                self._cache.popitem(last=False)
        return entry

    def tag(self, key: str) -> str:
        """What the ETag of the event JSON is now (cheap: no game is read)."""
        found = self.db.event_fingerprint(key) if _valid_key(key) else None
        if found is None:
            raise TableError("id", "not_found", "no_event")
        return found[1]

    def _document(self, row: Mapping, games: list[dict], derived: dict | None = None) -> dict:
        """The event JSON. ``derived`` keeps each game's statistics and chart by table version, so
        a change at one table works out that table's figures only."""
        rules = get_ruleset(row["ruleset"], row["rules"])
        derived = {} if derived is None else derived
        players = row["players"]
        docs = []
        for g in games:
            t = g["table"]
            docs.append({"id": t["id"], "share_code": t["share_code"], "round": g["round"], "number": g["position"],
                         "players": t["players"], "entrants": g["entrants"], "excluded": g["excluded"],
                         "previous_table": t.get("previous_table"), "next_table": t.get("next_table"),
                         "state": t["state"], "hands": t["hands"], "version": t["version"]})
        table = standings(rules.ranking_tie_break, players, docs)
        out_games = []
        for d, g in zip(docs, games):
            s = d["state"]
            figures = derived.get(d["id"])
            if figures is None or figures[0] != g["table"]["version"]:
                figures = (g["table"]["version"], score_lines(d, rules.start_points), game_stats(d))
                derived[d["id"]] = figures
            out_games.append({
                "id": d["id"], "share_code": d["share_code"], "round": d["round"], "number": d["number"],
                "players": d["players"], "entrants": d["entrants"], "excluded": d["excluded"],
                "previous_table": d["previous_table"], "next_table": d["next_table"],
                "finished": s["finished"], "hands_played": s["hands_played"], "scores": s["scores"],
                "round_wind": s["round_wind"], "hand_number": s["hand_number"],
                "standings": s.get("standings", []),
                "score_lines": figures[1], "stats": figures[2],
            })
        return {
            "id": row["id"], "share_code": row["share_code"], "name": row["name"], "ruleset": rules.id,
            "ruleset_title": rules.title, "rules": row["rules"], "players": players, "settings": row["settings"],
            "version": row["version"], "rounds": row["rounds"], "games": out_games,
            "standings": table["rows"], "progress": table["progress"], "tie_break": table["tie_break"],
            "stats": event_stats(len(players), docs, lambda d: self._tally(derived, d)),
            "repeat_meetings": repeat_meetings(row["rounds"]),
            "tag": f"{row['version']}.{len(games)}.{sum(g['table']['version'] for g in games)}",
            "created_at": row["created_at"], "updated_at": row["updated_at"],
        }

    @staticmethod
    def _tally(derived: dict, game: Mapping) -> dict:
        """A game's counts for the event statistics, kept by table version and seating."""
        key = ("tally", game["id"])
        version = (game["version"], tuple(game["entrants"]))
        kept = derived.get(key)
        if kept is None or kept[0] != version:
            kept = (version, game_tally(game))
            derived[key] = kept
        return kept[1]

    # --- writes --------------------------------------------------------------------------
    @staticmethod
    def _authorise(row: Mapping, token: str | None) -> None:
        if not token:
            raise TableError("Authorization", "token_missing", "organiser_token_missing")
        if not hmac.compare_digest(hash_token(token), row["token_hash"]):
            raise TableError("Authorization", "token_wrong", "organiser_token_wrong")

    def _new_game(self, conn, row: Mapping, seats: list, round_no: int | None) -> dict:
        """A table for four seats (event player numbers, None for a substitute), seats as given."""
        names, subs = [], 0
        for p in seats:
            if p is None:
                subs += 1
                names.append(f"Substitute {subs}")
            else:
                names.append(row["players"][p])
        token = secrets.token_urlsafe(24)
        links = {"event": {"id": row["id"], "name": row["name"], "share_code": row["share_code"], "entrants": list(seats)}}
        snapshot = self.tables.insert(conn, row["ruleset"], row["rules"], names, hash_token(token), links)
        table = json.loads(snapshot)
        self.db.add_event_game(conn, row["id"], table["id"], round_no, list(seats))
        return {"id": table["id"], "share_code": table["share_code"], "players": names, "edit_token": token}

    def _bump(self, conn, row: Mapping, **changes) -> None:
        try:
            self.db.update_event(conn, row["id"], row["version"], **changes)
        except VersionConflict:
            raise TableError("If-Match", "conflict", "event_changed") from None

    def update(self, key: str, token: str | None, payload: Any, if_match: int | None = None) -> dict:
        """Rename the event, add players or correct their names, change its settings. Players are
        never removed (their games stay theirs): a player who leaves simply plays no more games."""
        body = _body(payload)
        with self.db.writing() as conn:
            row = self._find(key, conn)
            self._authorise(row, token)
            _current(row, if_match)
            changes: dict = {}
            if "name" in body:
                changes["name"] = _name(body["name"])
            if "players" in body:
                players = player_names(body["players"], 0, MAX_EVENT_PLAYERS)
                if len(players) < len(row["players"]):
                    raise TableError("players", "impossible", "players_not_removed", count=len(row['players']))
                changes["players"] = players
            if "settings" in body:
                changes["settings"] = _settings(body["settings"], row["settings"])
            unknown = set(body) - {"name", "players", "settings"}
            if unknown:
                raise TableError(sorted(unknown)[0], "malformed", "event_field", key=str(sorted(unknown)[0])[:40])
            self._bump(conn, row, **changes)
        return self.read(row["id"])

    def draw_round(self, key: str, token: str | None, payload: Any, if_match: int | None = None) -> dict:
        """Seat the next round (balanced or random) and open one table per table of the round."""
        body = _body(payload)
        with self.db.writing() as conn:
            row = self._find(key, conn)
            self._authorise(row, token)
            settings = _settings({k: body[k] for k in ("seating", "mode") if k in body}, row["settings"])
            n = len(row["players"])
            present = body.get("present")
            if present is None:
                present = list(range(n))
            elif (not isinstance(present, list) or any(isinstance(p, bool) or not isinstance(p, int) for p in present)):
                raise TableError("present", "malformed", "player_numbers")
            elif any(not 0 <= p < n for p in present) or len(set(present)) != len(present):
                raise TableError("present", "impossible", "player_numbers_range", max=n - 1)
            meant = body.get("round")
            if meant is not None:
                _check_round(meant, "round")
                if meant <= len(row["rounds"]):   # seated already: the tap before went in, its answer was lost
                    raise TableError("round", "conflict", "round_seated", n=meant)
                if meant > len(row["rounds"]) + 1:
                    raise TableError("round", "impossible", "round_next", next=len(row["rounds"]) + 1)
            _current(row, if_match)   # after the round: "round 1 is seated" says more than "the event changed"
            if len(row["rounds"]) >= MAX_ROUNDS:
                raise TableError("rounds", "impossible", "rounds_count", max=MAX_ROUNDS)
            planned = settings.get("rounds_planned", 0)
            if planned and len(row["rounds"]) >= planned:
                raise TableError("rounds", "impossible", "rounds_planned_seated", planned=planned)
            try:
                seating = seat_round(settings["seating"], sorted(present), row["rounds"], random.SystemRandom(),
                                     settings["mode"], settings.get("rounds_planned", 0))
            except SeatingError as err:
                raise err.moved(TableError, "present" if err.field == "players" else err.field) from None
            number = len(row["rounds"]) + 1
            self.tables.check_event_room(conn, row["id"], len(seating["tables"]))
            games = [self._new_game(conn, row, seats, number) for seats in seating["tables"]]
            rnd = {"number": number, "method": settings["seating"], "tables": seating["tables"], "byes": seating["byes"],
                   "games": [g["id"] for g in games]}
            self._bump(conn, row, rounds=row["rounds"] + [rnd])
        return {**self.read(row["id"]), "new_games": games}

    def add_game(self, key: str, token: str | None, payload: Any, if_match: int | None = None) -> dict:
        """One game outside the drawn rounds, for four given players (seats drawn afresh)."""
        body = _body(payload)
        with self.db.writing() as conn:
            row = self._find(key, conn)
            self._authorise(row, token)
            if if_match is None:  # a game sent twice (its answer lost) would be opened twice
                raise TableError("If-Match", "precondition_required", "event_if_match_required")
            _current(row, if_match)
            seats = body.get("players")
            n = len(row["players"])
            if not isinstance(seats, list) or len(seats) != 4 or any(isinstance(p, bool) or not (p is None or isinstance(p, int)) for p in seats):
                raise TableError("players", "malformed", "table_players")
            real = [p for p in seats if p is not None]
            if any(not 0 <= p < n for p in real) or len(set(real)) != len(real):
                raise TableError("players", "impossible", "player_numbers_range", max=n - 1)
            if not real:
                raise TableError("players", "impossible", "table_no_member")
            self.tables.check_event_room(conn, row["id"])
            seats = list(seats)
            random.SystemRandom().shuffle(seats)
            game = self._new_game(conn, row, seats, None)
            self._bump(conn, row)
        return {**self.read(row["id"]), "new_games": [game]}

    def set_game(self, key: str, token: str | None, table_id: str, payload: Any,
                 if_match: int | None = None) -> dict:
        body = _body(payload)
        excluded = body.get("excluded")
        if not isinstance(excluded, bool):
            raise TableError("excluded", "malformed", "excluded_flag")
        with self.db.writing() as conn:
            row = self._find(key, conn)
            self._authorise(row, token)
            _current(row, if_match)
            if not _valid_key(table_id) or not self.db.set_game_excluded(conn, row["id"], table_id, excluded):
                raise TableError("table_id", "not_found", "no_event_game")
            self._bump(conn, row)
        return self.read(row["id"])

    # --- export ----------------------------------------------------------------------------
    def export(self, key: str, fmt: str) -> tuple[str, str]:
        doc = self.read(key)
        if fmt == "json":
            return json.dumps(doc, indent=1), "application/json"
        if fmt != "csv":
            raise TableError("format", "malformed", "export_format")
        out = io.StringIO()
        writer = csv.writer(out)

        class _Safe:  # every text cell through csv_cell: no spreadsheet formulas from names
            @staticmethod
            def writerow(cells):
                writer.writerow([csv_cell(c) for c in cells])
        w = _Safe()
        w.writerow([doc["name"], doc["ruleset_title"]])
        w.writerow([])
        w.writerow(["rank", "player", "total", "games", "average place", "1st", "2nd", "3rd", "4th",
                    "win rate", "deal-in rate", "riichi rate", "tsumo share", "average win", "average deal-in", "tenpai at draws"])
        stats = doc["stats"]
        for r in doc["standings"]:
            s = stats[r["player"]]
            w.writerow([r["rank"], r["name"], r["total"], r["games"], r["average_place"] if r["average_place"] is not None else "",
                        *r["places"], *("" if s[k] is None else s[k] for k in ("win_rate", "deal_in_rate", "riichi_rate", "tsumo_share",
                                                                            "average_win", "average_deal_in")),
                        f"{s['tenpai_at_draw']}/{s['draws']}"])
        w.writerow([])
        w.writerow(["game", "round", "counted", "seat", "player", "place", "points", "final"])
        for g in doc["games"]:
            counted = "yes" if g["finished"] and not g["excluded"] else ("excluded" if g["excluded"] else "not finished")
            by_seat = {r["seat"]: r for r in g["standings"]}
            for seat, name in enumerate(g["players"]):
                r = by_seat.get(seat, {})
                w.writerow([g["number"], g["round"] or "", counted, seat, name, r.get("place", ""), g["scores"][seat], r.get("final", "")])
        return out.getvalue(), "text/csv"
