"""The live camera's numbers (a benchmark, not a timed test):

    python -m bench.bench_camera [--frames 8] [--captures 3]

- the cost of the extra passes (recognition.scales) on the phone: time per frame with them
  against one pass, same frames alternating, for a hand and for hard cases that make them;
- frames per second of on-phone recognition (ONNX Runtime Web, WASM, in a worker of headless
  Chromium, 2 threads when the page is cross-origin isolated) and the server's time per frame
  (POST /api/recognize on loopback, the same JPEG frame), for 640 and 960 px frames;
- time from opening the camera screen to the auto-capture of a still hand (Chromium's fake camera
  showing tests/browser/camera_frames.py's hand, tiles cut out of the development photos), in
  Automatic mode and on each path, and with the network cut, and from the capture to both scores (ron and tsumo) shown: on the
  server online, on the phone (Pyodide) offline;
- what a phone downloads for on-phone recognition: the networks (ONNX Runtime Web's files, the
  worker, the models) and the Python reader (Pyodide and recognition/reading.py's source, the same
  files as offline scoring's).

The frames are the hand picture of tests/browser/camera_frames.py scaled to each size. Phone and server
alternate frame by frame so both see the same machine load: compare the ratio, not the numbers
between machines. Needs Chromium (scripts/system-packages.txt) and npm's files in static/vendor.
"""
from __future__ import annotations

import argparse
import base64
import gzip
import io
import json
import statistics
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import numpy as np
from PIL import Image

from tests.browser.camera_frames import hand_picture, write_y4m

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--mute-audio"]

INIT = """async () => {
  const { phoneReader } = await import("/static/js/photo/live-recognizer.js");
  window.bench = phoneReader();
  const ok = await window.bench.ready;
  return { type: ok ? "ready" : window.bench.message, threads: window.bench.threads, isolated: self.crossOriginIsolated };
}"""
READ = """async ({b64, width, height}) => {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const blob = new Blob([bytes], { type: "image/jpeg" });
  const t0 = performance.now();
  const bitmap = await createImageBitmap(blob);
  const result = await window.bench.read(bitmap);
  return { ms: performance.now() - t0, tiles: result.tiles.length, timing: result.timing_ms };
}"""


# the same frame read on the phone with the extra passes recognition/reading.py plans (another
# detector scale, the lower part of a tall face, faint boxes where a tile set apart stands, unsure
# boxes grown: Settings.multi_scale, merge_fragments, tall_faces, faint_threshold, grow_unsure, on by
# default) and without
# them (one pass, the phone's reader before)
READ_PASSES = """async ({b64, onePass}) => {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], { type: "image/jpeg" }));
  const reader = window.bench;
  const served = reader.info;
  if (onePass) reader.info = { ...served, settings: { ...served.settings, multi_scale: false, merge_fragments: false, tall_faces: false,
    set_apart_reject: null, faint_threshold: null, grow_unsure: null } };
  try {
    const t0 = performance.now();
    const result = await reader.read(bitmap);
    return { ms: performance.now() - t0, tiles: result.tiles.map((t) => t.tile) };
  } finally {
    reader.info = served;
  }
}"""
HARD_CASES = Path(__file__).resolve().parents[1] / "tests" / "data" / "hard_cases"


def passes_cost(page, picture: np.ndarray, frames: int) -> None:
    """On-phone time per frame with the extra passes against one pass, alternating frame by frame:
    a hand at the camera's two sizes (no extra detector pass is planned there) and, at 640 px, the
    hard cases that make them (a far row, a two-tile close-up, tall standing faces)."""
    shots = [(f"hand {s} px", jpeg_frame(picture, s)) for s in (640, 960)]
    for name in ("far_row", "closeup_two", "standing_tall"):
        with Image.open(HARD_CASES / f"{name}.jpg") as im:
            shots.append((f"{name} 640 px", jpeg_frame(np.asarray(im.convert("RGB")), 640)))
    ratios = []
    for what, frame in shots:
        b64 = base64.b64encode(frame).decode()
        on, off = [], []
        for k in range(frames + 1):
            a = page.evaluate(READ_PASSES, {"b64": b64, "onePass": False})
            b = page.evaluate(READ_PASSES, {"b64": b64, "onePass": True})
            if k:
                on.append(a["ms"])
                off.append(b["ms"])
        p, q = statistics.median(on), statistics.median(off)
        ratios.append(p / q)
        print(f"  passes on the phone, {what}: {p:.0f} ms/frame ({1000 / p:.2f} fps, {len(a['tiles'])} tiles) against "
              f"one pass {q:.0f} ms ({1000 / q:.2f} fps, {len(b['tiles'])} tiles): time ratio {p / q:.2f}")
    print(f"extra passes on the phone: time ratio median {statistics.median(ratios):.2f}, worst {max(ratios):.2f} over {len(ratios)} frames")


