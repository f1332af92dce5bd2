"""Stateless app processes over one PostgreSQL: hands recorded through two servers are all there, once."""
import os
import threading

import pytest

from server_helpers import PG_URL, call, free_port, start_server

if not PG_URL:
    if os.environ.get("REQUIRE_POSTGRES"):
        raise RuntimeError("REQUIRE_POSTGRES is set but TEST_DATABASE_URL is not")
    pytest.skip("needs PostgreSQL: run through ./scripts/with-postgres (CI does)", allow_module_level=True)


def test_two_processes_record_on_one_table_without_losing_or_doubling():
    servers = [start_server(PG_URL, free_port()) for _ in range(2)]
    try:
        (proc_a, a), (proc_b, b) = servers
        status, table = call(a, "POST", "/api/tables", {"ruleset": "ema", "players": ["a", "b", "c", "d"]})
        assert status == 201
        auth = {"Authorization": f"Bearer {table['edit_token']}"}
        per_client = 12
        conflicts = {a: 0, b: 0}

        def client(base, name):
            for n in range(per_client):
                while True:  # what a phone does: read, record against that version, retry on 409
                    _, current = call(base, "GET", f"/api/tables/{table['id']}")
                    hand = {"result": "abort", "kind": "four_winds",  # a referee's note tells the hands apart
                            "penalties": [{"seat": 0, "points": 100, "reason": f"{name}-{n}"}]}
                    code, body = call(base, "POST", f"/api/tables/{table['id']}/hands", hand,
                                      {**auth, "If-Match": f'"{current["version"]}"'})
                    if code == 200:
                        break
                    assert code == 409, body
                    conflicts[base] += 1

        threads = [threading.Thread(target=client, args=(base, name)) for base, name in ((a, "A"), (b, "B"))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        _, from_a = call(a, "GET", f"/api/tables/{table['id']}")
        _, from_b = call(b, "GET", f"/api/tables/{table['id']}")
        assert from_a == from_b
        notes = [h["penalties"][0]["reason"] for h in from_a["hands"]]
        assert sorted(notes) == sorted(f"{c}-{n}" for c in "AB" for n in range(per_client))
        assert from_a["version"] == 1 + 2 * per_client
        assert from_a["state"]["honba"] == 2 * per_client
    finally:
        for proc, _ in servers:
            proc.kill()
            proc.wait()
