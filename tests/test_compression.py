"""The default serve compresses HTML, JavaScript, CSS and JSON (web/compression.py, Flask-Compress)
and leaves what a client relies on as it was: the table's ETag is its version, 304s stay empty,
the bytes decode to exactly the uncompressed response."""
from __future__ import annotations

import gzip

import brotli
import pytest

from api_helpers import auth, new_table, write
from app import create_app


@pytest.fixture
def client(tmp_path):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 't.sqlite3'}"})
    yield app.test_client()
    app.extensions["database"].dispose()


@pytest.mark.parametrize("path", ["/", "/static/js/tables/tables.js", "/static/app.css", "/api/rulesets"])
def test_pages_scripts_styles_and_json_come_compressed(client, path):
    with client.get(path) as plain:
        assert plain.status_code == 200 and "Content-Encoding" not in plain.headers
        body = plain.get_data()
    for encoding, decode in (("br", brotli.decompress), ("gzip", gzip.decompress)):
        with client.get(path, headers={"Accept-Encoding": f"{encoding}"}) as resp:
            assert resp.status_code == 200 and resp.headers["Content-Encoding"] == encoding
            assert "Accept-Encoding" in resp.headers["Vary"]
            assert decode(resp.get_data()) == body
            assert len(resp.get_data()) < len(body) / 2
            assert int(resp.headers["Content-Length"]) == len(resp.get_data())


def test_a_compressed_table_keeps_its_version_etag_for_if_match_and_if_none_match(client):
    t = new_table(client)
    for _ in range(4):
        assert write(client, "post", t, "/hands", json={"result": "draw", "tenpai": [0]}).status_code == 200
    resp = client.get(f"/api/tables/{t['id']}", headers={"Accept-Encoding": "gzip, br"})
    assert resp.headers["Content-Encoding"] == "br" and resp.headers["ETag"] == '"5"'
    same = client.get(f"/api/tables/{t['id']}", headers={"Accept-Encoding": "gzip, br", "If-None-Match": resp.headers["ETag"]})
    assert same.status_code == 304 and not same.get_data() and "Content-Encoding" not in same.headers
    written = client.post(f"/api/tables/{t['id']}/hands", json={"result": "draw", "tenpai": [1]},
                          headers={**auth(t), "If-Match": resp.headers["ETag"], "Accept-Encoding": "gzip"})
    assert written.status_code == 200 and written.headers["ETag"] == '"6"'


def test_small_responses_and_other_types_are_left_alone(client):
    small = client.get("/healthz", headers={"Accept-Encoding": "br, gzip"})
    assert "Content-Encoding" not in small.headers
    with client.get("/static/icons/icon-192.png", headers={"Accept-Encoding": "br, gzip"}) as icon:
        assert icon.status_code == 200 and "Content-Encoding" not in icon.headers
    with client.get("/static/js/tables/tables.js", headers={"Accept-Encoding": "br", "Range": "bytes=0-99"}) as ranged:
        assert ranged.status_code == 206 and len(ranged.get_data()) == 100 and "Content-Encoding" not in ranged.headers


def test_compression_can_be_turned_off_for_a_proxy_that_compresses(tmp_path):
    app = create_app({"TESTING": True, "COMPRESSION": False, "DATABASE_URL": f"sqlite:///{tmp_path / 'off.sqlite3'}"})
    try:
        with app.test_client().get("/static/js/tables/tables.js", headers={"Accept-Encoding": "br, gzip"}) as resp:
            assert resp.status_code == 200 and "Content-Encoding" not in resp.headers
    finally:
        app.extensions["database"].dispose()


# What a phone downloads to score offline: the worker, Pyodide's files and the scoring source
# (static/js/core/offline-worker.js; tests/browser/test_browser_offline_scoring.py records the same list)
ENGINE_FILES = ("/static/js/core/offline.js", "/offline-worker.js", "/offline/scoring.zip") + tuple(
    f"/static/vendor/pyodide/{name}" for name in
    ("pyodide.mjs", "pyodide-lock.json", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip"))


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_offer_to_score_offline_says_the_size_a_phone_downloads(client, language):
    """The offer names a download size ("a 5 MB download"): it is the bytes on the wire, with the
    precompressed copies (scripts/precompress.py) a phone is served, not the 12 MB they unpack to."""
    import json
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "static"
    if not (root / "vendor" / "pyodide" / "pyodide.asm.wasm").exists():
        pytest.skip("Pyodide is not installed in static/vendor (scripts/test installs it and its compressed copies)")
    offer = json.loads((root / "i18n" / f"{language}.json").read_text())["offline.prepare"]
    said = float(re.search(r"(\d+(?:\.\d+)?)\s*MB", offer).group(1))
    wire = unpacked = 0
    for path in ENGINE_FILES:
        with client.get(path, headers={"Accept-Encoding": "br, gzip"}) as resp:
            assert resp.status_code == 200, path
            wire += len(resp.get_data())
        with client.get(path) as resp:
            unpacked += len(resp.get_data())
    assert abs(wire / 1e6 - said) <= 0.5, (wire, offer)
    assert unpacked > 2 * wire   # what the compressed copies save: without them the offer would be wrong
