"""The event API over real storage (SQLite, and PostgreSQL when TEST_DATABASE_URL is set)."""
import csv
import io

import pytest

from api_helpers import add_game, current, event_current

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def new_event(client, players=NAMES, **extra):
    resp = client.post("/api/events", json={"name": "Thursday club night", "ruleset": "wrr", "players": players, **extra})
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def org(event):
    return {"Authorization": f"Bearer {event['organiser_token']}"}


def ron(frm, seat, han, fu, riichi=()):
    return {"result": "ron", "from_seat": frm, "winners": [{"seat": seat, "value": {"han": han, "fu": fu}}], "riichi": list(riichi)}


def test_create_read_by_id_and_share_code(tclient):
    ev = new_event(tclient, settings={"rounds_planned": 2})
    assert ev["version"] == 1 and ev["players"] == NAMES and ev["games"] == [] and ev["settings"]["rounds_planned"] == 2
    assert all(r["rank"] is None and r["games"] == 0 for r in ev["standings"])
    by_code = tclient.get(f"/api/events/{ev['share_code'].lower()}").get_json()
    assert by_code["id"] == ev["id"] and "organiser_token" not in by_code


@pytest.mark.parametrize("body,status,field", [
    ({"ruleset": "wrr", "players": NAMES}, 400, "name"),
    ({"name": " ", "players": NAMES}, 422, "name"),
    ({"name": "x", "ruleset": "nope"}, 422, "ruleset"),
    ({"name": "x", "rules": {"game_length": "north"}}, 422, "rules.game_length"),
    ({"name": "x", "players": ["Ann", "ann"]}, 422, "players[1]"),
    ({"name": "x", "players": "Ann"}, 400, "players"),
    ({"name": "x", "settings": {"seating": "swiss"}}, 422, "settings.seating"),
    ({"name": "x", "settings": {"colour": 1}}, 400, "settings.colour"),
])
def test_create_refuses_bad_input_naming_the_field(tclient, body, status, field):
    resp = tclient.post("/api/events", json=body)
    assert resp.status_code == status and resp.get_json()["error"]["field"] == field


def test_writes_need_the_organiser_token(tclient):
    ev = new_event(tclient)
    other = new_event(tclient)
    assert tclient.post(f"/api/events/{ev['id']}/rounds", json={}).status_code == 401
    assert tclient.post(f"/api/events/{ev['id']}/rounds", json={}, headers=org(other)).status_code == 403
    assert tclient.post(f"/api/events/{ev['share_code']}/rounds", json={}, headers={"Authorization": "Bearer x"}).status_code == 403
    assert tclient.get("/api/events/nothing").status_code == 404
    assert tclient.get(f"/api/events/{ev['id']}").get_json()["rounds"] == []  # nothing changed


def test_a_round_opens_tables_with_the_events_players_and_rules(tclient):
    ev = new_event(tclient, rules={"game_length": "east"})
    out = tclient.post(f"/api/events/{ev['id']}/rounds", json={"seating": "balanced"}, headers=org(ev))
    assert out.status_code == 201
    doc = out.get_json()
    rnd = doc["rounds"][0]
    assert rnd["number"] == 1 and rnd["byes"] == [] and len(rnd["tables"]) == 2
    assert sorted(p for t in rnd["tables"] for p in t) == list(range(8))
    for game, seats in zip(doc["new_games"], rnd["tables"]):
        assert game["players"] == [NAMES[p] for p in seats]
        table = tclient.get(f"/api/tables/{game['id']}").get_json()
        assert table["rules"] == {"game_length": "east"} and table["ruleset"] == "wrr"
        assert table["event"]["id"] == ev["id"] and table["event"]["entrants"] == seats
    # the table's own token records on it, and so does the organiser's
    g0, g1 = doc["new_games"]
    mine = {"Authorization": f"Bearer {g0['edit_token']}"}
    assert tclient.post(f"/api/tables/{g0['id']}/hands", json={"result": "draw"}, headers=current(tclient, g0['id'], mine)).status_code == 200
    assert tclient.post(f"/api/tables/{g1['id']}/hands", json={"result": "draw"}, headers=current(tclient, g1['id'], org(ev))).status_code == 200
    # but one table's token does not record on another table
    assert tclient.post(f"/api/tables/{g1['id']}/hands", json={"result": "draw"}, headers=current(tclient, g1['id'], mine)).status_code == 403


