"""Untrusted input to the API cannot corrupt a table, an export or a score: hands keep only their
documented fields, every number a client sends is bounded, CSV exports defuse formulas, bodies and
logs are capped, odd keys are 404s, and the scoring rules hold at their edges.

Storage tests run on SQLite, and on PostgreSQL too under ./scripts/with-postgres (the db_url fixture).
"""
import csv
import http.client
import io
import json
import threading

import pytest
from sqlalchemy import delete, update

import game.ledger
import services.tables
from api_helpers import auth, current, new_table
from app import create_app
from game.ledger import LedgerError, apply_hand, new_state
from ledger_helpers import W, draw, hf, ron, tsumo
from scoring.rules import PRESETS, Ruleset, get_ruleset
from services.tables import SHARE_ALPHABET, hash_token
from storage.db import table_boards, tables


def record(client, table, hand, version=None):
    headers = auth(table, version) if version is not None else current(client, table["id"], auth(table))
    return client.post(f"/api/tables/{table['id']}/hands", json=hand, headers=headers)


def error_of(resp):
    return resp.get_json()["error"]


# --- table integrity: only the documented fields of each result --------------------------------

@pytest.mark.parametrize("field,value", [
    ("index", 7), ("dealer", 2), ("honba", 5), ("round_wind", "south"), ("hand_number", 3),
    ("riichi_sticks_before", 4), ("deltas", [0, 0, 0, 0]), ("scores_after", [1, 2, 3, 4]), ("surprise", 1),
])
def test_computed_and_unknown_fields_of_a_hand_are_refused(tclient, field, value):
    t = new_table(tclient)
    resp = record(tclient, t, {**ron(0, W(1, hf(2, 30))), field: value})
    assert resp.status_code == 422, resp.get_json()
    assert error_of(resp)["field"] == field
    assert tclient.get(f"/api/tables/{t['id']}").get_json()["version"] == 1  # nothing stored


@pytest.mark.parametrize("hand,field", [
    ({"result": "ron", "from_seat": 0, "winners": [{"seat": 1, "value": hf(2, 30), "bonus": 1}]}, "winners[0].bonus"),
    ({"result": "ron", "from_seat": 0, "winners": [{"seat": 1, "value": {"han": 2, "fu": 30, "points": 99999}}]},
     "winners[0].value.points"),
    ({"result": "ron", "from_seat": 0, "winners": [{"seat": 1, "value": {"han": 2, "fu": 30, "yakuman": 1}}]},
     "winners[0].value.yakuman"),
    ({"result": "tsumo", "winner": {"seat": 1, "value": {"hand": {"hand": "123m456p789s234m55p", "compare": ["ema"]}}}},
     "winner.value.hand.compare"),
    ({"result": "draw", "tenpai": [], "penalties": [{"seat": 1, "points": 1000, "extra": 1}]}, "penalties[0].extra"),
    ({"result": "chombo", "seat": 1, "continue_game": True}, "continue_game"),
    ({"result": "end", "riichi": "x"}, "riichi"),
    ({"result": "end", "riichi": [1]}, "riichi"),
])
def test_nested_and_misplaced_fields_are_refused(hand, field):
    rules = PRESETS["wrr"]
    with pytest.raises(LedgerError) as err:
        apply_hand(rules, new_state(rules), hand)
    assert err.value.field == field and err.value.status == 422


@pytest.mark.parametrize("hand,field,status", [
    ({"result": "draw", "tenpai": [], "continue_game": "yes"}, "continue_game", 400),
    ({"result": "end", "penalties": [{"seat": 9, "points": 1000}]}, "penalties[0].seat", 422),
    ({"result": "end", "penalties": [{"seat": 1, "points": 10 ** 300}]}, "penalties[0].points", 422),
    ({"result": "end", "penalties": [{"seat": 1, "points": 1000, "reason": "x" * 500}]}, "penalties[0].reason", 422),
    ({"result": "draw", "tenpai": [0, 1, 2, 3, 0]}, "tenpai", 422),
    (tsumo(1, hf(10 ** 300, 30)), "winner.value.han", 422),
    (tsumo(1, hf(6, 10 ** 300)), "winner.value.fu", 422),
    (tsumo(1, {"yakuman": 1, "pao_yakuman": 10 ** 300}), "winner.value.pao_yakuman", 422),
])
def test_every_number_and_seat_is_checked(hand, field, status):
    rules = PRESETS["wrr"]
    with pytest.raises(LedgerError) as err:
        apply_hand(rules, new_state(rules), hand)
    assert err.value.field == field and err.value.status == status
    assert "digits" in err.value.message or len(err.value.message) < 200  # never a 300-digit echo


