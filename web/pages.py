"""The phone app's pages: the app shell, the web manifest and the service worker at the site root.

The app is one page (templates/index.html) whose screens are routed in the browser by the URL
fragment (`#/score`, `#/table/<id>`), so the service worker needs to cache a single shell.
Share links `/t/<code>` open the same shell; the script turns them into `#/table/<code>`.
"""
from __future__ import annotations

import hashlib
import json
import mimetypes
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, abort, current_app, jsonify, render_template, request, send_file, url_for
from werkzeug.security import safe_join

bp = Blueprint("pages", __name__)

THEME_COLOUR = "#17513a"


@lru_cache(maxsize=4)
def app_shell_files(static_folder: str, url_path: str) -> tuple[str, tuple[str, ...]]:
    """The static files the service worker caches, and a short hash of their contents, so a new
    deploy gets a new cache. Read once per process."""
    digest = hashlib.sha256()
    urls = []
    for path in sorted(Path(static_folder).rglob("*")):
        if not path.is_file() or path.name == "sw.js" or path.name.startswith("."):
            continue
        rel = path.relative_to(static_folder).as_posix()
        if rel.startswith("vendor/"):   # Pyodide (12 MB): fetched on demand, then cached by the worker
            continue
        digest.update(rel.encode())
        digest.update(path.read_bytes())
        urls.append(f"{url_path}/{rel}")
    digest.update((Path(current_app.root_path) / "templates" / "index.html").read_bytes())
    digest.update(Path(__file__).read_bytes())
    return digest.hexdigest()[:12], tuple(urls)


def no_store(resp):
    resp.cache_control.no_cache = True
    return resp


LANGS = ("en", "ja")


@lru_cache(maxsize=4)
def catalogue(static_folder: str, lang: str) -> dict:
    """The app's message catalogue for `lang` (static/i18n/<lang>.json), over the English one."""
    words = json.loads((Path(static_folder) / "i18n" / "en.json").read_text(encoding="utf-8"))
    if lang != "en":
        words.update(json.loads((Path(static_folder) / "i18n" / f"{lang}.json").read_text(encoding="utf-8")))
    return words


#: The modules the Score screen (the default one) imports, main.js's own imports and quick.js's: the
#: shell names them with <link rel=modulepreload> so a phone fetches them all in one round rather than
#: discovering them import by import. tests/test_pwa.py checks the list against the imports.
FIRST_SCREEN_MODULES = ("core/util.js", "core/store.js", "core/i18n.js", "score/quick.js", "core/api.js",
                        "core/hand-editor.js", "core/results.js", "core/conditions.js", "core/tiles.js",
                        "core/offline.js", "core/worker-bridge.js")


@bp.get("/")
@bp.get("/t/<code>")
@bp.get("/e/<code>")
def shell(code: str | None = None):
    """The shell, its words before the script runs (loading, no script, the tab bar) in the phone's
    language from Accept-Language; once running, the script applies the player's own choice."""
    lang = request.accept_languages.best_match(LANGS, default="en")
    words = catalogue(current_app.static_folder, lang)
    resp = current_app.make_response(render_template("index.html", theme_colour=THEME_COLOUR, lang=lang, w=words.__getitem__,
                                                             first_modules=FIRST_SCREEN_MODULES))
    resp.vary.add("Accept-Language")
    # revalidated, not downloaded again, when the service worker caches it after the first visit
    resp.add_etag()
    return no_store(resp).make_conditional(request)


