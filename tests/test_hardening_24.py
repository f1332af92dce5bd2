"""Issue 24, hardening round two: each finding of the second adversarial probe, as a test that
failed before its fix (events, share codes, preview index, storage failures, secrets in caches,
colour profiles of shared photos, photos and bodies in flight)."""
from __future__ import annotations

import io
import json
import os
import sqlite3
import threading

import pytest
from PIL import Image, ImageCms

from api_helpers import add_game, auth, current, new_table
from app import create_app
from photo_helpers import make_photo

PLAYERS = {"ruleset": "wrr", "players": ["a", "b", "c", "d"]}
NAMES = ["Ann", "Ben", "Cat", "Dan"]


def make_app(tmp_path, **config):
    return create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'h.sqlite3'}",
                       "CONTRIBUTIONS_DIR": str(tmp_path / "contributions"), "RATE_LIMIT_STRATEGY": "moving-window",
                       **config})


def new_event(client, **extra):
    resp = client.post("/api/events", json={"name": "Club night", "ruleset": "wrr", "players": NAMES, **extra})
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def org(ev):
    return {"Authorization": f"Bearer {ev['organiser_token']}"}


def codes(client, n, method, path, addr="192.0.2.1", **kw):
    return [client.open(path, method=method, environ_base={"REMOTE_ADDR": addr}, **kw).status_code for _ in range(n)]


# --- events -----------------------------------------------------------------------------------

def test_a_tables_token_cannot_chain_counted_games_into_an_event(tclient):
    ev = new_event(tclient)
    g = add_game(tclient, ev).get_json()["new_games"][0]
    mine = {"Authorization": f"Bearer {g['edit_token']}"}
    assert tclient.post(f"/api/tables/{g['id']}/hands", json={"result": "end"}, headers=current(tclient, g['id'], mine)).status_code == 200
    resp = tclient.post(f"/api/tables/{g['id']}/next", headers=mine)
    assert resp.status_code == 403 and resp.get_json()["error"]["field"] == "Authorization"
    assert len(tclient.get(f"/api/events/{ev['id']}").get_json()["games"]) == 1   # nothing was added
    assert tclient.post(f"/api/tables/{g['id']}/next", headers=org(ev)).status_code == 201


def test_an_event_holds_at_most_max_event_games(tmp_path):
    client = make_app(tmp_path, MAX_EVENT_GAMES=3).test_client()
    ev = new_event(client)
    add = [add_game(client, ev) for _ in range(4)]
    assert [r.status_code for r in add] == [201, 201, 201, 422]
    assert add[3].get_json()["error"]["field"] == "games" and "3" in add[3].get_json()["error"]["message"]
    # a round that would go past the cap is refused whole; so is a next game
    assert client.post(f"/api/events/{ev['id']}/rounds", json={}, headers=org(ev)).status_code == 422
    g = add[0].get_json()["new_games"][0]
    client.post(f"/api/tables/{g['id']}/hands", json={"result": "end"}, headers=current(client, g['id'], org(ev)))
    assert client.post(f"/api/tables/{g['id']}/next", headers=org(ev)).status_code == 422
    assert len(client.get(f"/api/events/{ev['id']}").get_json()["games"]) == 3


def test_max_event_games_comes_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("TENBOU_MAX_EVENT_GAMES", "7")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'env.sqlite3'}")
    app = create_app()
    try:
        assert app.extensions["tables"].max_event_games == 7
    finally:
        app.extensions["database"].dispose()


def test_event_creation_and_games_are_rate_limited(tmp_path):
    client = make_app(tmp_path, RATE_LIMITS={"event_create": "2 per minute", "table_create": "3 per minute"}).test_client()
    body = {"name": "x", "players": NAMES}
    assert codes(client, 3, "POST", "/api/events", json=body) == [201, 201, 429]
    ev = client.post("/api/events", json=body, environ_base={"REMOTE_ADDR": "192.0.2.2"}).get_json()
    # adding games makes tables: one bucket with table creation
    assert codes(client, 1, "POST", "/api/tables", addr="192.0.2.2", json=PLAYERS) == [201]
    got = [add_game(client, ev, environ_base={"REMOTE_ADDR": "192.0.2.2"}).status_code for _ in range(3)]
    assert got == [201, 201, 429]


REDIS_URL = os.environ.get("TEST_REDIS_URL")
STORES = ["memory://", pytest.param(REDIS_URL, id="redis", marks=pytest.mark.skipif(
    not REDIS_URL, reason="needs Redis: run through ./scripts/with-redis"))]