def test_a_record_keeps_the_tables_own_facts_and_clean_seat_lists():
    rules = PRESETS["wrr"]
    state, rec = apply_hand(rules, new_state(rules), {"result": "draw", "tenpai": [2, 0], "riichi": None, "nagashi": None})
    assert rec["index"] == 0 and rec["tenpai"] == [0, 2] and rec["riichi"] == [] and rec["nagashi"] == []


@pytest.fixture
def lenient(monkeypatch):
    """Store hands with any field (as older versions of the app did, so such records exist)."""
    def store_anything(body, strict=True):
        return dict(body) if isinstance(body, dict) else body
    monkeypatch.setattr(game.ledger, "clean_hand", store_anything)
    monkeypatch.setattr(services.tables, "clean_hand", store_anything)
    return monkeypatch


def test_hands_stored_before_the_checks_never_block_the_table(tclient, lenient):
    t = new_table(tclient)
    assert record(tclient, t, {**ron(0, W(1, hf(2, 30))), "index": 5, "note": "x"}).status_code == 200
    assert record(tclient, t, {"result": "end", "riichi": "x"}).status_code == 200
    lenient.undo()  # today's code from here on
    # records written by older code are from before revision 0004, when tables kept no board: their
    # board is built from the log by the next write, with today's checks
    database = tclient.application.extensions["database"]
    with database.writing() as conn:
        conn.execute(delete(table_boards).where(table_boards.c.table_id == t["id"]))
        conn.execute(update(tables).where(tables.c.id == t["id"]).values(board_version=0))
    assert tclient.get(f"/api/tables/{t['id']}").status_code == 200
    assert tclient.get(f"/api/tables/{t['id']}/export?format=csv").status_code == 200
    # the bad end can be undone, and play goes on
    resp = tclient.delete(f"/api/tables/{t['id']}/hands/last", headers=current(tclient, t["id"], auth(t)))
    assert resp.status_code == 200, resp.get_json()
    body = resp.get_json()
    assert not body["state"]["finished"] and body["hands"][0]["index"] == 0 and "note" not in body["hands"][0]
    # the record sheet's preview reads the old records the way a write does
    resp = tclient.post(f"/api/tables/{t['id']}/preview", json=draw(), headers=auth(t))
    assert resp.status_code == 200, resp.get_json()
    assert resp.get_json()["hand"]["index"] == 1 and resp.get_json()["state"]["hands_played"] == 2
    assert record(tclient, t, draw()).status_code == 200
    # a correction of hand 0 lands on hand 0
    resp = tclient.put(f"/api/tables/{t['id']}/hands/0", json=ron(0, W(2, hf(3, 30))), headers=current(tclient, t["id"], auth(t)))
    assert resp.status_code == 200, resp.get_json()
    hands = resp.get_json()["hands"]
    assert [h["index"] for h in hands] == [0, 1] and hands[0]["winners"][0]["seat"] == 2


# --- CSV export ---------------------------------------------------------------------------------

def test_player_names_that_cannot_be_written_are_refused(tclient):
    for name in ("\ud800", "a\x00b", "tab\there"):
        resp = tclient.post("/api/tables", json={"ruleset": "wrr", "players": ["a", name, "c", "d"]})
        assert resp.status_code == 422 and error_of(resp)["field"] == "players[1]"


