"""Load test on loopback under the production command (gunicorn -c gunicorn.conf.py).

    .venv/bin/python bench/load_test.py [--seconds 10] [--connections 16] [--photo PATH]

Starts gunicorn as the README documents it, then measures requests per second and p50/p99
latency for POST /api/score and GET /api/tables/<id> with wrk (Debian package `wrk`; a Python
client is used when wrk is missing), and /api/recognize with 4 concurrent uploads of a photo.
Prints a table with the targets of the API issue. Nothing here asserts timings: it reports.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEV_PHOTOS = ROOT.parent / "shared" / "data" / "dev-photos"
SCORE_BODY = {"ruleset": "tenhou", "hand": "234m067p345s11z555z", "win_tile": "5z", "win": "ron",
              "seat_wind": "south", "round_wind": "east", "riichi": True, "dora_indicators": "1z", "honba": 1}
TARGETS = {"POST /api/score": "≥500 req/s, p99 <50 ms", "GET /api/tables/<id>": "≥1000 req/s",
           "POST /api/recognize (4 concurrent)": "p99 <1000 ms"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http(method: str, url: str, body: bytes | None = None, headers: dict | None = None, timeout: float = 30):
    req = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    with urllib.request.urlopen(req, timeout=timeout) as resp:
        return resp.status, resp.read()


def start_gunicorn(port: int, db_url: str) -> subprocess.Popen:
    env = {**os.environ, "BIND": f"127.0.0.1:{port}", "DATABASE_URL": db_url, "ACCESS_LOG": "/dev/null", "LOG_LEVEL": "warning",
           # one load-test client stands for many phones: lift the per-client limits for this server
           "TENBOU_RATE_LIMITS": json.dumps({})}
    log = open(Path(tempfile.gettempdir()) / "tenbou-load-test-gunicorn.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "app:create_app()"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log, start_new_session=True)
    for _ in range(300):
        try:
            http("GET", f"http://127.0.0.1:{port}/api/rulesets", timeout=1)
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"gunicorn did not start; see {log.name}")


def make_table(base: str) -> str:
    status, raw = http("POST", f"{base}/api/tables", json.dumps({"ruleset": "wrr", "players": ["A", "B", "C", "D"]}).encode(),
                       {"Content-Type": "application/json"})
    table = json.loads(raw)
    hands = [{"result": "ron", "from_seat": 1, "winners": [{"seat": 2, "value": {"han": 3, "fu": 40}}], "riichi": [2]},
             {"result": "tsumo", "winner": {"seat": 0, "value": {"han": 2, "fu": 30}}, "riichi": []},
             {"result": "draw", "tenpai": [1, 3], "riichi": []}] * 3
    for version, hand in enumerate(hands, start=1):
        http("POST", f"{base}/api/tables/{table['id']}/hands", json.dumps(hand).encode(),
             {"Content-Type": "application/json", "Authorization": f"Bearer {table['edit_token']}", "If-Match": f'"{version}"'})
    return table["id"]


def _ms(text: str) -> float:
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]


def run_wrk(url: str, seconds: int, connections: int, script: str | None = None) -> dict:
    cmd = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", url]
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as lua:
        if script:
            lua.write(script)
            cmd[1:1] = ["-s", lua.name]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"wrk failed: {proc.stdout[-500:]} {proc.stderr[-500:]}")
    out = proc.stdout
    os.unlink(lua.name)
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    total = int(re.search(r"(\d+) requests in", out).group(1))
    lat = dict(re.findall(r"^\s+(50|99)%\s+(\S+)", out, re.M))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"requests": total, "rps": rps, "p50": _ms(lat["50"]), "p99": _ms(lat["99"]),
            "errors": int(non2xx.group(1)) if non2xx else 0}


def run_python_client(method: str, url: str, body: bytes | None, headers: dict, seconds: int, concurrency: int) -> dict:
    latencies, errors = [], [0]
    stop = time.monotonic() + seconds

    def worker():
        while time.monotonic() < stop:
            t0 = time.perf_counter()
            try:
                http(method, url, body, headers)
            except OSError:
                errors[0] += 1
            latencies.append((time.perf_counter() - t0) * 1000)

    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return summarize(latencies, time.monotonic() - start, errors[0])


def summarize(latencies: list[float], elapsed: float, errors: int) -> dict:
    lat = sorted(latencies)
    return {"requests": len(lat), "rps": len(lat) / elapsed, "p50": statistics.median(lat),
            "p99": lat[min(len(lat) - 1, int(0.99 * len(lat)))], "errors": errors}


def multipart(path: Path) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"image\"; filename=\"{path.name}\"\r\n"
            "Content-Type: image/jpeg\r\n\r\n").encode()
    return head + path.read_bytes() + f"\r\n--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def recognize_load(base: str, photo: Path, uploads: int, concurrency: int = 4) -> dict:
    body, ctype = multipart(photo)
    latencies, errors = [], 0

    def one(_):
        t0 = time.perf_counter()
        try:
            status, _ = http("POST", f"{base}/api/recognize", body, {"Content-Type": ctype}, timeout=60)
            ok = status == 200
        except OSError:
            ok = False
        return (time.perf_counter() - t0) * 1000, ok

    http("POST", f"{base}/api/recognize", body, {"Content-Type": ctype}, timeout=120)  # warm both workers' sessions
    http("POST", f"{base}/api/recognize", body, {"Content-Type": ctype}, timeout=120)
    start = time.monotonic()
    with ThreadPoolExecutor(concurrency) as pool:
        for ms, ok in pool.map(one, range(uploads)):
            latencies.append(ms)
            errors += not ok
    return summarize(latencies, time.monotonic() - start, errors)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--uploads", type=int, default=40)
    ap.add_argument("--photo", type=Path, default=DEV_PHOTOS / "IMG_3085.jpg")
    ap.add_argument("--database-url", default=None, help="default: a temporary SQLite file")
    args = ap.parse_args()

    tmp = tempfile.mkdtemp()
    db_url = args.database_url or f"sqlite:///{tmp}/load.sqlite3"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_gunicorn(port, db_url)
    rows = []
    try:
        table_id = make_table(base)
        body = json.dumps(SCORE_BODY)
        if shutil.which("wrk"):
            lua = ('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
                   f"wrk.body = {json.dumps(body)}\n")
            http("POST", f"{base}/api/score", body.encode(), {"Content-Type": "application/json"})
            rows.append(("POST /api/score", run_wrk(f"{base}/api/score", args.seconds, args.connections, lua)))
            rows.append(("GET /api/tables/<id>", run_wrk(f"{base}/api/tables/{table_id}", args.seconds, args.connections)))
            client = f"wrk -t2 -c{args.connections} -d{args.seconds}s"
        else:
            rows.append(("POST /api/score", run_python_client("POST", f"{base}/api/score", body.encode(),
                                                             {"Content-Type": "application/json"}, args.seconds, 8)))
            rows.append(("GET /api/tables/<id>", run_python_client("GET", f"{base}/api/tables/{table_id}", None, {}, args.seconds, 8)))
            client = "python threads x8 (install wrk for better numbers)"
        if args.photo.exists():
            try:
                rows.append(("POST /api/recognize (4 concurrent)", recognize_load(base, args.photo, args.uploads)))
            except urllib.error.HTTPError as err:
                print(f"note: /api/recognize answered {err.code} ({err.read().decode()[:200]}); recognition skipped")
        else:
            print(f"note: no photo at {args.photo}; recognition skipped")
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)

    print(f"\nLoad test on loopback: gunicorn -c gunicorn.conf.py (2 workers x 4 threads), client: {client}")
    print(f"{'endpoint':38} {'requests':>9} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}  target")
    for name, r in rows:
        print(f"{name:38} {r['requests']:>9} {r['rps']:>9.0f} {r['p50']:>8.1f} {r['p99']:>8.1f} {r['errors']:>7}  {TARGETS[name]}")


if __name__ == "__main__":
    sys.exit(main())