def test_ten_players_get_two_byes_or_two_substitutes(tclient):
    ten = NAMES + ["Ivy", "Jo"]
    ev = new_event(tclient, players=ten)
    doc = tclient.post(f"/api/events/{ev['id']}/rounds", json={}, headers=org(ev)).get_json()
    assert len(doc["rounds"][0]["byes"]) == 2 and len(doc["new_games"]) == 2
    doc = tclient.post(f"/api/events/{ev['id']}/rounds", json={"mode": "substitutes"}, headers=org(ev)).get_json()
    assert doc["rounds"][1]["byes"] == [] and len(doc["new_games"]) == 3
    subs = [n for g in doc["new_games"] for n in g["players"] if n.startswith("Substitute")]
    assert len(subs) == 2
    resp = tclient.post(f"/api/events/{ev['id']}/rounds", json={"present": [0, 1]}, headers=org(ev))
    assert resp.status_code == 422 and resp.get_json()["error"]["field"] == "present"
    resp = tclient.post(f"/api/events/{ev['id']}/rounds", json={"present": [0, 99, 1, 2]}, headers=org(ev))
    assert resp.status_code == 422 and resp.get_json()["error"]["field"] == "present"


def test_a_game_is_opened_once_however_often_it_is_sent(tclient):
    """Without If-Match the server cannot tell one game sent twice (its answer lost on a phone
    network) from two games: refused with 428, naming the header. With it, the second sending
    comes on a version that is no longer current: 409, and the event shown as it is."""
    ev = new_event(tclient, players=NAMES[:4])
    path = f"/api/events/{ev['id']}/games"
    bare = tclient.post(path, json={"players": [0, 1, 2, 3]}, headers=org(ev))
    error = bare.get_json()["error"]
    assert bare.status_code == 428 and error["field"] == "If-Match" and "twice" in error["message"]
    assert tclient.get(f"/api/events/{ev['id']}").get_json()["games"] == []
    seen = event_current(tclient, ev["id"], org(ev))
    sent = [tclient.post(path, json={"players": [0, 1, 2, 3]}, headers=seen) for _ in range(2)]
    assert [r.status_code for r in sent] == [201, 409]
    assert len(tclient.get(f"/api/events/{ev['id']}").get_json()["games"]) == 1