def test_csv_export_neutralises_formulas_and_survives_null_seats(tclient):
    players = ["=HYPERLINK(\"http://x\")", "+1", "-2", "@SUM(A1)"]
    resp = tclient.post("/api/tables", json={"ruleset": "wrr", "players": players})
    t = resp.get_json()
    assert record(tclient, t, {"result": "draw", "tenpai": None, "riichi": None}).status_code == 200
    assert record(tclient, t, ron(0, W(1, hf(2, 30)))).status_code == 200
    resp = tclient.get(f"/api/tables/{t['id']}/export?format=csv")
    assert resp.status_code == 200
    rows = list(csv.reader(io.StringIO(resp.get_data(as_text=True))))
    text_cells = [c for r in rows for c in r if c and not c.lstrip("-").isdigit()]
    assert not [c for c in text_cells if c[0] in "=+-@\t\r"], text_cells
    assert "'=HYPERLINK(\"http://x\") change" in rows[0]
    assert rows[2][6] == "-2000" or rows[2][6].lstrip("-").isdigit()  # numbers stay numbers


def test_csv_export_of_a_damaged_record_still_comes_out():
    from services.tables import export_csv

    doc = {"players": ["A\ud800", "B", "C", "D"], "state": {"finished": True, "standings": [{"seat": 9, "place": 1}]},
           "hands": [{"index": 0, "result": "draw", "tenpai": None, "dealer": 7, "deltas": None},
                     {"result": "ron", "from_seat": "x", "winners": [{"seat": -1, "han": 1, "fu": 30}, "junk"]},
                     {"result": "chombo"}, "junk"]}
    text = export_csv(doc)
    text.encode("utf-8")  # no lone surrogate left
    assert "seat 7" in text and "seat 9" in text


# --- bounds on every number a client sends ---------------------------------------------------------

def test_every_numeric_rule_parameter_has_a_range_and_the_presets_are_inside_it():
    for f in Ruleset.parameters():
        default = f.default
        if isinstance(default, int) and not isinstance(default, bool):
            assert "bounds" in f.metadata or "choices" in f.metadata, f.name
    for preset in PRESETS.values():
        described = preset.describe()["parameters"]
        for name, entry in described.items():
            if "range" in entry:
                r = entry["range"]
                assert r["min"] <= entry["value"] <= r["max"] and entry["value"] % r["step"] == 0, (preset.id, name)


@pytest.mark.parametrize("name,value", [
    ("max_yakuman", 0), ("renhou_han", 0), ("double_riichi_han", 0), ("double_riichi_han", 1),
    ("riichi_stick", 10 ** 300), ("riichi_stick", 0), ("start_points", 10 ** 300), ("chombo_penalty", 10 ** 300),
    ("honba_ron", 150), ("extension_target", -100),
], ids=lambda v: "huge" if isinstance(v, int) and v > 10 ** 12 else None)
def test_rule_overrides_outside_their_range_are_refused(name, value):
    with pytest.raises(Exception) as err:
        get_ruleset("wrr", {name: value})
    assert err.value.field == f"rules.{name}" and err.value.status == 422
    assert len(err.value.message) < 200


@pytest.mark.parametrize("uma", [[10 ** 300, 0, 0, -10 ** 300], [15050, 4950, -5000, -15000]], ids=["huge", "odd"])
def test_uma_outside_its_range_is_refused(uma):
    with pytest.raises(Exception) as err:
        get_ruleset("wrr", {"uma": uma})
    assert err.value.status == 422


def test_a_table_with_absurd_overrides_is_refused_and_a_penalty_cannot_break_the_end(tclient):
    resp = tclient.post("/api/tables", json={"ruleset": "wrr", "players": list("abcd"), "rules": {"max_yakuman": 0}})
    assert resp.status_code == 422 and error_of(resp)["field"] == "rules.max_yakuman"
    t = new_table(tclient)
    resp = record(tclient, t, {"result": "end", "penalties": [{"seat": 1, "points": int("9" * 300) * 100}]})
    assert resp.status_code == 422
    assert record(tclient, t, {"result": "end", "penalties": [{"seat": 1, "points": 1000}]}).status_code == 200


def test_a_riichi_stick_of_500_keeps_every_point():
    rules = get_ruleset("wrr", {"riichi_stick": 500})
    state = new_state(rules)
    state, _ = apply_hand(rules, state, draw(tenpai=[1], riichi=[1]))
    assert state.riichi_sticks == 1
    assert sum(state.scores) + state.riichi_sticks * 500 == 4 * rules.start_points
    state, rec = apply_hand(rules, state, ron(0, W(2, hf(2, 30))))
    assert state.riichi_sticks == 0 and sum(state.scores) == 4 * rules.start_points


