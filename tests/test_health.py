"""/healthz on a damaged SQLite database: not ok (503), however the damage falls."""
from __future__ import annotations

import sqlite3

import pytest

from app import create_app

PLAYERS = {"ruleset": "ema", "players": ["a", "b", "c", "d"]}


def _database_with_hands(path, hands=120):
    """A database file with tables and enough hands to fill many pages, fully checkpointed."""
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{path}", "RATE_LIMITS": {}})
    client = app.test_client()
    for _ in range(3):
        table = client.post("/api/tables", json=PLAYERS).get_json()
        auth = {"Authorization": f"Bearer {table['edit_token']}"}
        for n in range(hands):
            resp = client.post(f"/api/tables/{table['id']}/hands", headers={**auth, "If-Match": f'"{n + 1}"'},
                               json={"result": "abort", "kind": "four_winds",  # a referee's note pads the hand
                                     "penalties": [{"seat": 0, "points": 100, "reason": f"hand {n} " + "x" * 180}]})
            assert resp.status_code == 200
    assert client.get("/healthz").get_json()["checks"]["database"] == "ok"
    app.extensions["database"].dispose()
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        pages = dict(conn.execute("SELECT name, rootpage FROM sqlite_master WHERE type = 'table'").fetchall())
        count = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.close()
    return page_size, pages, count


def _btree_pages(path, page_size) -> list[int]:
    """The b-tree pages (tables and indexes, leaves and interior), read from the file format. Damage
    to the rest (free pages, the middle of a long text) is not something SQLite can see."""
    data = path.read_bytes()
    return [n for n in range(2, len(data) // page_size + 1)
            if data[(n - 1) * page_size] in (0x02, 0x05, 0x0A, 0x0D)
            and n not in _free(data, page_size)]


def _free(data, page_size) -> set[int]:
    free, trunk = set(), int.from_bytes(data[32:36], "big")
    while trunk:
        base = (trunk - 1) * page_size
        free.add(trunk)
        n = int.from_bytes(data[base + 4:base + 8], "big")
        free.update(int.from_bytes(data[base + 8 + 4 * i:base + 12 + 4 * i], "big") for i in range(n))
        trunk = int.from_bytes(data[base:base + 4], "big")
    return free


def _scribble(path, page_size, page):
    with open(path, "r+b") as f:
        f.seek((page - 1) * page_size + 8)
        f.write(b"\xa5" * (page_size - 16))


def _health(path):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{path}"})
    try:
        resp = app.test_client().get("/healthz")
        return resp.status_code, resp.get_json()
    finally:
        app.extensions["database"].dispose()


@pytest.mark.parametrize("where", ["changes root", "a page in the middle", "the last page"])
def test_healthz_is_not_ok_on_a_database_with_corrupted_pages(tmp_path, where):
    path = tmp_path / "tenbou.sqlite3"
    page_size, roots, count = _database_with_hands(path)
    assert count > 20
    pages = _btree_pages(path, page_size)
    page = {"changes root": roots["changes"], "a page in the middle": pages[len(pages) // 2],
            "the last page": pages[-1]}[where]
    assert page not in (1, roots["alembic_version"])  # the app still starts: the damage is in the data
    _scribble(path, page_size, page)
    status, body = _health(path)
    assert status == 503 and body["ok"] is False
    assert body["checks"]["database"] == "corrupt"


def test_the_page_check_is_cached_between_calls(tmp_path, monkeypatch):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"})
    database = app.extensions["database"]
    calls = []
    real = database._integrity_ok.__func__

    def counting(self, conn, every):
        before = self._integrity
        ok = real(self, conn, every)
        calls.append(self._integrity != before)
        return ok

    monkeypatch.setattr(type(database), "_integrity_ok", counting)
    client = app.test_client()
    for _ in range(5):
        assert client.get("/healthz").get_json()["checks"]["database"] == "ok"
    assert calls == [True, False, False, False, False]  # quick_check ran once in five calls
    app.config["INTEGRITY_CHECK_SECONDS"] = 0
    client.get("/healthz")
    assert calls[-1] is True
    database.dispose()
