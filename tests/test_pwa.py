"""The phone app's server side: shell, manifest, service worker, icons and tile images."""
from __future__ import annotations

import io
import json
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
    for path in [ROOT / "templates" / "index.html", *sorted((ROOT / "static" / "js").glob("*.js"))]:
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
    modules = {f"/static/js/{p.name}" for p in (ROOT / "static" / "js").glob("*.js")}
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
    phone then fetches, Pyodide's files (the list static/js/projection.js downloads) and the
    scoring source (/offline/scoring.zip), rounded to whole MB."""
    vendor = ROOT / "static" / "vendor" / "pyodide"
    if not (vendor / "pyodide.asm.wasm").exists():
        pytest.skip("Pyodide is not installed in static/vendor (scripts/test installs it with npm)")
    listed = re.search(r"const ENGINE = \[([^\]]*)\]", (ROOT / "static" / "js" / "projection.js").read_text())
    files = re.findall(r'"([^"]+)"', listed.group(1))
    assert "pyodide.asm.wasm" in files
    size = sum((vendor / f).stat().st_size for f in files) + len(client.get("/offline/scoring.zip").data)
    for lang in ("en", "ja"):
        said = json.loads((ROOT / "static" / "i18n" / f"{lang}.json").read_text())["offline.prepare"]
        assert re.search(r"(\d+) MB", said).group(1) == str(round(size / 1e6)), (lang, said, size)
