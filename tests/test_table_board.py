"""A table keeps its board with its log: a write replays only from the hand it changes, and the
board it serves is always the one a full replay of the log gives, at a thousand hands as at ten.
Every table here is built through the API."""
from __future__ import annotations

import json

from sqlalchemy import delete, select, update

from api_helpers import new_table, write
from game.board import board, fold
from ledger_helpers import draw, hf, ron, tsumo
from scoring.rules import get_ruleset
from storage.db import changes, table_boards, tables


def long_game(n: int) -> list[dict]:
    """``n`` hands of one game that never ends: a few opening hands that move the deal and the
    points, then draws where everyone is tenpai (the dealer stays, no points change hands) with a
    riichi now and then and a small dealer win while the counters are low."""
    hands = [ron(0, (1, hf(2, 30), None)), tsumo(2, hf(1, 30), riichi=[2]), draw(tenpai=[1, 3]),
             ron(2, (3, hf(3, 40), None), riichi=[3]), draw(tenpai=[0, 1, 2, 3])]
    while len(hands) < n:
        k = len(hands)
        hands.append(draw(tenpai=[0, 1, 2, 3], riichi=[k % 4] if k % 50 == 0 else []))
    return hands[:n]


def served(client, t) -> dict:
    resp = client.get(f"/api/tables/{t['id']}")
    assert resp.status_code == 200
    return resp.get_json()


def full_replay(client, t) -> dict:
    """The board of the table's whole log, replayed from its first change (the log is the truth)."""
    app_db = client.application.extensions["database"]
    with app_db.engine.connect() as conn:
        log = app_db.changes_of(conn, t["id"])
    return board(get_ruleset("wrr"), fold(log))


def assert_board_is_the_replay(client, t) -> dict:
    doc = served(client, t)
    replayed = full_replay(client, t)
    assert doc["state"] == replayed["state"]
    assert doc["hands"] == replayed["hands"]
    return doc


def test_a_thousand_hand_table_serves_the_board_of_its_whole_log(tclient):
    t = new_table(tclient)
    hands = long_game(1000)
    for n, hand in enumerate(hands):
        resp = write(tclient, "post", t, "/hands", json=hand)
        assert resp.status_code == 200, (n, resp.get_json())
    written = resp.get_json()
    assert written["version"] == 1001 and resp.headers["ETag"] == '"1001"'
    doc = assert_board_is_the_replay(tclient, t)
    assert doc == written
    assert doc["state"]["hands_played"] == 1000 and not doc["state"]["finished"]
    assert doc["state"]["honba"] > 900  # the draws really did keep the dealer: the table never ended

    # the cap is a thousand hands now (it was 200)
    refused = write(tclient, "post", t, "/hands", json=draw(tenpai=[0, 1, 2, 3]))
    assert refused.status_code == 422 and "at most 1000 hands" in refused.get_json()["error"]["message"]

    # correcting an early hand replays everything after it
    resp = write(tclient, "put", t, "/hands/1", json=tsumo(2, hf(3, 30)))
    assert resp.status_code == 200, resp.get_json()
    doc = assert_board_is_the_replay(tclient, t)
    assert doc["hands"][1]["winners"][0]["han"] == 3 and doc["state"]["scores"] != written["state"]["scores"]

    # undo and a correction of the last hand, then a new hand again
    assert write(tclient, "delete", t, "/hands/last").status_code == 200
    assert len(assert_board_is_the_replay(tclient, t)["hands"]) == 999
    assert write(tclient, "put", t, "/hands/998", json=draw(tenpai=[0])).status_code == 200
    assert write(tclient, "post", t, "/hands", json=draw(tenpai=[1, 2])).status_code == 200
    doc = assert_board_is_the_replay(tclient, t)
    assert doc["version"] == 1005 and doc["hands"][998]["tenpai"] == [0] and doc["hands"][999]["tenpai"] == [1, 2]


def test_corrections_undos_and_refusals_keep_board_and_log_together(tclient):
    t = new_table(tclient)
    for hand in long_game(12):
        assert write(tclient, "post", t, "/hands", json=hand).status_code == 200
    # a correction the rules refuse (a winner paying himself) stores nothing: not the board, not the log
    before = served(tclient, t)
    bad = write(tclient, "put", t, "/hands/3", json=ron(1, (1, hf(2, 30), None)))
    assert bad.status_code in (400, 422) and bad.get_json()["error"]["field"]
    assert served(tclient, t) == before
    assert write(tclient, "put", t, "/hands/40", json=draw()).status_code == 404
    # undo every hand, one by one: each time the board is the replay of the log
    for left in range(11, -1, -1):
        assert write(tclient, "delete", t, "/hands/last").status_code == 200
        assert len(assert_board_is_the_replay(tclient, t)["hands"]) == left
    nothing = write(tclient, "delete", t, "/hands/last")
    assert nothing.status_code == 422 and nothing.get_json()["error"]["field"] == "hands"
    # and the preview reads the same board
    assert write(tclient, "post", t, "/hands", json=long_game(1)[0]).status_code == 200
    preview = write(tclient, "post", t, "/preview", json=draw(tenpai=[0])).get_json()
    expected = board(get_ruleset("wrr"), [long_game(1)[0], draw(tenpai=[0])])
    assert preview["hand"] == expected["hands"][1] and preview["state"] == expected["state"]
    fixed = write(tclient, "post", t, "/preview?index=0", json=draw(tenpai=[2])).get_json()
    assert fixed["state"] == board(get_ruleset("wrr"), [draw(tenpai=[2])])["state"]


def test_a_board_behind_its_log_is_rebuilt_from_the_log(tclient):
    """A table written before boards were kept (revision 0004) has none: its next write builds it
    from the log, and the log alone decides what it holds."""
    t = new_table(tclient)
    for hand in long_game(8):
        assert write(tclient, "post", t, "/hands", json=hand).status_code == 200
    database = tclient.application.extensions["database"]
    with database.writing() as conn:
        conn.execute(delete(table_boards).where(table_boards.c.table_id == t["id"]))
        conn.execute(update(tables).where(tables.c.id == t["id"]).values(board_version=0))
    assert write(tclient, "put", t, "/hands/2", json=draw(tenpai=[3])).status_code == 200
    doc = assert_board_is_the_replay(tclient, t)
    assert doc["hands"][2]["tenpai"] == [3] and len(doc["hands"]) == 8
    with database.engine.connect() as conn:
        rows = conn.execute(select(table_boards.c.hand_index, table_boards.c.record)
                            .where(table_boards.c.table_id == t["id"]).order_by(table_boards.c.hand_index)).all()
        version, board_version = conn.execute(select(tables.c.version, tables.c.board_version).where(tables.c.id == t["id"])).one()
        logged = conn.execute(select(changes.c.version).where(changes.c.table_id == t["id"])).all()
    assert [r[0] for r in rows] == list(range(8)) and [json.loads(r[1]) for r in rows] == doc["hands"]
    assert version == board_version == 10 and len(logged) == 9