def serve():
    from werkzeug.serving import WSGIRequestHandler, make_server

    from app import create_app

    class Quiet(WSGIRequestHandler):
        def log_request(self, *a, **k):
            pass

    tmp = tempfile.mkdtemp()
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3", "RATE_LIMITS": {}})
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}"


def jpeg_frame(picture: np.ndarray, long_side: int) -> bytes:
    im = Image.fromarray(picture)
    s = long_side / max(im.size)
    im = im.resize((round(im.width * s), round(im.height * s)), Image.LANCZOS)
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=90)
    return buf.getvalue()


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=60) as resp:
        return resp.read()


ONNX_FILES = ["/static/vendor/ort/ort.wasm.min.mjs", "/static/vendor/ort/ort-wasm-simd-threaded.mjs",
              "/static/vendor/ort/ort-wasm-simd-threaded.wasm", "/static/js/photo/recognize-worker.js",
              "/static/js/photo/frame-tensors.js", "/static/js/core/worker-bridge.js", "/static/js/photo/live-recognizer.js", "/models/info.json"]
# recognition/reading.py runs in Pyodide: the offline engine's files (shared with offline scoring: a
# phone that made scoring work offline already has them)
PYODIDE_FILES = ["/offline-worker.js", "/offline/scoring.zip", "/static/vendor/pyodide/pyodide.mjs",
                 "/static/vendor/pyodide/pyodide.asm.js", "/static/vendor/pyodide/pyodide.asm.wasm",
                 "/static/vendor/pyodide/python_stdlib.zip", "/static/vendor/pyodide/pyodide-lock.json"]


def download_size(base: str, urls: list[str] | None = None) -> tuple[int, int]:
    if urls is None:
        info = json.loads(fetch(f"{base}/models/info.json"))
        urls = ONNX_FILES + [info["detector"], info["classifier"]]
    raw = gz = 0
    for u in urls:
        body = fetch(base + u)
        raw += len(body)
        gz += len(gzip.compress(body, 6))
    return raw, gz


def scored_after(cam) -> int:
    """Milliseconds from the capture to both scores (ron and tsumo) shown."""
    cam.wait_for_selector('[data-testid="camera-ron"]', timeout=180_000)
    cam.wait_for_selector('[data-testid="camera-tsumo"]', timeout=180_000)
    cam.wait_for_function("() => document.querySelector('[data-testid=camera]').dataset.scoreMs !== undefined")
    return int(cam.eval_on_selector('[data-testid="camera"]', "(el) => el.dataset.scoreMs"))


def report(what: str, times: list[int], scores: list[int]) -> None:
    fmt = lambda xs: ", ".join(f"{t / 1000:.1f}" for t in xs)  # noqa: E731
    print(f"camera screen open -> auto-capture ({what}, 640 px frames, 3 identical readings): "
          f"median {statistics.median(times) / 1000:.1f} s over {len(times)} runs ({fmt(times)}); "
          f"capture -> both scores shown: median {statistics.median(scores):.0f} ms ({', '.join(map(str, scores))})")


