"""Record the examples of the OpenAPI document (web/openapi_examples.json) from real calls:

    .venv/bin/python -m web.openapi_record

A maintenance command kept apart from web/openapi.py: it builds the app (``app.create_app``), and
the app imports web/openapi.py, so the recorder living there made an import cycle. Nothing in the
app imports this module; tests/test_openapi.py replays the calls to check the recorded file.
"""
from __future__ import annotations

import json
from typing import Any

from flask import Flask

from web.openapi import EXAMPLES_FILE

EXAMPLE_CALLS = {
    "score": ("POST", "/api/score", {"ruleset": "wrr", "hand": "234m067p345s11z555z", "win_tile": "5z", "win": "ron",
                                     "seat_wind": "south", "round_wind": "east", "riichi": True,
                                     "dora_indicators": "1z", "ura_indicators": "4m", "honba": 1, "riichi_sticks": 1}),
    "waits": ("POST", "/api/waits", {"ruleset": "tenhou", "hand": "23456m345p11z567s", "seat_wind": "south", "riichi": True}),
    "create_table": ("POST", "/api/tables", {"ruleset": "tenhou", "players": ["Aki", "Bun", "Chie", "Dai"]}),
    "record_hand": ("POST", "/api/tables/{id}/hands", {"result": "ron", "from_seat": 1, "riichi": [2],
                                                       "winners": [{"seat": 2, "value": {"han": 3, "fu": 40}, "pao_seat": None}]}),
}


def record_examples(app: Flask) -> dict[str, Any]:
    """Make the example calls against ``app`` and return request/response pairs."""
    client = app.test_client()
    out: dict[str, Any] = {}
    table: dict[str, Any] = {}  # the table create_table made, for the calls on it
    for key, (method, path, body) in EXAMPLE_CALLS.items():
        headers: dict[str, str] = {}
        if "{id}" in path:
            path = path.replace("{id}", table["id"])
            headers = {"Authorization": f"Bearer {table['edit_token']}", "If-Match": '"1"'}
        resp = client.open(path, method=method, json=body, headers=headers)
        assert resp.status_code in (200, 201), (key, resp.get_json())
        out[key] = {"request": body, "response": resp.get_json()}
        if key == "create_table":
            table = resp.get_json()
    return out


def main() -> None:  # pragma: no cover - a maintenance command
    import tempfile

    from app import create_app

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE_URL": f"sqlite:///{tmp}/examples.sqlite3"})
        EXAMPLES_FILE.write_text(json.dumps(record_examples(app), indent=1) + "\n")
    print(f"wrote {EXAMPLES_FILE}")


if __name__ == "__main__":  # pragma: no cover
    main()
