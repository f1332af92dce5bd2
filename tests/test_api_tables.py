"""The table API over real storage: SQLite always, PostgreSQL when TEST_DATABASE_URL points at one."""
import http.client
import json
import signal
import threading
import time
import urllib.error
import urllib.request

import pytest

from api_helpers import auth, new_table
from app import create_app
from ledger_helpers import W, draw, hf, ron, tsumo
from server_helpers import call, free_port, start_server
from worked_games import GAMES


def test_create_and_read(tclient):
    t = new_table(tclient)
    assert t["version"] == 1 and t["hands"] == [] and t["state"]["scores"] == [30000] * 4
    assert t["state"]["dealer"] == 0 and t["state"]["round_wind"] == "east" and t["state"]["hand_number"] == 1
    for key in (t["id"], t["share_code"], t["share_code"].lower()):
        got = tclient.get(f"/api/tables/{key}")
        assert got.status_code == 200
        body = got.get_json()
        assert "edit_token" not in body and body["id"] == t["id"]
        assert got.headers["ETag"] == '"1"'
    assert tclient.get("/api/tables/nope").status_code == 404


@pytest.mark.parametrize("payload,status,field", [
    ({"ruleset": "wrr", "players": ["a", "b", "c"]}, 422, "players"),
    ({"ruleset": "wrr", "players": "abcd"}, 400, "players"),
    ({"ruleset": "wrr", "players": ["a", "b", "", "d"]}, 422, "players[2]"),
    ({"ruleset": "xx", "players": ["a", "b", "c", "d"]}, 422, "ruleset"),
    ({"ruleset": "wrr", "players": ["a", "b", "c", "d"], "rules": {"kiriage": 1}}, 400, "rules.kiriage"),
])
def test_create_rejects_bad_input(tclient, payload, status, field):
    resp = tclient.post("/api/tables", json=payload)
    assert resp.status_code == status
    assert resp.get_json()["error"]["field"] == field


def test_a_whole_game_through_the_api_matches_the_ledger(tclient):
    t = new_table(tclient, "ema")
    version = t["version"]
    for hand, scores, sticks, _honba, _next in GAMES["ema"]:
        resp = tclient.post(f"/api/tables/{t['id']}/hands", json=hand, headers=auth(t, version))
        assert resp.status_code == 200, resp.get_json()
        body = resp.get_json()
        assert body["state"]["scores"] == scores and body["state"]["riichi_sticks"] == sticks
        assert body["version"] == version + 1 and resp.headers["ETag"] == f'"{version + 1}"'
        version = body["version"]
    final = tclient.get(f"/api/tables/{t['id']}").get_json()
    assert final["state"]["finished"]
    assert [(s["seat"], s["final"]) for s in final["state"]["standings"]] == [(0, 148.2), (1, -26.9), (2, -46.3), (3, -75)]
    assert final["state"]["leftover_sticks"] == {"points": 1000, "to": [0], "rule": "first"}


def test_auth_and_conflicts_leave_the_game_unchanged(tclient):
    t = new_table(tclient)
    url = f"/api/tables/{t['id']}/hands"
    hand = ron(0, W(2, hf(3, 40)))
    resp = tclient.post(url, json=hand)
    assert resp.status_code == 401 and resp.headers["WWW-Authenticate"].startswith("Bearer")
    resp = tclient.post(url, json=hand, headers={"Authorization": "Bearer not-the-token"})
    assert resp.status_code == 403
    assert tclient.post(url, json=hand, headers=auth(t, 1)).status_code == 200
    stale = tclient.post(url, json=hand, headers=auth(t, 1))
    assert stale.status_code == 409
    assert stale.get_json()["table"]["version"] == 2 and len(stale.get_json()["table"]["hands"]) == 1
    bad = tclient.post(url, json=ron(1, W(1, hf(3, 40))), headers=auth(t, 2))  # winner = discarder
    assert bad.status_code == 422 and bad.get_json()["error"]["field"] == "winners[0].seat"
    assert tclient.post(url, json={"result": "ron"}, headers={**auth(t, 2), "If-Match": "banana"}).status_code == 400
    after = tclient.get(f"/api/tables/{t['id']}").get_json()
    assert after["version"] == 2 and len(after["hands"]) == 1
    assert tclient.post(url, data="x", headers=auth(t, 2)).status_code == 415