@bp.get("/manifest.webmanifest")
def manifest():
    icons = [
        {"src": url_for("static", filename="icons/icon-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
        {"src": url_for("static", filename="icons/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
        {"src": url_for("static", filename="icons/maskable-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
    ]
    resp = jsonify({
        "id": "/",
        "name": "Tenbou — riichi mahjong scores",
        "short_name": "Tenbou",
        "description": "Photograph, enter and score riichi mahjong hands and keep the table's scores.",
        "lang": "en",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "background_color": "#f4f1e8",
        "theme_color": THEME_COLOUR,
        "icons": icons,
    })
    resp.mimetype = "application/manifest+json"
    return resp


@bp.get("/sw.js")
def service_worker():
    """The worker lives in static/ but is served from the root so its scope is the whole app.
    Its cache name carries the assets' hash, so changed files replace the old cache."""
    version, urls = app_shell_files(current_app.static_folder, current_app.static_url_path)
    from web.recognize import model_assets  # the camera's on-phone models, cached for offline use

    models = model_assets()
    lock = Path(current_app.root_path) / "package-lock.json"  # vendor/ files change with it
    extra = "".join(models) + (hashlib.sha256(lock.read_bytes()).hexdigest() if lock.exists() else "")
    version = hashlib.sha256((version + extra).encode()).hexdigest()[:12]
    urls = (*urls, *models)
    source = (Path(current_app.static_folder) / "sw.js").read_text(encoding="utf-8")
    body = source.replace("__VERSION__", version).replace("__ASSETS__", json.dumps(list(urls)))
    resp = current_app.response_class(body, mimetype="text/javascript")
    resp.headers["Service-Worker-Allowed"] = "/"
    resp.cache_control.no_cache = True
    resp.cache_control.max_age = 0
    return resp


# --- offline scoring: the scoring and game packages themselves, run in the browser by Pyodide ----

# The worker runs Pyodide, which compiles WebAssembly and builds its JS glue at run time: its own
# response allows that ('wasm-unsafe-eval', 'unsafe-eval'); the pages keep the strict policy.
WORKER_CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval' 'unsafe-eval'; connect-src 'self'; "
              "object-src 'none'; base-uri 'none'")


#: What the phone imports offline: one hand's scoring, and the game at a table (the board it
#: projects from the hands not yet sent).
OFFLINE_PACKAGES = ("scoring", "game")
#: ...and the one reader of recognition (recognition.reading, the box clean-up of recognition.scales
#: and the hand search it calls): plain
#: Python, run on the camera's frames after ONNX Runtime Web, as the server runs it after its own.
OFFLINE_MODULES = ("recognition/__init__.py", "recognition/reading.py", "recognition/hand.py",
                   "recognition/scales.py")


@lru_cache(maxsize=1)
def scoring_archive() -> bytes:
    """The Python source of the offline packages as a zip (what Pyodide imports offline)."""
    import io
    import zipfile

    root = Path(__file__).resolve().parent.parent
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for package in OFFLINE_PACKAGES:
            for path in sorted((root / package).glob("*.py")):
                zf.writestr(f"{package}/{path.name}", path.read_bytes())
        for module in OFFLINE_MODULES:
            zf.writestr(module, (root / module).read_bytes())
    return buf.getvalue()


@bp.get("/offline/scoring.zip")
def offline_scoring_source():
    resp = current_app.response_class(scoring_archive(), mimetype="application/zip")
    resp.cache_control.no_cache = True
    resp.set_etag(hashlib.sha256(scoring_archive()).hexdigest()[:16])
    return resp.make_conditional(request)


@bp.get("/offline-worker.js")
def offline_worker():
    source = (Path(current_app.static_folder) / "js" / "core" / "offline-worker.js").read_text(encoding="utf-8")
    resp = current_app.response_class(source, mimetype="text/javascript")
    resp.headers["Content-Security-Policy"] = WORKER_CSP
    resp.cache_control.no_cache = True
    return resp


# --- the big files fetched on demand (static/vendor: Pyodide, ONNX Runtime Web), precompressed ------

#: The encodings of the copies scripts/precompress.py writes next to each file, best first.
PRECOMPRESSED = (("br", ".br"), ("gzip", ".gz"))


@bp.get("/static/vendor/<path:name>")
def vendor_file(name: str):
    """A vendor file as the precompressed copy the browser accepts (Content-Encoding br or gzip, with
    the original's type), else the file itself. Takes precedence over Flask's own static route for
    these paths; the copies are made once at setup, so a request costs no compression."""
    folder = Path(current_app.static_folder or "static") / "vendor"
    found = safe_join(str(folder), name)
    if found is None or not Path(found).is_file() or Path(found).suffix in {suffix for _, suffix in PRECOMPRESSED}:
        abort(404)
    original = Path(found)
    mimetype = mimetypes.guess_type(original.name)[0] or "application/octet-stream"
    for coding, suffix in PRECOMPRESSED:
        copy = original.with_name(original.name + suffix)
        if request.accept_encodings[coding] and copy.is_file() and copy.stat().st_mtime >= original.stat().st_mtime:
            resp = send_file(copy, mimetype=mimetype, conditional=True, max_age=current_app.get_send_file_max_age(name))
            resp.headers["Content-Encoding"] = coding
            # the file's own size, for a progress bar counting the decompressed bytes it receives
            resp.headers["X-Uncompressed-Length"] = str(original.stat().st_size)
            break
    else:
        resp = send_file(original, mimetype=mimetype, conditional=True, max_age=current_app.get_send_file_max_age(name))
    resp.vary.add("Accept-Encoding")
    return resp