@pytest.mark.parametrize("store", STORES)
@pytest.mark.parametrize("kind", ["tables", "events"])
def test_wrong_codes_never_lock_an_address_out_of_its_real_tables(tmp_path, kind, store):
    import uuid

    client = make_app(tmp_path, RATE_LIMITS={"table_miss": "3 per minute"}, RATE_LIMIT_STORAGE=store,
                      RATE_LIMIT_PREFIX=f"t24-{uuid.uuid4().hex}").test_client()
    real = client.post("/api/tables", json=PLAYERS).get_json() if kind == "tables" else new_event(client)
    assert codes(client, 5, "GET", f"/api/{kind}/ZZZZZZZZ") == [404, 404, 404, 429, 429]
    resp = client.get(f"/api/{kind}/ZZZZZZZZ", environ_base={"REMOTE_ADDR": "192.0.2.1"})
    assert resp.status_code == 429 and int(resp.headers["Retry-After"]) >= 1
    wait = int(resp.headers["Retry-After"])
    assert resp.get_json()["error"]["detail"] == {"id": "codes_rate_limited", "params": {"seconds": wait}}
    # the phone next to the guesser (same address) follows its real table all the same
    assert codes(client, 3, "GET", f"/api/{kind}/{real['share_code']}") == [200] * 3
    assert codes(client, 1, "GET", f"/api/{kind}/ZZZZZZZZ", addr="192.0.2.7") == [404]   # others are not counted


# --- preview index ----------------------------------------------------------------------------

@pytest.mark.parametrize("raw", ["²", "①", "٣", "1²", "9999999999"])
def test_a_preview_index_that_is_not_ascii_digits_is_a_400_naming_it(client, raw):
    t = new_table(client)
    resp = client.post(f"/api/tables/{t['id']}/preview", query_string={"index": raw}, json={"result": "draw"}, headers=auth(t))
    assert resp.status_code == 400 and resp.get_json()["error"]["field"] == "index"


# --- storage failures -------------------------------------------------------------------------

def _break_sqlite(path):
    """Overwrite every page but the first of the database file with garbage."""
    size = os.path.getsize(path)
    with open(path, "r+b") as f:
        f.seek(4096)
        f.write(os.urandom(max(0, size - 4096)) or b"\xff" * 4096)


def test_a_corrupt_sqlite_file_answers_503_everywhere_and_health_says_so(tmp_path):
    app = make_app(tmp_path, INTEGRITY_CHECK_SECONDS=0)
    client = app.test_client()
    tables = [client.post("/api/tables", json=PLAYERS).get_json() for _ in range(20)]
    app.extensions["database"].dispose()
    db = tmp_path / "h.sqlite3"
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    _break_sqlite(db)
    read = client.get(f"/api/tables/{tables[5]['id']}")
    create = client.post("/api/tables", json=PLAYERS)
    write = client.post(f"/api/tables/{tables[5]['id']}/hands", json={"result": "end"}, headers=auth(tables[5], 1))
    for resp in (read, create, write):
        assert resp.status_code == 503, (resp.status_code, resp.get_data(as_text=True)[:200])
        assert int(resp.headers["Retry-After"]) >= 1
        assert resp.get_json()["error"]["detail"] == {"id": "storage_unavailable", "params": {}}
    health = client.get("/healthz")
    assert health.status_code == 503 and health.get_json()["checks"]["database"] != "ok"


def test_a_full_disk_answers_503_and_health_reports_it(tmp_path, monkeypatch):
    from sqlalchemy.exc import OperationalError

    app = make_app(tmp_path)
    client = app.test_client()
    t = new_table(client)
    db = app.extensions["database"]
    real = db.append_change

    def full(*args, **kw):
        raise OperationalError("INSERT", {}, sqlite3.OperationalError("database or disk is full"))

    monkeypatch.setattr(db, "append_change", full)
    resp = client.post(f"/api/tables/{t['id']}/hands", json={"result": "end"}, headers=auth(t, 1))
    assert resp.status_code == 503 and resp.headers["Retry-After"]
    assert resp.get_json()["error"]["detail"]["id"] == "storage_unavailable"
    health = client.get("/healthz")
    assert health.status_code == 503 and health.get_json()["checks"]["database"] == "writes failing"
    monkeypatch.setattr(db, "append_change", real)   # the disk has room again: the next write clears it
    assert client.post(f"/api/tables/{t['id']}/hands", json={"result": "end"}, headers=auth(t, 1)).status_code == 200
    assert client.get("/healthz").get_json()["checks"]["database"] == "ok"


