"""Phones on an event page poll it every 5 s: they get a 304 when nothing changed, and only what
changed otherwise, so a poll after one hand stays small at 200 tables. The event is built through
the API, like an organiser's phone builds it."""
from __future__ import annotations

import json

import pytest

from api_helpers import add_game, current


def edit(client, game: dict) -> dict:
    """A game's edit token and If-Match on its table's version now."""
    return current(client, game["id"], {"Authorization": f"Bearer {game['edit_token']}"})


PLAYERS = [f"Player {i:03d}" for i in range(200)]


def org(ev):
    return {"Authorization": f"Bearer {ev['organiser_token']}"}


def apply_changes(doc: dict, delta: dict) -> dict:
    """What static/js/events/model.js applyChanges does, to check the server's deltas against."""
    out = {**doc, **delta.get("set", {})}
    for name, change in delta.get("lists", {}).items():
        items = list(doc.get(name) or [])[:change["length"]]
        for i, value in sorted(change["items"].items(), key=lambda kv: int(kv[0])):
            i = int(i)
            if i < len(items):
                items[i] = value
            else:
                assert i == len(items), "list entries past the end come in order"
                items.append(value)
        out[name] = items
    out["tag"] = delta["tag"]
    return out


def poll(client, ev_id, since):
    return client.get(f"/api/events/{ev_id}/changes?since={since}")


@pytest.fixture(scope="module")
def big_event(tmp_path_factory):
    """An event of 200 players and four drawn rounds: 200 tables."""
    from app import create_app

    path = tmp_path_factory.mktemp("polling") / "events.sqlite3"
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{path}"})
    client = app.test_client()
    resp = client.post("/api/events", json={"name": "Marathon", "ruleset": "wrr", "players": PLAYERS,
                                            "settings": {"rounds_planned": 4}})
    assert resp.status_code == 201
    ev = resp.get_json()
    games = []
    for _ in range(4):
        drawn = client.post(f"/api/events/{ev['id']}/rounds", json={}, headers=org(ev))
        assert drawn.status_code == 201, drawn.get_json()
        games += drawn.get_json()["new_games"]
    yield app, client, ev, games
    app.extensions["database"].dispose()


def test_a_poll_after_one_hand_at_200_tables_sends_only_that_table(big_event):
    _, client, ev, games = big_event
    full = client.get(f"/api/events/{ev['id']}")
    doc = full.get_json()
    assert len(doc["games"]) == 200 and full.headers["ETag"] == f'"{doc["tag"]}"'
    assert len(full.get_data()) > 200_000  # what every phone used to fetch after each hand

    nothing = poll(client, ev["id"], doc["tag"])
    assert nothing.status_code == 304 and nothing.headers["ETag"] == f'"{doc["tag"]}"' and not nothing.get_data()

    g = games[137]
    hand = {"result": "ron", "from_seat": 2, "winners": [{"seat": 0, "value": {"han": 3, "fu": 30}}], "riichi": [0]}
    assert client.post(f"/api/tables/{g['id']}/hands", json=hand, headers=edit(client, g)).status_code == 200
    resp = poll(client, ev["id"], doc["tag"])
    assert resp.status_code == 200
    assert len(resp.get_data()) < 50_000
    delta = resp.get_json()
    now = client.get(f"/api/events/{ev['id']}").get_json()
    assert delta["tag"] == now["tag"] != doc["tag"] and resp.headers["ETag"] == f'"{now["tag"]}"'
    assert apply_changes(doc, delta) == now
    # only that game's entry, and the statistics of the four players at it
    changed = [now["games"][int(i)]["id"] for i in delta["lists"]["games"]["items"]]
    assert changed == [g["id"]] and now["games"][int(next(iter(delta["lists"]["games"]["items"])))]["hands_played"] == 1
    entrants = {p for p in next(x for x in now["games"] if x["id"] == g["id"])["entrants"] if p is not None}
    assert {int(i) for i in delta["lists"]["stats"]["items"]} == entrants
    assert poll(client, ev["id"], now["tag"]).status_code == 304


def test_finished_games_excluded_games_and_new_games_arrive_as_changes(big_event):
    _, client, ev, games = big_event
    # a few hands with riichi, tsumo and draws, so the statistics have something to add up
    for n, g in enumerate(games[10:16]):
        for hand in ({"result": "tsumo", "winner": {"seat": n % 4, "value": {"han": 2, "fu": 30}}, "riichi": [n % 4]},
                     {"result": "draw", "tenpai": [0, 2]}):
            assert client.post(f"/api/tables/{g['id']}/hands", json=hand, headers=edit(client, g)).status_code == 200
    doc = client.get(f"/api/events/{ev['id']}").get_json()
    start = doc
    # two games end (the standings and their progress change), one is excluded, one more game is added
    for g in games[:2]:
        ended = client.post(f"/api/tables/{g['id']}/hands", json={"result": "end"}, headers=edit(client, g))
        assert ended.status_code == 200 and ended.get_json()["state"]["finished"]
        delta = poll(client, ev["id"], doc["tag"]).get_json()
        new = client.get(f"/api/events/{ev['id']}").get_json()
        assert apply_changes(doc, delta) == new
        doc = new
    assert [r for r in doc["standings"] if r["games"]] and len(doc["progress"]) == 2
    assert client.put(f"/api/events/{ev['id']}/games/{games[0]['id']}", json={"excluded": True}, headers=org(ev)).status_code == 200
    added = add_game(client, ev, [0, 1, 2, None])
    assert added.status_code == 201
    now = client.get(f"/api/events/{ev['id']}").get_json()
    assert len(now["games"]) == 201
    # a phone that slept through all of it catches up in one poll, from the tag it held
    delta = poll(client, ev["id"], start["tag"]).get_json()
    assert "full" not in delta and apply_changes(start, delta) == now
    assert delta["lists"]["games"]["length"] == 201 and "200" in delta["lists"]["games"]["items"]
    # what the cache kept (decoded tables, each game's figures and counts) adds up to the event worked out afresh
    app = client.application
    app.extensions["events"]._cache.clear()
    assert client.get(f"/api/events/{ev['id']}").get_json() == now


def test_an_unknown_tag_gets_the_whole_document_and_bad_requests_are_named(big_event):
    _, client, ev, _ = big_event
    now = client.get(f"/api/events/{ev['id']}")
    resp = poll(client, ev["id"], "999.9.9")  # never a tag of this event
    body = resp.get_json()
    assert resp.status_code == 200 and body["tag"] == now.get_json()["tag"]
    assert json.dumps(body["full"], sort_keys=True) == json.dumps(now.get_json(), sort_keys=True)
    missing = client.get(f"/api/events/{ev['id']}/changes")
    assert missing.status_code == 400 and missing.get_json()["error"]["field"] == "since"
    nowhere = poll(client, "nosuchevent", "1.0.0")
    assert nowhere.status_code == 404 and nowhere.get_json()["error"]["field"] == "id"
