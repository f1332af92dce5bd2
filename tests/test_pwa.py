"""The phone app's server side: shell, manifest, service worker, icons and tile images."""
from __future__ import annotations

import io
import json
import math
import re
import subprocess
import sys
from pathlib import Path

import pytest
from markupsafe import escape
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
TILE_CODES = [f"{n}{s}" for s in "mps" for n in range(10)] + [f"{n}z" for n in range(1, 8)]


def test_shell_is_served_at_the_root_and_for_share_links(client):
    for path in ("/", "/t/ABC123"):
        resp = client.get(path)
        assert resp.status_code == 200
        html = resp.get_data(as_text=True)
        assert '<link rel="manifest" href="/manifest.webmanifest">' in html
        assert 'src="/static/js/main.js"' in html
        assert "no-cache" in resp.headers["Cache-Control"]


def test_the_shell_speaks_the_phones_language_before_the_script_runs(client):
    """What a phone shows before (or without) JavaScript: the loading line, the no-script message,
    the description and the tab bar, in the language the phone asks for (English otherwise)."""
    catalogues = {lang: json.loads((ROOT / "static" / "i18n" / f"{lang}.json").read_text(encoding="utf-8")) for lang in ("en", "ja")}
    cases = [("ja-JP,ja;q=0.9,en-US;q=0.8", "ja"), ("ja", "ja"), ("en-GB,en;q=0.9", "en"), ("fr-FR", "en"), (None, "en"),
             ("en-US,en;q=0.9,ja;q=0.8", "en")]
    for header, lang in cases:
        resp = client.get("/t/ABC123", headers={"Accept-Language": header} if header else {})
        html = resp.get_data(as_text=True)
        words = catalogues[lang]
        assert f'<html lang="{lang}">' in html, header
        for key in ("app.loading", "app.needs_script", "nav.score", "nav.tables", "skip"):
            assert f">{escape(words[key])}<" in html, (header, key)
        assert f'<meta name="description" content="{escape(words["app.description"])}">' in html
        other = catalogues["en" if lang == "ja" else "ja"]
        assert other["app.loading"] not in html and other["nav.score"] not in html
        assert "Accept-Language" in resp.headers["Vary"]


def test_no_inline_scripts_or_event_handlers(client):
    """A strict Content-Security-Policy (script-src 'self') must not break the app."""
    with client.get("/") as resp:
        html = resp.get_data(as_text=True)
    scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", html, re.S)
    assert scripts
    for attrs, body in scripts:
        assert 'src="/static/' in attrs and body.strip() == "", attrs
    for path in [ROOT / "templates" / "index.html", *sorted((ROOT / "static" / "js").rglob("*.js"))]:
        text = path.read_text()
        assert not re.search(r"""\son[a-z]+\s*=\s*["']""", text), f"inline event handler in {path.name}"
        assert "eval(" not in text and "new Function" not in text, path.name