def test_standings_follow_games_an_exclusion_and_a_correction(tclient):
    ev = new_event(tclient, players=NAMES[:4])
    doc = add_game(tclient, ev).get_json()
    g = doc["new_games"][0]
    seat = {name: i for i, name in enumerate(g["players"])}  # seats were drawn: find who sits where
    path = f"/api/tables/{g['id']}/hands"
    # Ben rons Cat for 3 han 30 fu (3900, or 5800 if the draw made Ben the dealer), then the session ends
    won = 20.8 if seat["Ben"] == 0 else 18.9
    first = ron(seat["Cat"], seat["Ben"], 3, 30)
    assert tclient.post(path, json=first, headers={**org(ev), "If-Match": '"1"'}).status_code == 200
    assert tclient.post(path, json={"result": "end"}, headers={**org(ev), "If-Match": '"2"'}).status_code == 200
    rows = {r["name"]: r for r in tclient.get(f"/api/events/{ev['id']}").get_json()["standings"]}
    # WRR: Ben +3.9 + 15; Ann and Dan tie at 30000 for 2nd: (5 - 5) / 2 = 0; Cat -3.9 - 15
    assert (rows["Ben"]["total"], rows["Ann"]["total"], rows["Dan"]["total"], rows["Cat"]["total"]) == (won, 0, 0, -won)
    assert rows["Ann"]["rank"] == rows["Dan"]["rank"] == 2
    # corrected after the game ended: it was Ann who dealt in, not Cat
    fixed = ron(seat["Ann"], seat["Ben"], 3, 30)
    assert tclient.put(f"/api/tables/{g['id']}/hands/0", json=fixed, headers=current(tclient, g['id'], org(ev))).status_code == 200
    rows = {r["name"]: r for r in tclient.get(f"/api/events/{ev['id']}").get_json()["standings"]}
    assert (rows["Ann"]["total"], rows["Cat"]["total"], rows["Dan"]["total"]) == (-won, 0, 0)
    # a practice game: excluded, the standings drop it; counted again, it is back
    out = tclient.put(f"/api/events/{ev['id']}/games/{g['id']}", json={"excluded": True}, headers=org(ev)).get_json()
    assert all(r["games"] == 0 for r in out["standings"]) and out["games"][0]["excluded"] is True
    out = tclient.put(f"/api/events/{ev['id']}/games/{g['id']}", json={"excluded": False}, headers=org(ev)).get_json()
    assert {r["name"]: r["total"] for r in out["standings"]}["Ben"] == won
    assert tclient.put(f"/api/events/{ev['id']}/games/nope", json={"excluded": True}, headers=org(ev)).status_code == 404
    assert tclient.put(f"/api/events/{ev['id']}/games/{g['id']}", json={"excluded": "yes"}, headers=org(ev)).status_code == 400


def test_next_game_same_players_fresh_draw_linked_and_in_the_event(tclient):
    ev = new_event(tclient, players=NAMES[:4])
    g = add_game(tclient, ev).get_json()["new_games"][0]
    mine = {"Authorization": f"Bearer {g['edit_token']}"}
    resp = tclient.post(f"/api/tables/{g['id']}/next", headers=org(ev))
    assert resp.status_code == 422 and resp.get_json()["error"]["field"] == "state"  # the game is not over
    tclient.post(f"/api/tables/{g['id']}/hands", json={"result": "end"}, headers=current(tclient, g['id'], mine))
    # a game of the event counts in its standings: the table's token cannot add one (issue 24)
    resp = tclient.post(f"/api/tables/{g['id']}/next", headers=mine)
    assert resp.status_code == 403 and resp.get_json()["error"]["field"] == "Authorization"
    resp = tclient.post(f"/api/tables/{g['id']}/next", headers=org(ev))
    assert resp.status_code == 201
    nxt = resp.get_json()
    assert sorted(nxt["players"]) == sorted(g["players"]) and nxt["previous_table"] == g["id"]
    assert nxt["event"]["entrants"] == [NAMES.index(n) for n in nxt["players"]]
    old = tclient.get(f"/api/tables/{g['id']}").get_json()
    assert old["next_table"] == nxt["id"] and old["state"]["finished"]
    # the same phones (the same token) record on the next game
    assert tclient.post(f"/api/tables/{nxt['id']}/hands", json={"result": "draw"}, headers=current(tclient, nxt['id'], mine)).status_code == 200
    assert tclient.post(f"/api/tables/{g['id']}/next", headers=org(ev)).status_code == 422  # only one next game
    doc = tclient.get(f"/api/events/{ev['id']}").get_json()
    assert [x["id"] for x in doc["games"]] == [g["id"], nxt["id"]] and doc["games"][1]["previous_table"] == g["id"]


def test_next_game_of_a_plain_table(tclient):
    t = tclient.post("/api/tables", json={"players": ["A", "B", "C", "D"]}).get_json()
    mine = {"Authorization": f"Bearer {t['edit_token']}"}
    tclient.post(f"/api/tables/{t['id']}/hands", json={"result": "end"}, headers=current(tclient, t['id'], mine))
    assert tclient.post(f"/api/tables/{t['id']}/next").status_code == 401
    nxt = tclient.post(f"/api/tables/{t['id']}/next", headers=mine).get_json()
    assert "event" not in nxt and nxt["previous_table"] == t["id"] and nxt["hands"] == []