# --- JSON export in one transaction; the log is capped -------------------------------------------------

def test_json_export_reads_snapshot_and_log_in_one_transaction(db_url, monkeypatch):
    app = create_app({"TESTING": True, "DATABASE_URL": db_url})
    client = app.test_client()
    t = new_table(client)
    assert record(client, t, draw()).status_code == 200
    db = app.extensions["database"]
    real_changes_of = db.changes_of
    done = []

    def events_with_a_write_in_between(conn, table_id):
        if not done:  # another phone records a hand between the two reads
            done.append(1)
            holder = {}
            th = threading.Thread(target=lambda: holder.update(r=record(app.test_client(), t, draw())))
            th.start()
            th.join(30)
            assert holder["r"].status_code == 200
        return real_changes_of(conn, table_id)

    monkeypatch.setattr(db, "changes_of", events_with_a_write_in_between)
    doc = client.get(f"/api/tables/{t['id']}/export?format=json").get_json()
    assert done
    assert doc["version"] == doc["log"][-1]["version"] + 0 or doc["version"] == len(doc["log"]) + 1
    assert len(doc["hands"]) == sum(1 for e in doc["log"] if e["op"] == "add")
    app.extensions["database"].dispose()


def test_the_event_log_of_a_table_is_capped(tclient, monkeypatch):
    monkeypatch.setattr(services.tables, "MAX_CHANGES", 4)
    t = new_table(tclient)
    for _ in range(2):
        assert record(tclient, t, draw()).status_code == 200
        assert tclient.delete(f"/api/tables/{t['id']}/hands/last", headers=current(tclient, t["id"], auth(t))).status_code == 200
    resp = record(tclient, t, draw())
    assert resp.status_code == 422
    assert "log is full" in error_of(resp)["message"] and "4 changes" in error_of(resp)["message"]
    assert tclient.get(f"/api/tables/{t['id']}/export?format=json").status_code == 200  # still readable


def test_one_hand_is_small(tclient):
    t = new_table(tclient)
    hand = tsumo(1, {"hand": {"hand": "123m456p789s234m55p", "dora_indicators": "1m" * 9000}})
    resp = record(tclient, t, hand)
    assert resp.status_code == 413 and error_of(resp)["field"] == "body"


# --- resource limits ---------------------------------------------------------------------------------

def test_json_cap_holds_for_every_json_content_type(client, app):
    app.config["MAX_JSON_BYTES"] = 1024
    big = json.dumps({"hand": "1m" * 2000})
    for ctype in ("application/json", "application/vnd.api+json", "application/merge-patch+json",
                  "application/json; charset=utf-8"):
        resp = client.post("/api/score", data=big, content_type=ctype)
        assert resp.status_code == 413, ctype


@pytest.fixture
def served_app():
    """The app behind werkzeug's real HTTP server, which hands chunked bodies to the app."""
    from werkzeug.serving import make_server

    app = create_app({"TESTING": True, "DATABASE_URL": "sqlite://", "MAX_JSON_BYTES": 4096})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    th = threading.Thread(target=server.serve_forever, daemon=True)
    th.start()
    yield server.server_port
    server.shutdown()
    th.join(5)
    server.server_close()


def _chunked_post(port, path, payload: bytes, ctype="application/json"):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    chunks = (payload[i:i + 1000] for i in range(0, len(payload), 1000))
    conn.request("POST", path, body=chunks, headers={"Content-Type": ctype}, encode_chunked=True)
    resp = conn.getresponse()
    out = resp.status, json.loads(resp.read() or b"null")
    conn.close()
    return out


def test_json_cap_holds_for_chunked_bodies(served_app):
    status, body = _chunked_post(served_app, "/api/tables", json.dumps(
        {"ruleset": "wrr", "players": ["a", "b", "c", "d"], "x": "y" * 100_000}).encode())
    assert status == 413 and body["error"]["field"] == "body"
    status, body = _chunked_post(served_app, "/api/score", json.dumps({"hand": "1m" * 5000}).encode(),
                                 "application/vnd.x+json")
    assert status == 413
    status, body = _chunked_post(served_app, "/api/score", json.dumps(
        {"hand": "234m067p345s11z555z", "win_tile": "5z", "seat_wind": "south"}).encode())
    assert status == 200 and body["han"] >= 1  # a small chunked body is read whole


