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
