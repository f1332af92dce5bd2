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