def test_deeply_nested_json_is_a_400(client):
    for depth in (100_000, 1000, 40):
        resp = client.post("/api/score", data="[" * depth + "]" * depth, content_type="application/json")
        assert resp.status_code == 400 and error_of(resp)["field"] == "body", depth
        resp = client.post("/api/tables", data='{"players": ' + "[" * depth + "]" * depth + "}",
                           content_type="application/json")
        assert resp.status_code == 400, depth


def test_compare_is_deduplicated_and_capped(client):
    hand = {"hand": "234m067p345s11z555z", "win_tile": "5z", "seat_wind": "south"}
    resp = client.post("/api/score", json={**hand, "compare": ["wrr", "ema", "wrr", "ema", "wrr"]})
    assert resp.status_code == 200
    assert [r["ruleset"] for r in resp.get_json()["compare"]] == ["wrr", "ema"]
    resp = client.post("/api/score", json={**hand, "compare": ["wrr"] * 5000})
    assert resp.status_code == 422 and error_of(resp)["field"] == "compare"


def test_share_codes_are_long_and_old_short_ones_still_work(tclient):
    t = new_table(tclient)
    assert len(t["share_code"]) >= 16 and set(t["share_code"]) <= set(SHARE_ALPHABET)
    bits = len(t["share_code"]) * 5
    assert 2 ** bits / 1_000_000 / 500 / (3600 * 24 * 365) > 1000  # years to hit any of a million tables
    import secrets

    db = tclient.application.extensions["database"]
    old_id, old_code = "old" + secrets.token_hex(5), "".join(secrets.choice(SHARE_ALPHABET) for _ in range(6))
    with db.writing() as conn:  # a table made before the codes grew, as the old code stored it
        snapshot = json.dumps({**{k: v for k, v in t.items() if k != "edit_token"}, "id": old_id, "share_code": old_code})
        assert db.insert_table(conn, id=old_id, share_code=old_code, token_hash=hash_token("x"), ruleset="wrr",
                               rules={}, players=t["players"], snapshot=snapshot, stamp="2026-01-01T00:00:00Z")
    for key in (old_code, old_code.lower(), old_id):
        resp = tclient.get(f"/api/tables/{key}")
        assert resp.status_code == 200 and resp.get_json()["id"] == old_id


@pytest.mark.parametrize("key", ["%00", "a%00b", "%F0%9F%80%84", "x" * 200, "%0A", "a%20b"])
def test_odd_table_keys_are_a_404_on_every_database(tclient, key):
    t = new_table(tclient)
    for method, path in (("GET", f"/api/tables/{key}"), ("GET", f"/api/tables/{key}/export?format=csv"),
                         ("GET", f"/api/tables/{key}/export?format=json"), ("POST", f"/api/tables/{key}/hands"),
                         ("DELETE", f"/api/tables/{key}/hands/last"), ("POST", f"/api/tables/{key}/preview")):
        resp = tclient.open(path, method=method, json=draw() if method == "POST" else None, headers=auth(t))
        assert resp.status_code == 404, (method, path, resp.get_data(as_text=True)[:200])
        assert error_of(resp)["field"] == "id"


# --- scoring rules, checked against the rule texts ------------------------------------------------------

def test_a_wait_whose_copies_are_all_in_the_indicators_is_still_tenpai(client):
    # WRR "tenpai" 2, EMA 3.4.2, General laws, Saikouisen 52.6: only the player's own hand and calls count
    resp = client.post("/api/waits", json={"hand": "123m456p789s123s1z", "dora_indicators": "1z1z1z", "seat_wind": "south"})
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["tenpai"] is True
    assert [w["tile"] for w in body["waits"]] == ["1z"] and "indicators" in body["waits"][0]["reason"]
    assert body["waits"][0]["reason_id"] == "in_indicators"  # for an app to word it in its language
    # a hand waiting only on a fifth copy of what it holds is not tenpai
    assert client.post("/api/waits", json={"hand": "2222m345p678p789s"}).get_json()["tenpai"] is False


