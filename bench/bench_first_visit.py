"""A phone's first visit on a slow link, and the offline engine's download and start (a benchmark,
not a timed test):

    python -m bench.bench_first_visit [--baseline main] [--runs 3] [--engine] [--lighthouse]

Two servers run side by side in the same run: this checkout and a baseline (`git archive` of
--baseline, default main, sharing this checkout's static/vendor), each behind a loopback proxy that
counts every byte it sends (the page's, the service worker's and the workers', which Chromium's own
throttling and its network log miss) and can throttle the link itself.

- First visit (fresh profile, no service worker): the Score screen usable (its Score button shown and
  enabled), the largest contentful paint and the bytes received by then, on a Fast 3G-like link
  (Chromium CDP: 562.5 ms round trip, 1.44 Mbit/s down, 675 kbit/s up) with the CPU 4x slower, and
  unthrottled; then the bytes the proxy sent in the 15 s after (the service worker's install).
- --engine: the offline engine (Pyodide and the scoring source) as the phone fetches it: bytes on the
  wire; its download and start through the proxy throttled to the same link (CDP does not throttle
  workers); the start after a reload (files cached); a warm call.
- --lighthouse: Lighthouse's mobile performance score (lighthouse, a devDependency of package.json
  installed in instance/bench-node with `npm ci` when missing; the app itself installs only `--omit=dev`).

Compare the two columns, not the numbers between machines. Needs Chromium and Playwright
(requirements-dev.txt) and npm's files in static/vendor.
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("TENBOU_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--mute-audio", "--disable-quic"]
PHONE = {"width": 360, "height": 740}

#: DevTools' "Fast 3G" preset (what the issue measured against).
FAST_3G = {"offline": False, "latency": 562.5, "downloadThroughput": 1.44e6 / 8, "uploadThroughput": 675e3 / 8}
CPU_SLOWDOWN = 4

SERVER = """
import sys, threading
from werkzeug.serving import WSGIRequestHandler, make_server
from app import create_app

class Quiet(WSGIRequestHandler):
    def log_request(self, *a, **k):
        pass

app = create_app({"TESTING": True, "DATABASE_URL": "sqlite:///" + sys.argv[1]})
server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=Quiet)
print(server.server_port, flush=True)
server.serve_forever()
"""


class Proxy:
    """A loopback TCP proxy that counts the bytes it sends to the browser and, when throttled, gives
    each direction a one-way delay (half the round trip) and a shared bandwidth."""

    def __init__(self, upstream_port: int):
        self.upstream = upstream_port
        self.sent = 0
        self.lock = threading.Lock()
        self.throttle: dict | None = None
        self.next_free = {"down": 0.0, "up": 0.0}
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(128)
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            try:
                server = socket.create_connection(("127.0.0.1", self.upstream))
            except OSError:
                client.close()
                continue
            threading.Thread(target=self._pump, args=(client, server, "up"), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, "down"), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket, way: str):
        try:
            while True:
                data = src.recv(16384)
                if not data:
                    break
                arrived = time.monotonic()
                link = self.throttle
                if link:
                    rate = link["downloadThroughput"] if way == "down" else link["uploadThroughput"]
                    with self.lock:  # the link's bandwidth is shared by every connection
                        start = max(arrived + link["latency"] / 2000, self.next_free[way])
                        self.next_free[way] = start + len(data) / rate
                        due = self.next_free[way]
                    delay = due - time.monotonic()
                    if delay > 0:
                        time.sleep(delay)
                dst.sendall(data)
                if way == "down":
                    with self.lock:
                        self.sent += len(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()

    def close(self):
        self.sock.close()


def baseline_tree(ref: str, into: Path) -> Path:
    """`ref`'s files (git archive), with this checkout's static/vendor (npm's, not in git)."""
    archive = into / "baseline.tar"
    subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(archive), ref], check=True)
    tree = into / "baseline"
    tree.mkdir()
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    vendor = ROOT / "static" / "vendor"
    if vendor.exists():
        (tree / "static" / "vendor").symlink_to(vendor)
    return tree


def start_server(tree: Path, tmp: Path, name: str) -> tuple[subprocess.Popen, int]:
    env = {**os.environ, "PYTHONPATH": str(tree), "TENBOU_PURE_PYTHON": "1"}
    proc = subprocess.Popen([sys.executable, "-c", SERVER, str(tmp / f"{name}.sqlite3")], cwd=tree, env=env,
                            stdout=subprocess.PIPE, text=True)
    port = int(proc.stdout.readline())
    return proc, port