def offline_captures(browser, base: str, runs: int) -> None:
    """With the network cut: the on-phone path reads, Pyodide scores (prepared once while online,
    then warmed when the camera screen opens offline)."""
    context = browser.new_context(base_url=base, permissions=["camera"], service_workers="allow")
    page = context.new_page()
    page.goto("/#/score")
    page.wait_for_function("async () => (await navigator.serviceWorker.ready) && navigator.serviceWorker.controller !== null")
    page.click('[data-first-ruleset="wrr"]')
    page.click('[data-testid="prepare-offline"]')
    page.wait_for_selector('[data-testid="offline-ready"]', timeout=180_000)
    page.goto("/#/camera")  # online once: ONNX Runtime and the models into the service worker's cache
    page.wait_for_selector('[data-testid="camera"][data-state="captured"]', timeout=180_000)
    page.wait_for_function("""async () => {
      const cached = async (n) => (await (await caches.open(n)).keys()).map((r) => new URL(r.url).pathname);
      const keys = (await Promise.all((await caches.keys()).map(cached))).flat();
      return keys.includes("/models/classifier.onnx") && keys.includes("/static/vendor/pyodide/pyodide.asm.wasm");
    }""", timeout=120_000, polling=500)
    page.close()
    context.set_offline(True)
    times, scores = [], []
    for _ in range(runs):
        cam = context.new_page()
        cam.goto("/#/score")
        cam.goto("/#/camera")
        cam.wait_for_selector('[data-testid="camera"][data-state="captured"]', timeout=180_000)
        times.append(int(cam.eval_on_selector('[data-testid="camera"]', "(el) => el.dataset.captureMs")))
        scores.append(scored_after(cam))
        assert cam.locator('[data-testid="scored-offline"]').count() == 1
        cam.close()
    report("phone path, network cut, scored on the phone", times, scores)
    context.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--frames", type=int, default=8, help="timed frames per size and path (after 2 warm-up frames)")
    ap.add_argument("--captures", type=int, default=3, help="camera-open-to-capture runs per path")
    ap.add_argument("--passes-only", action="store_true", help="stop after the frame rates and the passes' cost")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    picture = hand_picture()
    if picture is None:
        raise SystemExit("the development photos are not in ../shared/data/dev-photos")
    server, base = serve()
    raw, gz = download_size(base)
    praw, pgz = download_size(base, PYODIDE_FILES)
    print(f"on-phone download: networks {raw / 1e6:.1f} MB ({gz / 1e6:.1f} MB gzip-compressed) + the Python reader "
          f"(Pyodide and the source, shared with offline scoring) {praw / 1e6:.1f} MB ({pgz / 1e6:.1f} MB) = "
          f"{(raw + praw) / 1e6:.1f} MB ({(gz + pgz) / 1e6:.1f} MB); fetched when the camera screen first opens, "
          "then kept by the service worker")
    y4m = Path(tempfile.mkdtemp()) / "hand.y4m"
    write_y4m(y4m, picture)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS + [
            "--use-fake-device-for-media-stream", f"--use-file-for-fake-video-capture={y4m}"])
        page = browser.new_page(base_url=base)
        page.goto("/#/score")
        ready = page.evaluate(INIT)
        print(f"on-phone reader: {ready['type']}, {ready.get('threads')} thread(s), cross-origin isolated: {ready['isolated']}")
        for long_side in (640, 960):
            frame = jpeg_frame(picture, long_side)
            b64 = base64.b64encode(frame).decode()
            w, h = Image.open(io.BytesIO(frame)).size
            phone, srv = [], []
            for k in range(args.frames + 2):
                out = page.evaluate(READ, {"b64": b64, "width": w, "height": h})
                t0 = time.perf_counter()
                resp = page.request.post("/api/recognize", multipart={"image": {"name": "f.jpg", "mimeType": "image/jpeg", "buffer": frame}})
                t1 = time.perf_counter()
                assert resp.ok and out["tiles"] == len(resp.json()["tiles"]), (out, resp.text()[:200])
                if k >= 2:
                    phone.append(out["ms"])
                    srv.append((t1 - t0) * 1e3)
            p, s = statistics.median(phone), statistics.median(srv)
            print("  on-phone stages (last frame, ms):", out["timing"])
            print(f"{long_side} px frames ({w}x{h}, {out['tiles']} tiles): on-phone {p:.0f} ms/frame = {1000 / p:.2f} fps; "
                  f"server {s:.0f} ms/frame = {1000 / s:.2f} fps; phone/server time ratio {p / s:.2f}")
        passes_cost(page, picture, max(2, args.frames // 2))
        if args.passes_only:
            browser.close()
            server.shutdown()
            return
        page.close()  # its worker and models: the camera pages load their own
        context = browser.new_context(base_url=base, permissions=["camera"])
        for mode in ("auto", "phone", "server"):  # auto: the default, either path, the streak carried across
            times, scores = [], []
            for _ in range(args.captures):
                cam = context.new_page()
                problems: list[str] = []
                note = problems.append  # this capture's list, bound now (the handlers live with this page)
                cam.on("crash", lambda _, note=note: note("the page crashed"))
                cam.on("pageerror", lambda e, note=note: note(str(e)))
                cam.on("console", lambda m, note=note: m.type == "error" and note(m.text))
                cam.goto("/#/score")
                cam.evaluate(f"() => localStorage.setItem('tenbou.camera-mode', JSON.stringify('{mode}'))")
                cam.goto("/#/camera")
                try:
                    cam.wait_for_selector('[data-testid="camera"][data-state="captured"]', timeout=180_000)
                except Exception as err:
                    shown = cam.evaluate("() => [location.hash, document.querySelector('#view').innerText.slice(0, 300)]")
                    raise SystemExit(f"no capture on the {mode} path: {problems}; the screen shows {shown}") from err
                times.append(int(cam.eval_on_selector('[data-testid="camera"]', "(el) => el.dataset.captureMs")))
                scores.append(scored_after(cam))
                cam.close()
            report(f"{mode} path, online", times, scores)
        context.close()
        offline_captures(browser, base, args.captures)
        browser.close()
    server.shutdown()


if __name__ == "__main__":
    main()