def test_players_are_added_and_renamed_never_removed(tclient):
    ev = new_event(tclient, players=NAMES[:4])
    doc = tclient.patch(f"/api/events/{ev['id']}", json={"players": ["Anne"] + NAMES[1:5], "name": "Spring league"}, headers=org(ev))
    assert doc.status_code == 200 and doc.get_json()["players"] == ["Anne", "Ben", "Cat", "Dan", "Eve"]
    assert doc.get_json()["version"] == 2 and doc.get_json()["name"] == "Spring league"
    resp = tclient.patch(f"/api/events/{ev['id']}", json={"players": NAMES[:2]}, headers=org(ev))
    assert resp.status_code == 422 and resp.get_json()["error"]["field"] == "players"
    assert tclient.patch(f"/api/events/{ev['id']}", json={"colour": 1}, headers=org(ev)).status_code == 400


def test_export_csv_json_and_the_print_page(tclient):
    ev = new_event(tclient, players=NAMES[:4])
    g = add_game(tclient, ev).get_json()["new_games"][0]
    seat = {name: i for i, name in enumerate(g["players"])}
    tclient.post(f"/api/tables/{g['id']}/hands", json=ron(seat["Cat"], seat["Ben"], 3, 30), headers=current(tclient, g['id'], org(ev)))
    tclient.post(f"/api/tables/{g['id']}/hands", json={"result": "end"}, headers=current(tclient, g['id'], org(ev)))
    data = tclient.get(f"/api/events/{ev['id']}/export?format=json").get_json()
    assert data["standings"][0]["name"] == "Ben" and data["stats"][1]["wins"] == 1
    text = tclient.get(f"/api/events/{ev['id']}/export?format=csv").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(text)))
    won = "20.8" if seat["Ben"] == 0 else "18.9"  # 5800 as the dealer, else 3900; + 15 uma
    assert rows[2][:4] == ["rank", "player", "total", "games"] and rows[3][:3] == ["1", "Ben", won]
    assert tclient.get(f"/api/events/{ev['id']}/export?format=xml").status_code == 400
    page = tclient.get(f"/events/{ev['share_code']}/print")
    assert page.status_code == 200 and b"Ben" in page.data and f"+{won}".encode() in page.data and b"<script" not in page.data
    assert tclient.get("/events/nothing/print").status_code == 404


def test_polling_an_unchanged_event_gets_304_until_a_game_changes(tclient):
    ev = new_event(tclient, players=NAMES[:4])
    g = add_game(tclient, ev).get_json()["new_games"][0]
    first = tclient.get(f"/api/events/{ev['share_code']}")
    etag = first.headers["ETag"]
    assert tclient.get(f"/api/events/{ev['share_code']}", headers={"If-None-Match": etag}).status_code == 304
    tclient.post(f"/api/tables/{g['id']}/hands", json={"result": "draw"}, headers=current(tclient, g['id'], org(ev)))  # a hand at a table
    fresh = tclient.get(f"/api/events/{ev['share_code']}", headers={"If-None-Match": etag})
    assert fresh.status_code == 200 and fresh.headers["ETag"] != etag
    assert fresh.get_json()["games"][0]["hands_played"] == 1
    etag = fresh.headers["ETag"]
    tclient.patch(f"/api/events/{ev['id']}", json={"name": "renamed"}, headers=org(ev))  # the event itself
    assert tclient.get(f"/api/events/{ev['id']}", headers={"If-None-Match": etag}).status_code == 200


