"""Rate limits per client (web/limits.py): which calls are limited, who the client is, and one count
shared by every process when the store is Redis."""
from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.error
import uuid

import pytest

from app import create_app
from server_helpers import ROOT, call, free_port

REDIS_URL = os.environ.get("TEST_REDIS_URL")
PLAYERS = {"ruleset": "wrr", "players": ["a", "b", "c", "d"]}


# The tests count hits exactly, so they use the exact strategy (the default one may let one more
# request in when a test happens to straddle a window boundary).
EXACT = "moving-window"


def make_app(tmp_path, **config):
    return create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'limits.sqlite3'}",
                       "RATE_LIMIT_STRATEGY": EXACT, **config})


def codes(client, n, method, path, addr="192.0.2.1", **kw):
    return [client.open(path, method=method, environ_base={"REMOTE_ADDR": addr}, **kw).status_code for _ in range(n)]


def test_recognize_is_limited_per_client_with_a_json_error(tmp_path):
    app = make_app(tmp_path, RATE_LIMITS={"recognize": "2 per minute"})
    client = app.test_client()
    got = codes(client, 3, "POST", "/api/recognize", data={}, content_type="multipart/form-data")
    assert got == [400, 400, 429]  # no image field: refused, but counted
    resp = client.post("/api/recognize", data={}, content_type="multipart/form-data",
                       environ_base={"REMOTE_ADDR": "192.0.2.1"})
    assert resp.status_code == 429
    assert 1 <= int(resp.headers["Retry-After"]) <= 60
    error = resp.get_json()["error"]
    assert error["retry_after"] == int(resp.headers["Retry-After"])
    assert error["detail"] == {"id": "rate_limited", "params": {"seconds": error["retry_after"]}}
    assert error["message"] == f"Too many requests from this phone. Try again in {error['retry_after']} s."
    # another phone is not held up
    assert codes(client, 1, "POST", "/api/recognize", addr="192.0.2.2", data={}, content_type="multipart/form-data") == [400]


def test_table_creation_is_limited_per_client(tmp_path):
    client = make_app(tmp_path, RATE_LIMITS={"table_create": "3 per minute"}).test_client()
    assert codes(client, 4, "POST", "/api/tables", json=PLAYERS) == [201, 201, 201, 429]
    assert codes(client, 1, "POST", "/api/tables", addr="192.0.2.9", json=PLAYERS) == [201]


def test_table_reads_are_limited_and_guessing_codes_much_more(tmp_path):
    client = make_app(tmp_path, RATE_LIMITS={"table_read": "6 per minute", "table_miss": "2 per minute"}).test_client()
    table = client.post("/api/tables", json=PLAYERS).get_json()
    # wrong codes: two misses, then this client's misses are refused for a while; its real table is
    # still read (only misses are limited: a guesser cannot lock the phones behind its address out)
    assert codes(client, 3, "GET", "/api/tables/ZZZZZZ", addr="192.0.2.5") == [404, 404, 429]
    assert codes(client, 1, "GET", f"/api/tables/{table['share_code']}", addr="192.0.2.5") == [200]
    # an honest phone reads its own table (reads and exports share one bucket)
    assert codes(client, 3, "GET", f"/api/tables/{table['share_code']}", addr="192.0.2.6") == [200] * 3
    assert codes(client, 3, "GET", f"/api/tables/{table['id']}/export", addr="192.0.2.6") == [200] * 3
    assert codes(client, 1, "GET", f"/api/tables/{table['share_code']}", addr="192.0.2.6") == [429]


def test_an_empty_limit_turns_it_off(tmp_path):
    client = make_app(tmp_path, RATE_LIMITS={"table_create": ""}).test_client()
    assert set(codes(client, 40, "POST", "/api/tables", json=PLAYERS)) == {201}


def test_x_forwarded_for_is_ignored_without_the_proxy_setting(tmp_path):
    client = make_app(tmp_path, RATE_LIMITS={"table_create": "2 per minute"}).test_client()
    got = [client.post("/api/tables", json=PLAYERS, headers={"X-Forwarded-For": f"198.51.100.{n}"},
                       environ_base={"REMOTE_ADDR": "192.0.2.1"}).status_code for n in range(4)]
    assert got == [201, 201, 429, 429]  # a client cannot choose a fresh bucket per request