def test_postgres_down_is_a_503_with_retry_after(tmp_path):
    from server_helpers import free_port

    app = make_app(tmp_path)
    client = app.test_client()
    t = new_table(client)
    from storage.db import make_engine

    db = app.extensions["database"]
    db.engine.dispose()
    # the same app, its database now unreachable (a server that is down)
    db.engine = make_engine(f"postgresql+psycopg://tenbou@127.0.0.1:{free_port()}/tenbou?connect_timeout=2")
    for resp in (client.get(f"/api/tables/{t['id']}"), client.post("/api/tables", json=PLAYERS)):
        assert resp.status_code == 503 and int(resp.headers["Retry-After"]) >= 1, resp.get_data(as_text=True)[:300]
        assert resp.get_json()["error"]["detail"]["id"] == "storage_unavailable"


# --- secrets are never cached -----------------------------------------------------------------

def test_every_response_with_a_secret_token_says_no_store(client):
    t = client.post("/api/tables", json=PLAYERS)
    assert "edit_token" in t.get_json() and t.headers["Cache-Control"] == "no-store"
    ev = client.post("/api/events", json={"name": "x", "players": NAMES})
    assert "organiser_token" in ev.get_json() and ev.headers["Cache-Control"] == "no-store"
    ev = ev.get_json()
    game = add_game(client, ev)
    assert "edit_token" in game.get_json()["new_games"][0] and game.headers["Cache-Control"] == "no-store"
    rnd = client.post(f"/api/events/{ev['id']}/rounds", json={}, headers=org(ev))
    assert "edit_token" in rnd.get_json()["new_games"][0] and rnd.headers["Cache-Control"] == "no-store"
    photo = make_photo()
    labels = json.dumps({"boxes": [{"tile": "1m", "box": [10, 20, 50, 80]}]})
    shared = client.post("/api/contributions", data={"image": (io.BytesIO(photo), "p.jpg"), "labels": labels},
                         content_type="multipart/form-data")
    assert shared.status_code == 201 and "delete_token" in shared.get_json()
    assert shared.headers["Cache-Control"] == "no-store"


# --- colour profiles of shared photos ---------------------------------------------------------

def _jpeg_with_profile(icc: bytes) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (64, 48), (200, 120, 40)).save(out, "JPEG", quality=95, icc_profile=icc)
    return out.getvalue()


@pytest.mark.parametrize("icc", [
    b"free text, not a profile " * 2600,                                        # 66 KB of anything
    ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes(),         # a real one
])
def test_a_shared_photo_keeps_no_colour_profile(icc):
    from recognition.contributions import clean_photo

    data = _jpeg_with_profile(icc)
    assert Image.open(io.BytesIO(data)).info.get("icc_profile") == icc
    jpeg, w, h = clean_photo(data)
    out = Image.open(io.BytesIO(jpeg))
    assert "icc_profile" not in out.info and icc[:20] not in jpeg
    r, g, b = out.convert("RGB").getpixel((30, 20))
    assert abs(r - 200) < 8 and abs(g - 120) < 8 and abs(b - 40) < 8   # sRGB to sRGB: the colour is kept


def test_a_photo_in_another_colour_space_is_converted_to_srgb():
    from recognition.contributions import clean_photo

    lab_to_rgb_is_no_rgb_profile = ImageCms.ImageCmsProfile(ImageCms.createProfile("LAB")).tobytes()
    jpeg, _, _ = clean_photo(_jpeg_with_profile(lab_to_rgb_is_no_rgb_profile))
    assert "icc_profile" not in Image.open(io.BytesIO(jpeg)).info   # unusable for RGB: dropped, pixels kept


# --- photos in flight -------------------------------------------------------------------------

@pytest.mark.parametrize("store", [None, STORES[1]])
def test_photo_slots_per_client_and_per_worker(store):
    import uuid

    from web.bodies import PhotoSlots

    slots = PhotoSlots(per_worker=2, per_client=1, redis_url=store, prefix=f"t24-{uuid.uuid4().hex}")
    if store:   # another worker process, sharing the count through Redis
        other = PhotoSlots(per_worker=2, per_client=1, redis_url=store, prefix=slots._prefix)
        with other.slot("a") as elsewhere:
            assert elsewhere
            with slots.slot("a") as here:
                assert not here      # one photo per client across workers
    with slots.slot("a") as a1:
        assert a1
        with slots.slot("a") as a2:
            assert not a2            # one photo at a time per client
        with slots.slot("b") as b1, slots.slot("c") as c1:
            assert b1 and not c1     # two per worker
    with slots.slot("a") as again:
        assert again                 # released


