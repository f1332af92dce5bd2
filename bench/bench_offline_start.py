"""The offline engine's start after a reload (a benchmark, not a timed test):

    python -m bench.bench_offline_start [--baseline main] [--runs 3] [--cpu 1,4]

The first offline score after a reload is what a player waits for when the link drops: the page
reloads (or the phone wakes the tab), Pyodide starts in the worker and scores the hand. Two servers run
side by side in the same run: this checkout and a baseline (`git archive` of --baseline, default main,
sharing this checkout's static/vendor). For each, in a fresh browser profile: the engine is prepared
once (the files downloaded and cached by the service worker; this checkout then keeps its memory
snapshot), then, for each run, the page reloads and times

- first score: the first offline score straight after the reload (engine cold, files cached),
- warm score: the next one (the engine started),
- the worker's own marks (this checkout: module loaded, source read, snapshot restored or booted...).

with the CPU at full speed and 4x slower (Chromium CDP Emulation.setCPUThrottlingRate: the page's
side only, see throttle()). Ratios: this/baseline, and each tree's first score against its own warm score. The
scores themselves are compared with the server's (the same answer, or the bench stops).
Needs Chromium, Playwright (requirements-dev.txt) and npm's files in static/vendor.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

from bench.bench_first_visit import ARGS, CHROMIUM, PHONE, PREPARE, ROOT, baseline_tree, start_server

REQUEST = {"ruleset": "wrr", "hand": "234m067p345s11z555z", "win_tile": "5z", "win": "tsumo",
           "seat_wind": "south", "riichi": True}

FIRST_SCORE = """async (request) => {
  const offline = await import("/static/js/core/offline.js");
  const t0 = performance.now();
  const first = await offline.scoreOffline(request);
  const t1 = performance.now();
  const again = await offline.scoreOffline(request);
  const t2 = performance.now();
  let marks = null;
  try { marks = await offline.offlineEngine().call("timings"); } catch (err) { marks = null; }
  return { first_ms: t1 - t0, warm_ms: t2 - t1, total: first.total, same: JSON.stringify(first) === JSON.stringify(again), marks };
}"""


def throttle(context, page, rate: int) -> None:
    """CPU throttling (CDP) for the page. It does not reach the page's dedicated workers in this
    Chromium (a busy loop in a worker runs as fast throttled; attaching to the worker's own target
    gets no answer), so the slower column slows the page's side only: the worker's module loading
    and messages, not Pyodide's start."""
    context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})


def measure(browser, base: str, runs: int, rate: int, expected: dict) -> list[dict]:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(base + "/", wait_until="load")
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller", timeout=120_000)
    page.wait_for_timeout(2000)     # the service worker's install done
    page.evaluate(PREPARE)          # the engine's files cached (and this checkout's snapshot kept)
    page.wait_for_timeout(3000)     # the snapshot stored in the background
    out = []
    for _ in range(runs):
        page.reload(wait_until="load")
        page.wait_for_function("() => navigator.serviceWorker.controller", timeout=60_000)
        if rate > 1:
            throttle(context, page, rate)
        got = page.evaluate(FIRST_SCORE, REQUEST)
        if got["total"] != expected["total"] or not got["same"]:
            raise SystemExit(f"{base}: the offline score differs from the server's: {got} vs {expected}")
        out.append(got)
        page.wait_for_timeout(1500)
    context.close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--baseline", default="main", help="git ref measured alongside this checkout")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cpu", default="1,4", help="CPU slowdowns to measure, comma-separated")
    args = ap.parse_args()
    rates = [int(r) for r in args.cpu.split(",")]

    import urllib.request

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        trees = {"baseline": baseline_tree(args.baseline, tmp), "this": ROOT}
        servers = {}
        try:
            for name, tree in trees.items():
                servers[name] = start_server(tree, tmp, name)
            bases = {name: f"http://127.0.0.1:{servers[name][1]}" for name in trees}
            req = urllib.request.Request(bases["this"] + "/api/score", data=json.dumps(REQUEST).encode(),
                                         headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(req) as resp:
                expected = json.load(resp)
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                results = {(name, rate): measure(browser, bases[name], args.runs, rate, expected)
                           for rate in rates for name in trees}
                browser.close()
        finally:
            for proc, _ in servers.values():
                proc.terminate()
                proc.wait(timeout=10)
    print(f"First offline score after a reload ({args.runs} runs, median; baseline = {args.baseline}):")
    print(f"{'':28}{'baseline':>12}{'this':>12}{'this/base':>11}")
    for rate in rates:
        rows = {}
        for key in ("first_ms", "warm_ms"):
            b = statistics.median(r[key] for r in results[("baseline", rate)])
            t = statistics.median(r[key] for r in results[("this", rate)])
            rows[key] = (b, t)
            print(f"  cpu {rate}x {key:18}{b:12.0f}{t:12.0f}{(t / b if b else 0):11.3f}  ms")
        (bf, tf), (bw, tw) = rows["first_ms"], rows["warm_ms"]
        print(f"  cpu {rate}x first/warm        {bf / bw:12.0f}{tf / tw:12.0f}")
        marks = [r["marks"] for r in results[("this", rate)] if r["marks"]]
        for m in marks:
            print(f"    this, worker: {m['snapshot']} {json.dumps(m['marks'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