def test_x_forwarded_for_is_believed_from_a_trusted_proxy_only(tmp_path):
    client = make_app(tmp_path, RATE_LIMITS={"table_create": "2 per minute"},
                      TRUSTED_PROXIES="127.0.0.1, 10.1.0.0/16").test_client()

    def post(peer, forwarded):
        return client.post("/api/tables", json=PLAYERS, headers={"X-Forwarded-For": forwarded},
                           environ_base={"REMOTE_ADDR": peer}).status_code

    # behind the proxy, each phone has its own bucket
    assert [post("127.0.0.1", "198.51.100.1") for _ in range(3)] == [201, 201, 429]
    assert [post("10.1.2.3", "198.51.100.2") for _ in range(2)] == [201, 201]
    # the proxy appends the real peer: what the client wrote before it is not believed
    assert post("127.0.0.1", "6.6.6.6, 198.51.100.1") == 429
    # a machine that is not a trusted proxy is counted as itself, whatever it says
    assert [post("192.0.2.77", f"198.51.100.{n}") for n in range(10, 13)] == [201, 201, 429]


SERVER = """
import sys
from werkzeug.serving import make_server
sys.path.insert(0, {root!r})
from app import create_app
app = create_app({{"DATABASE_URL": {url!r}, "RATE_LIMIT_STORAGE": {store!r}, "RATE_LIMIT_PREFIX": {prefix!r},
                  "RATE_LIMIT_STRATEGY": "moving-window",
                  "RATE_LIMITS": {{"table_create": "5 per minute"}}}})
make_server("127.0.0.1", {port}, app, threaded=True).serve_forever()
"""


def _two_processes(tmp_path, store):
    """Two app processes on one database and one limit store; how many creations get through."""
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    prefix = f"test-{uuid.uuid4().hex}"
    procs, bases, logs = [], [], []
    try:
        ports: list[int] = []
        while len(ports) < 2:   # two free ports, not the same one twice (nothing holds the first yet)
            port = free_port()
            if port not in ports:
                ports.append(port)
        # started one after the other: two first starts at once on a fresh SQLite file can meet
        # "database is locked" on the switch to WAL (a known gap, not what this test is about)
        for n, port in enumerate(ports):
            logs.append(open(tmp_path / f"server{n}.log", "w"))
            proc = subprocess.Popen(
                [sys.executable, "-c", SERVER.format(root=str(ROOT), url=url, store=store, prefix=prefix, port=port)],
                stdout=subprocess.DEVNULL, stderr=logs[-1])
            procs.append(proc)
            base = f"http://127.0.0.1:{port}"
            bases.append(base)
            deadline = time.monotonic() + 120  # a busy 2-core machine can take a while to import the app
            while True:
                try:
                    call(base, "GET", "/api/rulesets", timeout=2)
                    break
                except (urllib.error.URLError, ConnectionError, OSError):
                    assert proc.poll() is None, (f"the app process on {base} exited with {proc.returncode}: "
                                                 + (tmp_path / f"server{n}.log").read_text()[-2000:])
                    assert time.monotonic() < deadline, f"the app process on {base} did not answer within 120 s"
                    time.sleep(0.1)
        results = [call(bases[n % 2], "POST", "/api/tables", PLAYERS)[0] for n in range(12)]
    finally:
        for log in logs:
            log.close()
        for proc in procs:
            proc.kill()
            proc.wait()
    return results


@pytest.mark.skipif(not REDIS_URL and not os.environ.get("REQUIRE_REDIS"),
                    reason="needs Redis: run through ./scripts/with-redis (CI does)")
def test_processes_sharing_redis_count_a_client_once(tmp_path):
    assert REDIS_URL, "REQUIRE_REDIS is set but TEST_REDIS_URL is not"
    results = _two_processes(tmp_path, REDIS_URL)
    assert results.count(201) == 5 and results.count(429) == 7, results


def test_processes_with_memory_stores_count_alone(tmp_path):
    """What the shared store is for: with one store each, a client gets the limit once per process."""
    results = _two_processes(tmp_path, "memory://")
    assert results.count(201) == 10, results


def test_a_limit_store_that_is_down_never_turns_requests_away(tmp_path):
    """Redis unreachable: the app keeps answering (and counts in its own process meanwhile)."""
    app = make_app(tmp_path, RATE_LIMIT_STORAGE=f"redis://127.0.0.1:{free_port()}/0",
                   RATE_LIMITS={"table_create": "3 per minute"})
    client = app.test_client()
    got = codes(client, 5, "POST", "/api/tables", json=PLAYERS)
    assert 500 not in got and got[0] == 201, got
    assert got[3:] == [429, 429], got