def test_manifest_meets_the_install_criteria(client):
    with client.get("/manifest.webmanifest") as resp:
        assert resp.status_code == 200
        assert resp.mimetype == "application/manifest+json"
        manifest = json.loads(resp.data)
    assert manifest["name"] and manifest["short_name"] == "Tenbou"
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    by_purpose = {(icon["sizes"], icon["purpose"]): icon for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= set(by_purpose)
    for icon in manifest["icons"]:
        with client.get(icon["src"]) as png:
            assert png.status_code == 200
            data = png.data
        size = int(icon["sizes"].split("x")[0])
        with Image.open(io.BytesIO(data)) as img:
            assert img.format == "PNG" and img.size == (size, size)


def test_maskable_icon_fills_its_square():
    """A maskable icon has no transparent corners (the platform cuts its own shape)."""
    with Image.open(ROOT / "static" / "icons" / "maskable-512.png") as img:
        rgba = img.convert("RGBA")
        for corner in [(0, 0), (511, 0), (0, 511), (511, 511)]:
            assert rgba.getpixel(corner)[3] == 255


def test_service_worker_is_served_from_the_root_and_caches_the_shell(client):
    resp = client.get("/sw.js")
    assert resp.status_code == 200
    assert resp.mimetype == "text/javascript"
    assert resp.headers["Service-Worker-Allowed"] == "/"
    assert "no-cache" in resp.headers["Cache-Control"]
    body = resp.get_data(as_text=True)
    version = re.search(r'const VERSION = "([0-9a-f]{12})"', body)
    assert version, "the cache name carries a content hash"
    assets = json.loads(re.search(r"const ASSETS = (\[.*?\]);", body).group(1))
    for needed in ["/static/app.css", "/static/js/main.js", "/static/tiles/0m.svg", "/static/tiles/back.svg", "/static/icons/icon-192.png"]:
        assert needed in assets
    for url in assets:  # every precached file exists, or the worker would never install
        with client.get(url) as file:
            assert file.status_code == 200, url
    js = ROOT / "static" / "js"
    modules = {f"/static/js/{p.relative_to(js).as_posix()}" for p in js.rglob("*.js")}
    assert modules <= set(assets)


def test_every_tile_has_an_image_and_red_fives_are_red():
    tiles = ROOT / "static" / "tiles"
    for code in TILE_CODES + ["back"]:
        svg = (tiles / f"{code}.svg").read_text()
        assert svg.startswith("<svg") and 'viewBox="0 0 60 80"' in svg and "<title>" in svg
    red = "#d0161e"
    for suit in "mps":
        red_five, five = (tiles / f"0{suit}.svg").read_text(), (tiles / f"5{suit}.svg").read_text()
        assert red_five != five
        # the red five's suit marks are all red; the plain five mixes colours
        marks = re.findall(r'(?:stroke|fill)="(#[0-9a-f]{6})"', red_five.split("</title>", 1)[1])
        colours = set(marks) - {"#fbf7ea", "#b9b09a"}
        assert colours == {red}, (suit, colours)


def test_tile_images_match_their_generator():
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_tiles.py"), "--check"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


@pytest.mark.parametrize("path", ["/static/js/main.js", "/static/app.css", "/static/tiles/1z.svg"])
def test_static_files_have_the_right_types(client, path):
    with client.get(path) as resp:
        assert resp.status_code == 200
        assert resp.mimetype in {"text/javascript", "application/javascript", "text/css", "image/svg+xml"}


def test_tiles_are_drawn_with_shapes_and_need_no_font():
    """Character, wind and dragon tiles look the same on a phone without CJK fonts: every tile
    image draws its marks as paths (outlines from scripts/tile_glyphs.json), none as text."""
    from pathlib import Path

    tiles = sorted((Path(__file__).resolve().parent.parent / "static" / "tiles").glob("*.svg"))
    assert len(tiles) == 38
    for path in tiles:
        svg = path.read_text(encoding="utf-8")
        assert "<text" not in svg and "font-family" not in svg, path.name
    for code in ("1z", "4z", "6z", "1m", "9m", "0m"):
        svg = (tiles[0].parent / f"{code}.svg").read_text(encoding="utf-8")
        assert svg.count("<path") >= 1, code


def test_the_offline_engine_download_is_the_size_the_app_says(client):
    """"Make scoring work offline" names the download's size in every language: it must be what the
    phone then fetches, Pyodide's files (the list static/js/tables/projection.js downloads, precompressed)
    and the scoring source (/offline/scoring.zip), rounded up to whole MB."""
    vendor = ROOT / "static" / "vendor" / "pyodide"
    if not (vendor / "pyodide.asm.wasm").exists():
        pytest.skip("Pyodide is not installed in static/vendor (scripts/test installs it with npm)")
    listed = re.search(r"const ENGINE = \[([^\]]*)\]", (ROOT / "static" / "js" / "tables" / "projection.js").read_text())
    files = re.findall(r'"([^"]+)"', listed.group(1))
    assert "pyodide.asm.wasm" in files
    assert run_precompress("--check", vendor.parent).returncode == 0, "scripts/test precompresses static/vendor"
    size = 0   # on the wire: what a browser accepting br and gzip receives (web/pages.py: vendor_file)
    for name in files:
        with client.get(f"/static/vendor/pyodide/{name}", headers={"Accept-Encoding": "br, gzip"}) as resp:
            size += len(resp.data)
            assert resp.headers.get("Content-Encoding") in {"br", "gzip"}, name
    size += len(client.get("/offline/scoring.zip").data)
    assert size <= 6e6, f"the offline engine is {size / 1e6:.2f} MB on the wire (issue 22: at most 6)"
    for lang in ("en", "ja"):
        said = json.loads((ROOT / "static" / "i18n" / f"{lang}.json").read_text())["offline.prepare"]
        # rounded up: brotli (when installed) and gzip copies differ by a few hundred KB
        assert re.search(r"(\d+) MB", said).group(1) == str(math.ceil(size / 1e6)), (lang, said, size)


# --- a first visit on a slow link: only the first screen's modules, fetched in one round ----------

IMPORT = re.compile(r'^import\s[^;]*?from\s+"(\.\.?/[\w/.-]+\.js)";', re.M)
JS = ROOT / "static" / "js"


def static_imports(module: str, seen: set[str] | None = None) -> set[str]:
    """The modules `module` (a path under static/js) imports statically, transitively (what the
    browser must fetch first), as paths under static/js."""
    seen = set() if seen is None else seen
    for spec in IMPORT.findall((JS / module).read_text(encoding="utf-8")):
        name = (JS / module).parent.joinpath(spec).resolve().relative_to(JS.resolve()).as_posix()
        if name not in seen:
            seen.add(name)
            static_imports(name, seen)
    return seen


def test_the_shell_preloads_exactly_the_score_screens_modules(client):
    """main.js imports no screen module up front (each is loaded when its screen opens), and the
    shell's <link rel=modulepreload> list is what the Score screen needs, no more, no less: the
    modules main.js and quick.js import. The catalogue of the phone's language and the rule sets
    are preloaded too, so nothing waits on a chain of discoveries."""
    from web.pages import FIRST_SCREEN_MODULES

    up_front = static_imports("main.js")
    for screen in ("score/quick.js", "score/waits.js", "photo/photo.js", "photo/camera.js", "tables/tables.js",
                   "events/events.js"):
        assert screen not in up_front, f"main.js imports {screen} before its screen is shown"
    needed = up_front | static_imports("score/quick.js") | {"score/quick.js"}
    assert set(FIRST_SCREEN_MODULES) == needed
    for lang, header in (("en", "en-GB"), ("ja", "ja-JP")):
        html = client.get("/", headers={"Accept-Language": header}).get_data(as_text=True)
        preloaded = set(re.findall(r'<link rel="modulepreload" href="/static/js/([\w/-]+\.js)">', html))
        assert preloaded == needed
        assert f'<link rel="preload" href="/static/i18n/{lang}.json" as="fetch" crossorigin>' in html
        assert '<link rel="preload" href="/api/rulesets" as="fetch" crossorigin>' in html
        for module in preloaded:
            with client.get(f"/static/js/{module}") as resp:
                assert resp.status_code == 200


# --- the offline engine's files, precompressed -------------------------------------------------------


def run_precompress(*args):
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "precompress.py"), *map(str, args)],
                          capture_output=True, text=True)