def test_a_round_sent_again_is_not_seated_twice(tclient):
    """The organiser's phone says which round it seats: a tap sent again after its answer was lost
    finds that round seated (409 naming `round`) and opens no second set of tables."""
    ev = new_event(tclient)
    path = f"/api/events/{ev['id']}/rounds"
    first = tclient.post(path, json={"round": 1}, headers=org(ev))
    assert first.status_code == 201 and len(first.get_json()["new_games"]) == 2
    again = tclient.post(path, json={"round": 1}, headers=org(ev))
    assert again.status_code == 409
    error = again.get_json()["error"]
    assert error["field"] == "round" and error["detail"] == {"id": "round_seated", "params": {"n": 1}}
    assert error["message"] == "Round 1 is already seated: its tables are listed under Round 1."
    shown = tclient.get(f"/api/events/{ev['id']}").get_json()
    assert len(shown["rounds"]) == 1 and len(shown["games"]) == 2
    # a round further on than the next is no round to seat; without `round`, the next one is seated
    ahead = tclient.post(path, json={"round": 3}, headers=org(ev))
    assert ahead.status_code == 422 and ahead.get_json()["error"]["detail"] == {"id": "round_next", "params": {"next": 2}}
    assert tclient.post(path, json={"round": 2}, headers=org(ev)).status_code == 201
    assert tclient.post(path, json={}, headers=org(ev)).status_code == 201
    assert len(tclient.get(f"/api/events/{ev['id']}").get_json()["rounds"]) == 3


@pytest.mark.parametrize("value,status,detail", [("2", 400, "not_whole_number"), (True, 400, "not_whole_number"),
                                                 (1.5, 400, "not_whole_number"), (0, 422, "range"), (101, 422, "range")])
def test_an_odd_round_number_is_refused_naming_it(tclient, value, status, detail):
    ev = new_event(tclient)
    resp = tclient.post(f"/api/events/{ev['id']}/rounds", json={"round": value}, headers=org(ev))
    assert resp.status_code == status
    assert resp.get_json()["error"]["field"] == "round" and resp.get_json()["error"]["detail"]["id"] == detail
    assert tclient.get(f"/api/events/{ev['id']}").get_json()["rounds"] == []


def test_an_event_change_made_on_an_old_version_is_refused_and_changes_nothing(tclient):
    """If-Match on an event write: the version the organiser's phone saw. A stale one (another
    phone's change, or this phone's own tap whose answer was lost) is a 409 saying both versions."""
    ev = new_event(tclient)
    added = tclient.patch(f"/api/events/{ev['id']}", json={"players": NAMES + ["Ivy"]}, headers={**org(ev), "If-Match": '"1"'})
    assert added.status_code == 200 and added.get_json()["version"] == 2
    stale = tclient.patch(f"/api/events/{ev['id']}", json={"players": NAMES + ["Jun"]}, headers={**org(ev), "If-Match": '"1"'})
    assert stale.status_code == 409
    error = stale.get_json()["error"]
    assert error["field"] == "If-Match" and error["detail"] == {"id": "event_changed_since", "params": {"seen": 1, "now": 2}}
    for method, path, body in (("post", "rounds", {}), ("post", "games", {"players": [0, 1, 2, 3]})):
        resp = getattr(tclient, method)(f"/api/events/{ev['id']}/{path}", json=body, headers={**org(ev), "If-Match": '"1"'})
        assert resp.status_code == 409, path
    shown = tclient.get(f"/api/events/{ev['id']}").get_json()
    assert shown["players"] == NAMES + ["Ivy"] and shown["games"] == [] and shown["version"] == 2
    seated = tclient.post(f"/api/events/{ev['id']}/rounds", json={}, headers={**org(ev), "If-Match": '"2"'})
    assert seated.status_code == 201
    game = seated.get_json()["games"][0]["id"]
    put = tclient.put(f"/api/events/{ev['id']}/games/{game}", json={"excluded": True}, headers={**org(ev), "If-Match": '"2"'})
    assert put.status_code == 409
    assert tclient.put(f"/api/events/{ev['id']}/games/{game}", json={"excluded": True}, headers={**org(ev), "If-Match": "nope"}).status_code == 400