def test_undo_and_correct(tclient):
    t = new_table(tclient)
    url = f"/api/tables/{t['id']}"
    v = 1
    for hand in (ron(0, W(2, hf(3, 40))), tsumo(3, hf(1, 30)), draw(tenpai=[1])):
        resp = tclient.post(f"{url}/hands", json=hand, headers=auth(t, v))
        v = resp.get_json()["version"]
    after3 = resp.get_json()["state"]["scores"]
    resp = tclient.delete(f"{url}/hands/last", headers=auth(t, v))
    assert resp.status_code == 200 and len(resp.get_json()["hands"]) == 2
    v = resp.get_json()["version"]
    resp = tclient.post(f"{url}/hands", json=draw(tenpai=[1]), headers=auth(t, v))
    assert resp.get_json()["state"]["scores"] == after3
    v = resp.get_json()["version"]
    # correct hand 0 from 3 han 40 fu (5200) to 4 han 40 fu (mangan 8000): everything after follows
    resp = tclient.put(f"{url}/hands/0", json=ron(0, W(2, hf(4, 40))), headers=auth(t, v))
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["hands"][0]["deltas"] == [-8000, 0, 8000, 0]
    assert body["state"]["scores"] == [s + d for s, d in zip(after3, [-2800, 0, 2800, 0])]
    v = body["version"]
    assert tclient.put(f"{url}/hands/9", json=draw(), headers=auth(t, v)).status_code == 404
    assert tclient.get(url).get_json()["version"] == v
    # the log keeps every event: nothing recorded is ever lost
    log = json.loads(tclient.get(f"{url}/export?format=json").data)["log"]
    assert [e["op"] for e in log] == ["add", "add", "add", "undo", "add", "replace"]


def test_a_correction_that_makes_a_later_hand_impossible_changes_nothing(tclient):
    t = new_table(tclient, "general")  # hakoten: the game ends when a player goes below zero
    url = f"/api/tables/{t['id']}"
    tclient.post(f"{url}/hands", json=ron(1, W(3, hf(1, 30))), headers=auth(t, 1))
    tclient.post(f"{url}/hands", json=draw(), headers=auth(t, 2))
    resp = tclient.put(f"{url}/hands/0", json=ron(1, W(3, {"yakuman": 1})), headers=auth(t, 3))
    assert resp.status_code == 422
    error = resp.get_json()["error"]
    # which hand is a field of the refusal, not words in its sentence
    assert error["hand"] == 1 and error["detail"]["id"] == "game_over" and not error["message"].startswith("hand")
    table = tclient.get(url).get_json()
    assert table["version"] == 3 and table["hands"][0]["deltas"] == [0, -1000, 0, 1000]


def test_undo_of_nothing_is_refused(tclient):
    t = new_table(tclient)
    resp = tclient.delete(f"/api/tables/{t['id']}/hands/last", headers=auth(t, 1))
    assert resp.status_code == 422


def test_if_none_match_and_export(tclient):
    t = new_table(tclient)
    tclient.post(f"/api/tables/{t['id']}/hands", json=ron(0, W(2, hf(3, 40))), headers=auth(t, 1))
    assert tclient.get(f"/api/tables/{t['id']}", headers={"If-None-Match": '"2"'}).status_code == 304
    assert tclient.get(f"/api/tables/{t['id']}", headers={"If-None-Match": '"1"'}).status_code == 200
    csv_text = tclient.get(f"/api/tables/{t['id']}/export?format=csv").data.decode()
    lines = csv_text.strip().splitlines()
    assert lines[0].startswith("hand,round,honba,dealer,result,details,Ann change")
    assert lines[1].split(",")[:5] == ["1", "east 1", "0", "Ann", "ron"] and "-5200" in lines[1]
    assert tclient.get(f"/api/tables/{t['id']}/export?format=xml").status_code == 400


# --- a real server: concurrency and durability -------------------------------------------------