def test_a_second_photo_from_the_same_client_waits_with_429(tmp_path, monkeypatch):
    app = make_app(tmp_path)
    client = app.test_client()
    entered, release = threading.Event(), threading.Event()
    from recognition import contributions

    real = contributions.clean_photo

    def slow(data, limits):
        entered.set()
        release.wait(10)
        return real(data, limits)

    monkeypatch.setattr(contributions, "clean_photo", slow)
    labels = json.dumps({"boxes": [{"tile": "1m", "box": [10, 20, 50, 80]}]})

    def post(addr):
        return app.test_client().post("/api/contributions", data={"image": (io.BytesIO(make_photo()), "p.jpg"), "labels": labels},
                                      content_type="multipart/form-data", environ_base={"REMOTE_ADDR": addr})
    first: list = []
    th = threading.Thread(target=lambda: first.append(post("192.0.2.1")))
    th.start()
    assert entered.wait(10)
    second = post("192.0.2.1")
    release.set()
    th.join(10)
    assert second.status_code == 429 and second.get_json()["error"]["field"] == "image" and second.headers["Retry-After"]
    assert second.get_json()["error"]["detail"] == {"id": "photo_busy", "params": {"seconds": int(second.headers["Retry-After"])}}
    assert first[0].status_code == 201
    assert client is not None


# --- slow bodies under gunicorn ---------------------------------------------------------------

def _gunicorn(tmp_path, **env):
    import subprocess
    import sys
    import time
    import urllib.error

    from server_helpers import ROOT, call, clean_env, free_port

    port = free_port()
    settings = clean_env(BIND=f"127.0.0.1:{port}", WEB_CONCURRENCY="1", THREADS="4", ACCESS_LOG="/dev/null",
                         DATABASE_URL=f"sqlite:///{tmp_path / 'g.sqlite3'}", **env)
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "app:create_app()"], cwd=ROOT,
                            env=settings, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        try:
            call(base, "GET", "/api/rulesets", timeout=2)
            return proc, port
        except (urllib.error.URLError, ConnectionError, OSError):
            assert proc.poll() is None and time.monotonic() < deadline, "gunicorn did not start"
            time.sleep(0.2)


def _slow_upload(port: int):
    """Headers of a 200 KB JSON body, then nothing more yet."""
    import socket

    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    s.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200000\r\n\r\n{")
    return s


def _status(sock) -> int:
    head = b""
    while b"\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            return 0
        head += chunk
    return int(head.split(b" ", 2)[1])


def test_slow_uploads_cannot_hold_every_worker_thread(tmp_path):
    import time

    from server_helpers import call

    proc, port = _gunicorn(tmp_path, TENBOU_BODY_SECONDS="20")
    socks = []
    try:
        socks = [_slow_upload(port) for _ in range(16)]   # one address, 16 trickled uploads, 4 threads
        time.sleep(1)
        # at most two bodies per address are read at once: the others are refused at once, unread
        # (which two are read is the server's choice: it accepts connections in its own order)
        answers = []
        for s in socks:
            s.settimeout(2)
            try:
                answers.append(_status(s))
            except TimeoutError:
                answers.append(None)   # still being read: one of the two admitted
        assert sorted(answers, key=str) == [429] * 14 + [None] * 2, answers
        # and another client (any request) is served while the two slow ones are still trickling
        code, _ = call(f"http://127.0.0.1:{port}", "GET", "/api/rulesets", timeout=10)
        assert code == 200
    finally:
        for s in socks:
            s.close()
        proc.terminate()
        proc.wait(30)


def test_a_body_that_does_not_arrive_in_time_is_a_408(tmp_path):
    import time

    proc, port = _gunicorn(tmp_path, TENBOU_BODY_SECONDS="2", TENBOU_BODY_MIN_RATE="10000000")
    s = _slow_upload(port)
    try:
        s.settimeout(15)
        got = None
        for _ in range(10):      # one byte a second: the deadline (about 2 s) passes first
            time.sleep(1)
            try:
                s.sendall(b" ")
            except OSError:
                break
        got = _status(s)
        assert got == 408, got
    finally:
        s.close()
        proc.terminate()
        proc.wait(30)