@pytest.mark.parametrize("extra", [
    {"hand": "456m789p123s55z999m", "dora_indicators": "3s"},
    {"hand": "456m789p123s55z999m", "dora_indicators": "4s", "ura_indicators": "3s", "riichi": True},
    {"hand": "456m789p12s55z3s", "melds": [{"type": "pon", "tiles": "333s"}]},
])
def test_chankan_of_a_tile_with_a_copy_elsewhere_is_impossible(client, extra):
    payload = {"win_tile": "3s", "chankan": True, "seat_wind": "south", **extra}
    resp = client.post("/api/score", json=payload)
    assert resp.status_code == 422 and error_of(resp)["field"] == "chankan", resp.get_json()
    ok = client.post("/api/score", json={**payload, "dora_indicators": "4s", "ura_indicators": "", "melds": []}
                     | ({"hand": "456m789p123s55z999m"} if "melds" in extra else {}))
    assert ok.status_code == 200, ok.get_json()


@pytest.mark.parametrize("name", ["max_yakuman", "renhou_han", "double_riichi_han"])
def test_zero_overrides_that_made_hands_worth_nothing_are_refused(client, name):
    resp = client.post("/api/score", json={"hand": "234m067p345s11z555z", "win_tile": "5z", "rules": {name: 0}})
    assert resp.status_code == 422 and error_of(resp)["field"] == f"rules.{name}"


def test_counters_in_a_score_request_are_bounded(client):
    resp = client.post("/api/score", json={"hand": "234m067p345s11z555z", "win_tile": "5z", "honba": 10 ** 300})
    assert resp.status_code == 422 and error_of(resp)["field"] == "honba"


@pytest.mark.parametrize("value", ["9" * 5000, '"\u00b2"'.encode().decode("latin-1"), '"1e3"'], ids=["5000-digits", "superscript-two", "float"])
def test_an_odd_if_match_is_a_400(tclient, value):
    t = new_table(tclient)
    resp = tclient.post(f"/api/tables/{t['id']}/hands", json=draw(),
                        headers={"Authorization": f"Bearer {t['edit_token']}", "If-Match": value})
    assert resp.status_code == 400 and error_of(resp)["field"] == "If-Match"


def test_a_scored_hand_may_name_the_tables_own_rules_but_no_others(tclient):
    t = new_table(tclient, rules={"kiriage": True})
    hand = {"hand": "234m067p345s11z555z", "win_tile": "5z", "win": "tsumo", "ruleset": "wrr"}
    resp = record(tclient, t, tsumo(1, {"hand": {**hand, "rules": {"kiriage": False}}}))
    assert resp.status_code == 422 and error_of(resp)["field"] == "winner.value.hand.rules"
    resp = record(tclient, t, tsumo(1, {"hand": {**hand, "rules": {"kiriage": True}}}))
    assert resp.status_code == 200, resp.get_json()


# --- the same for events (club nights, leagues) ---------------------------------------------------------

def test_events_have_long_codes_odd_keys_are_404_and_their_csv_defuses_formulas(tclient):
    players = ["=1+1", "+A", "-B", "@C", "Eve"]
    resp = tclient.post("/api/events", json={"name": "=cmd|' /C calc'!A0", "ruleset": "wrr", "players": players})
    assert resp.status_code == 201, resp.get_json()
    ev = resp.get_json()
    assert len(ev["share_code"]) >= 16
    for key in ("%00", "a%00b", "x" * 100):
        resp = tclient.get(f"/api/events/{key}")
        assert resp.status_code == 404 and error_of(resp)["field"] == "id"
    resp = tclient.put(f"/api/events/{ev['id']}/games/a%00b", json={"excluded": True},
                       headers={"Authorization": f"Bearer {ev['organiser_token']}"})
    assert resp.status_code == 404
    text = tclient.get(f"/api/events/{ev['id']}/export?format=csv").get_data(as_text=True)
    cells = [c for r in csv.reader(io.StringIO(text)) for c in r if c]
    assert not [c for c in cells if c[0] in "=+@" or (c[0] == "-" and not c[1:].replace(".", "").isdigit())], cells
    resp = tclient.post("/api/events", json={"name": "night\ud800", "ruleset": "wrr", "players": []})
    assert resp.status_code == 422 and error_of(resp)["field"] == "name"
