"""Helpers for tests of the table API through a Flask test client."""
from __future__ import annotations


def new_table(client, ruleset="wrr", **extra):
    resp = client.post("/api/tables", json={"ruleset": ruleset, "players": ["Ann", "Bo", "Cy", "Di"], **extra})
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def auth(table, version=None):
    headers = {"Authorization": f"Bearer {table['edit_token']}"}
    if version is not None:
        headers["If-Match"] = f'"{version}"'
    return headers


def current(client, table_id, headers):
    """``headers`` with If-Match: the table's version now, as a phone that has just read the table
    sends it (a hand write without If-Match is refused with 428)."""
    version = client.get(f"/api/tables/{table_id}").get_json()["version"]
    return {**headers, "If-Match": f'"{version}"'}


def event_current(client, event_id, headers):
    """``headers`` with If-Match: the event's version now, as an organiser's client that has just
    read the event sends it (a game opened without If-Match is refused with 428)."""
    version = client.get(f"/api/events/{event_id}").get_json()["version"]
    return {**headers, "If-Match": f'"{version}"'}


def add_game(client, event, players=(0, 1, 2, 3), **kwargs):
    """``POST /api/events/<id>/games`` as an organiser's client makes it: the organiser token, and
    If-Match on the event's version now."""
    headers = event_current(client, event["id"], {"Authorization": f"Bearer {event['organiser_token']}"})
    return client.post(f"/api/events/{event['id']}/games", json={"players": list(players)}, headers=headers, **kwargs)


def write(client, method, table, path, **kwargs):
    """A write to ``/api/tables/<id><path>`` as the phone makes it: with the table's edit token
    and If-Match on the version it last saw (kept in ``table["version"]``, moved on by each
    accepted write's ETag)."""
    headers = {**auth(table, table["version"]), **kwargs.pop("headers", {})}
    resp = getattr(client, method)(f"/api/tables/{table['id']}{path}", headers=headers, **kwargs)
    if resp.status_code == 200 and resp.headers.get("ETag"):
        table["version"] = int(resp.headers["ETag"].strip('"'))
    return resp