USABLE = """() => {
  const b = document.querySelector('[data-testid=score]');
  return b && !b.disabled && b.offsetParent !== null ? performance.now() : false;
}"""
PAINTS = """() => new Promise((resolve) => {
  let lcp = 0;
  new PerformanceObserver((list) => { for (const e of list.getEntries()) lcp = e.startTime; })
    .observe({ type: "largest-contentful-paint", buffered: true });
  setTimeout(() => {
    const fcp = performance.getEntriesByName("first-contentful-paint")[0];
    resolve({ lcp, fcp: fcp ? fcp.startTime : 0 });
  }, 50);
})"""


def first_visit(browser, base: str, proxy: Proxy, throttled: bool) -> dict:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    received = {"bytes": 0, "requests": 0}

    def finished(event):
        received["bytes"] += event.get("encodedDataLength", 0)
        received["requests"] += 1

    cdp.on("Network.loadingFinished", finished)
    if throttled:
        cdp.send("Network.emulateNetworkConditions", FAST_3G)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    proxy.sent = 0
    page.goto(base + "/", wait_until="commit")
    usable = page.wait_for_function(USABLE, polling=50, timeout=120_000).json_value()
    at_usable = dict(received)
    proxy_at_usable = proxy.sent
    paints = page.evaluate(PAINTS)
    page.wait_for_timeout(15_000)   # the service worker registers after load and installs
    after = proxy.sent - proxy_at_usable
    context.close()
    return {"usable_ms": usable, "lcp_ms": paints["lcp"], "fcp_ms": paints["fcp"], "bytes": at_usable["bytes"],
            "requests": at_usable["requests"], "proxy_bytes": proxy_at_usable, "after_bytes": after}


ENGINE_FILES = ["pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"]


def engine_bytes(base: str) -> dict:
    """What a browser accepting br and gzip receives for each engine file (Content-Length on the wire)."""
    sizes = {}
    for name in ENGINE_FILES + ["/offline/scoring.zip"]:
        url = base + (name if name.startswith("/") else f"/static/vendor/pyodide/{name}")
        req = urllib.request.Request(url, headers={"Accept-Encoding": "br, gzip"})
        with urllib.request.urlopen(req) as resp:
            sizes[name] = len(resp.read())
    return sizes