@pytest.fixture
def vendor(app, tmp_path):
    """A static folder whose vendor/ holds a fake engine file and its precompressed copies."""
    static = tmp_path / "static"
    engine = static / "vendor" / "pyodide"
    engine.mkdir(parents=True)
    (engine / "pyodide.asm.wasm").write_bytes(b"\0asm" + bytes(range(256)) * 400)
    (engine / "pyodide-lock.json").write_text(json.dumps({"packages": {f"p{i}": {"name": f"p{i}"} for i in range(200)}}))
    (engine / "tiny.js").write_text("export {};\n")
    assert run_precompress(static / "vendor").returncode == 0
    app.static_folder = str(static)
    return engine


def test_precompressed_copies_decompress_to_the_files(vendor):
    import gzip

    for name in ("pyodide.asm.wasm", "pyodide-lock.json"):
        assert gzip.decompress((vendor / f"{name}.gz").read_bytes()) == (vendor / name).read_bytes()
        assert (vendor / f"{name}.gz").stat().st_size < (vendor / name).stat().st_size / 4
    assert not (vendor / "tiny.js.gz").exists()   # too small to be worth a copy
    assert run_precompress("--check", vendor.parent).returncode == 0
    (vendor / "pyodide-lock.json").write_text("{}" * 1000)   # a new version: its copy is stale
    out = run_precompress("--check", vendor.parent)
    assert out.returncode == 1 and "pyodide-lock.json" in out.stderr


def test_vendor_files_are_served_precompressed_to_browsers_that_accept_it(client, vendor):
    import gzip

    wasm = (vendor / "pyodide.asm.wasm").read_bytes()
    with client.get("/static/vendor/pyodide/pyodide.asm.wasm", headers={"Accept-Encoding": "gzip, deflate"}) as resp:
        assert resp.status_code == 200
        assert resp.headers["Content-Encoding"] == "gzip"
        assert resp.mimetype == "application/wasm"    # the type of the file, not of the copy
        assert "Accept-Encoding" in resp.headers["Vary"]
        assert gzip.decompress(resp.data) == wasm
        assert int(resp.headers["Content-Length"]) == (vendor / "pyodide.asm.wasm.gz").stat().st_size
        etag = resp.headers["ETag"]
    # revalidation of the compressed copy answers 304
    with client.get("/static/vendor/pyodide/pyodide.asm.wasm", headers={"Accept-Encoding": "gzip", "If-None-Match": etag}) as resp:
        assert resp.status_code == 304
    for header in ({}, {"Accept-Encoding": "identity"}, {"Accept-Encoding": "gzip;q=0"}):
        with client.get("/static/vendor/pyodide/pyodide.asm.wasm", headers=header) as resp:
            assert resp.status_code == 200 and "Content-Encoding" not in resp.headers, header
            assert resp.data == wasm
    with client.get("/static/vendor/pyodide/tiny.js", headers={"Accept-Encoding": "gzip"}) as resp:
        assert resp.status_code == 200 and "Content-Encoding" not in resp.headers
        assert resp.mimetype == "text/javascript"
    for missing in ("nothing.wasm", "pyodide.asm.wasm.gz", "../../app.py", "%2e%2e/%2e%2e/app.py"):
        with client.get(f"/static/vendor/pyodide/{missing}", headers={"Accept-Encoding": "gzip"}) as resp:
            assert resp.status_code == 404, missing


def test_a_stale_precompressed_copy_is_never_served(client, vendor):
    import os

    copy = vendor / "pyodide.asm.wasm.gz"
    old = (vendor / "pyodide.asm.wasm").stat().st_mtime - 60
    os.utime(copy, (old, old))
    (vendor / "pyodide.asm.wasm").write_bytes(b"\0asm new version")
    with client.get("/static/vendor/pyodide/pyodide.asm.wasm", headers={"Accept-Encoding": "gzip"}) as resp:
        assert "Content-Encoding" not in resp.headers
        assert resp.data == b"\0asm new version"