@pytest.fixture
def live_server(db_url):
    from werkzeug.serving import make_server

    # the writers below are several phones, but all on 127.0.0.1: the guard against one address
    # sending more than two bodies at once (web/bodies.py, tested in its own tests) would refuse
    # a third writer with 429 whenever three bodies happened to be read at the same moment
    app = create_app({"TESTING": True, "DATABASE_URL": db_url, "BODIES_PER_CLIENT": 16})
    server = make_server("127.0.0.1", free_port(), app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    app.extensions["database"].dispose()


def test_two_clients_on_the_same_version_exactly_one_wins(live_server):
    status, t = call(live_server, "POST", "/api/tables", {"ruleset": "wrr", "players": ["a", "b", "c", "d"]})
    results = []
    barrier = threading.Barrier(6)

    def post(n):
        barrier.wait()
        results.append(call(live_server, "POST", f"/api/tables/{t['id']}/hands",
                            ron(n % 4, W((n + 1) % 4, hf(1, 30))), auth(t, 1)))

    threads = [threading.Thread(target=post, args=(n,)) for n in range(6)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    codes = sorted(code for code, _ in results)
    assert codes == [200, 409, 409, 409, 409, 409]
    status, final = call(live_server, "GET", f"/api/tables/{t['id']}")
    assert final["version"] == 2 and len(final["hands"]) == 1


def test_the_same_change_sent_twice_at_once_is_stored_once_and_both_get_the_table(live_server):
    """Six copies of one hand with one key, at once (a phone that sent again while the first was
    still under way): every copy is answered 200 with the table, and the table has one hand."""
    status, t = call(live_server, "POST", "/api/tables", {"ruleset": "wrr", "players": ["a", "b", "c", "d"]})
    n = 6
    barrier = threading.Barrier(n)
    results = []

    def post():
        barrier.wait()
        results.append(call(live_server, "POST", f"/api/tables/{t['id']}/hands", ron(0, W(1, hf(2, 30))),
                            {**auth(t, 1), "Idempotency-Key": "once"}))

    threads = [threading.Thread(target=post) for _ in range(n)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(code for code, _ in results) == [200] * n
    assert {body["version"] for _, body in results} == {2}
    status, final = call(live_server, "GET", f"/api/tables/{t['id']}")
    assert final["version"] == 2 and len(final["hands"]) == 1


def test_concurrent_writers_without_if_match_store_nothing(live_server):
    """Without If-Match a write cannot tell a hand sent twice from two hands: refused with 428 (issue 24)."""
    status, t = call(live_server, "POST", "/api/tables", {"ruleset": "ema", "players": ["a", "b", "c", "d"]})
    n = 8
    barrier = threading.Barrier(n)
    codes = []

    def post(i):
        barrier.wait()
        codes.append(call(live_server, "POST", f"/api/tables/{t['id']}/hands",
                          {"result": "abort", "kind": "four_winds"}, auth(t))[0])

    threads = [threading.Thread(target=post, args=(i,)) for i in range(n)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    status, final = call(live_server, "GET", f"/api/tables/{t['id']}")
    assert codes == [428] * n and final["hands"] == [] and final["version"] == 1


def test_acknowledged_hands_survive_a_killed_server(db_url):
    port = free_port()
    proc, base = start_server(db_url, port)
    try:
        status, t = call(base, "POST", "/api/tables", {"ruleset": "ema", "players": ["a", "b", "c", "d"]})
        acked = []
        stop = threading.Event()

        def writer():
            version = 1
            while not stop.is_set():
                try:
                    code, body = call(base, "POST", f"/api/tables/{t['id']}/hands",
                                      {"result": "abort", "kind": "nine_terminals"}, auth(t, version), timeout=2)
                except (urllib.error.URLError, ConnectionError, OSError, http.client.HTTPException):
                    return  # killed mid-request or mid-answer: that hand was never acknowledged
                if code == 200:
                    acked.append(body["version"])
                    version = body["version"]

        th = threading.Thread(target=writer)
        th.start()
        while len(acked) < 15:
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        stop.set()
        th.join()
    finally:
        if proc.poll() is None:
            proc.kill()
    proc, base = start_server(db_url, port)
    try:
        status, table = call(base, "GET", f"/api/tables/{t['id']}")
        assert status == 200
        assert table["version"] >= max(acked)
        assert len(table["hands"]) >= len(acked)
        assert table["state"]["honba"] == len(table["hands"])
    finally:
        proc.kill()
        proc.wait()


def test_preview_shows_the_payments_and_stores_nothing(tclient):
    t = new_table(tclient)
    first = {"result": "ron", "from_seat": 1, "winners": [{"seat": 2, "value": {"han": 1, "fu": 30}}], "riichi": [0]}
    resp = tclient.post(f"/api/tables/{t['id']}/hands", json=first, headers=auth(t, 1))
    assert resp.status_code == 200
    # then a tsumo by Ann with Di in riichi: the sticks on the table go to Ann
    hand = {"result": "tsumo", "winner": {"seat": 0, "value": {"han": 3, "fu": 30}}, "riichi": [3]}
    resp = tclient.post(f"/api/tables/{t['id']}/preview", json=hand, headers=auth(t))
    assert resp.status_code == 200, resp.get_json()
    preview = resp.get_json()
    recorded = tclient.post(f"/api/tables/{t['id']}/hands", json=hand, headers=auth(t, 2))
    after = recorded.get_json()
    # the preview is exactly what recording then does
    assert preview["hand"]["payments"] == after["hands"][-1]["payments"]
    assert preview["hand"]["deltas"] == after["hands"][-1]["deltas"]
    assert preview["state"] == after["state"]
    assert any(p["for"] == "riichi sticks" for p in preview["hand"]["payments"])
    # previewing a correction of hand 0, and nothing stored by any preview
    fixed = {**first, "winners": [{"seat": 2, "value": {"han": 2, "fu": 30}}]}
    resp = tclient.post(f"/api/tables/{t['id']}/preview?index=0", json=fixed, headers=auth(t))
    assert resp.status_code == 200
    assert resp.get_json()["hand"]["deltas"][2] > after["hands"][0]["deltas"][2]
    assert tclient.get(f"/api/tables/{t['id']}").get_json()["version"] == 3


def test_preview_refuses_clearly(tclient):
    t = new_table(tclient)
    bad = {"result": "ron", "from_seat": 1, "winners": [{"seat": 1, "value": {"han": 1, "fu": 30}}]}
    resp = tclient.post(f"/api/tables/{t['id']}/preview", json=bad, headers=auth(t))
    assert resp.status_code in (400, 422) and resp.get_json()["error"]["field"]
    ok = {"result": "draw", "tenpai": [0]}
    assert tclient.post(f"/api/tables/{t['id']}/preview", json=ok).status_code == 401
    assert tclient.post(f"/api/tables/{t['id']}/preview?index=5", json=ok, headers=auth(t)).status_code == 404
    assert tclient.post(f"/api/tables/{t['id']}/preview?index=x", json=ok, headers=auth(t)).get_json()["error"]["field"] == "index"
    assert tclient.post("/api/tables/nope/preview", json=ok, headers=auth(t)).status_code == 404


def test_duplicate_player_names_are_refused_with_the_field(tclient):
    resp = tclient.post("/api/tables", json={"ruleset": "wrr", "players": ["Ann", "Bo", "ann ", "Di"]})
    assert resp.status_code == 422
    err = resp.get_json()["error"]
    assert err["field"] == "players[2]" and "different name" in err["message"]


def test_every_error_carries_a_stable_code(tclient):
    """The app translates errors by code (the message's wording may change)."""
    cases = [
        (tclient.post("/api/score", data="{", content_type="application/json"), 400, "malformed"),
        (tclient.post("/api/score", data="x", content_type="text/plain"), 415, "unsupported_media_type"),
        (tclient.post("/api/score", json={"hand": "123m"}), 422, "impossible"),
        (tclient.get("/api/tables/nope"), 404, "not_found"),
    ]
    t = new_table(tclient)
    cases.append((tclient.post(f"/api/tables/{t['id']}/hands", json={"result": "draw", "tenpai": []}), 401, "token_missing"))
    cases.append((tclient.post(f"/api/tables/{t['id']}/hands", json={"result": "draw", "tenpai": []}, headers=auth(t, 7)), 409, "conflict"))
    for resp, status, code in cases:
        assert resp.status_code == status, resp.get_json()
        assert resp.get_json()["error"]["code"] == code


def test_a_table_hand_and_its_preview_take_the_counted_dora(tclient):
    t = new_table(tclient)
    scored = {"hand": "123m456p789s234m55p", "win_tile": "4m", "riichi": True}
    hand = {"result": "ron", "from_seat": 1, "winners": [{"seat": 2, "value": {"hand": {**scored, "dora_count": 2}}}],
            "riichi": [2]}
    resp = tclient.post(f"/api/tables/{t['id']}/preview", json=hand, headers=auth(t))
    assert resp.status_code == 200, resp.get_json()
    winner = resp.get_json()["hand"]["winners"][0]
    assert {"id": "dora", "han": 2} in winner["yaku"]
    recorded = tclient.post(f"/api/tables/{t['id']}/hands", json=hand, headers=auth(t, 1)).get_json()
    assert recorded["hands"][-1]["winners"][0]["han"] == winner["han"]
    bad = {**hand, "winners": [{"seat": 2, "value": {"hand": {**scored, "dora_count": 99}}}]}
    resp = tclient.post(f"/api/tables/{t['id']}/hands", json=bad, headers=auth(t, 2))
    assert resp.status_code == 422
    assert "dora_count" in resp.get_json()["error"]["field"]
    assert tclient.get(f"/api/tables/{t['id']}").get_json()["version"] == 2