PREPARE = """async () => {
  const offline = await import("/static/js/core/offline.js");
  const t0 = performance.now();
  await offline.prepareOffline();
  return performance.now() - t0;
}"""
def engine_start(browser, base: str, proxy: Proxy) -> dict:
    """Download and start through the throttled proxy; start again after a reload; a warm call."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(base + "/", wait_until="load")
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller", timeout=120_000)
    page.wait_for_timeout(3000)     # the worker's install (the app's files) done
    proxy.throttle = FAST_3G
    proxy.sent = 0
    cold = page.evaluate(PREPARE)
    sent = proxy.sent
    proxy.throttle = None
    page.reload(wait_until="load")
    page.wait_for_function("() => navigator.serviceWorker.controller", timeout=60_000)
    reload_start = page.evaluate(PREPARE)
    warm = page.evaluate(PREPARE)
    context.close()
    return {"download_and_start_s": cold / 1000, "engine_bytes_on_wire": sent, "start_after_reload_s": reload_start / 1000,
            "warm_ms": warm}


#: Where the bench installs package.json's devDependencies (lighthouse), apart from the app's own
#: node_modules, which scripts/_setup.sh fills with `npm ci --omit=dev`.
BENCH_NODE = ROOT / "instance" / "bench-node"


def lighthouse(url: str) -> float | None:
    binary = BENCH_NODE / "node_modules" / ".bin" / "lighthouse"
    lock = (ROOT / "package-lock.json").read_bytes()
    if not binary.exists() or (BENCH_NODE / "package-lock.json").read_bytes() != lock:
        print("installing lighthouse (npm ci with devDependencies, in instance/bench-node)", file=sys.stderr)
        BENCH_NODE.mkdir(parents=True, exist_ok=True)
        for name in ("package.json", "package-lock.json"):
            (BENCH_NODE / name).write_bytes((ROOT / name).read_bytes())
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=BENCH_NODE, check=True)
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        run = subprocess.run([str(binary), url, "--only-categories=performance", "--output=json", f"--output-path={out.name}",
                              "--quiet", "--chrome-flags=--headless=new " + " ".join(ARGS)],
                             env={**os.environ, "CHROME_PATH": CHROMIUM}, capture_output=True, text=True)
        if run.returncode != 0:
            print(run.stderr[-2000:], file=sys.stderr)
            return None
        report = json.loads(Path(out.name).read_text())
    audits = report["audits"]
    print(f"  lighthouse {url}: score {report['categories']['performance']['score']}, "
          f"LCP {audits['largest-contentful-paint']['displayValue']}, TBT {audits['total-blocking-time']['displayValue']}, "
          f"FCP {audits['first-contentful-paint']['displayValue']}", file=sys.stderr)
    return report["categories"]["performance"]["score"] * 100


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--baseline", default="main", help="git ref measured alongside this checkout")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--engine", action="store_true", help="the offline engine's download and start")
    ap.add_argument("--lighthouse", action="store_true", help="Lighthouse mobile performance scores")
    args = ap.parse_args()

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        trees = {"baseline": baseline_tree(args.baseline, tmp), "this": ROOT}
        servers, proxies = {}, {}
        try:
            for name, tree in trees.items():
                servers[name] = start_server(tree, tmp, name)
                proxies[name] = Proxy(servers[name][1])
            bases = {name: f"http://127.0.0.1:{proxies[name].port}" for name in trees}
            results: dict = {name: {"fast3g": [], "unthrottled": []} for name in trees}
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                for _ in range(args.runs):
                    for name in trees:   # alternate, so both see the same machine load
                        for link in ("fast3g", "unthrottled"):
                            results[name][link].append(first_visit(browser, bases[name], proxies[name], link == "fast3g"))
                print(f"First visit, Score screen ({args.runs} runs, median; baseline = {args.baseline}):")
                print(f"{'':34}{'baseline':>12}{'this':>12}{'ratio':>8}")
                for link in ("fast3g", "unthrottled"):
                    for key, unit in (("usable_ms", "ms"), ("lcp_ms", "ms"), ("bytes", "B"), ("requests", ""),
                                      ("after_bytes", "B")):
                        b = statistics.median(r[key] for r in results["baseline"][link])
                        t = statistics.median(r[key] for r in results["this"][link])
                        label = {"usable_ms": "usable", "lcp_ms": "largest paint", "bytes": "bytes to usable",
                                 "requests": "requests to usable", "after_bytes": "bytes in 15 s after (sw)"}[key]
                        print(f"  {link:12}{label:22}{b:12.0f}{t:12.0f}{(t / b if b else 0):8.2f}  {unit}")
                for name in trees:
                    fast = statistics.median(r["usable_ms"] for r in results[name]["fast3g"])
                    quick = statistics.median(r["usable_ms"] for r in results[name]["unthrottled"])
                    print(f"  {name}: Fast 3G + 4x CPU is {fast / quick:.1f}x unthrottled")
                if args.engine:
                    print("Offline engine (Pyodide + scoring source):")
                    for name in trees:
                        sizes = engine_bytes(f"http://127.0.0.1:{servers[name][1]}")
                        print(f"  {name}: {sum(sizes.values()) / 1e6:.2f} MB on the wire " + json.dumps(sizes))
                    engine = {name: engine_start(browser, bases[name], proxies[name]) for name in trees}
                    for key in ("engine_bytes_on_wire", "download_and_start_s", "start_after_reload_s", "warm_ms"):
                        b, t = engine["baseline"][key], engine["this"][key]
                        print(f"  {key:26}{b:14.2f}{t:14.2f}{(t / b if b else 0):8.2f}")
                browser.close()
            if args.lighthouse:
                print("Lighthouse mobile performance (median of runs):")
                for name in trees:
                    scores = [s for s in (lighthouse(bases[name] + "/") for _ in range(args.runs)) if s is not None]
                    print(f"  {name}: {statistics.median(scores) if scores else 'n/a'} {scores}")
        finally:
            for proc, _ in servers.values():
                proc.terminate()
                proc.wait(timeout=10)
            for proxy in proxies.values():
                proxy.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
