"""Helpers for tests that run the app as a real server process or as ./scripts/serve: free ports,
plain HTTP calls, starting a server on a database, and checking that no process is left behind."""
from __future__ import annotations

import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


PG_URL = os.environ.get("TEST_DATABASE_URL")


def free_port() -> int:
    """A port free to listen on, below the range the kernel hands out to outgoing connections. A
    port bound to 0 and let go lies in that range, and a connection another test worker opens in
    the meantime (to PostgreSQL, Redis, a browser) may take it before the server listens on it: a
    full run once failed so, Caddy finding its port taken."""
    low = 32768
    try:
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        pass
    pick = random.SystemRandom()
    for _ in range(200):
        port = pick.randrange(max(1025, low - 12000), low)
        with socket.socket() as s:
            try:
                s.bind(("0.0.0.0", port))
            except OSError:
                continue
            return port
    with socket.socket() as s:  # every port tried was taken: one the kernel gives
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(base, method, path, body=None, headers=None, timeout=10):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status, json.loads(resp.read() or b"null")
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"null")


SERVER = """
import sys
from werkzeug.serving import make_server
sys.path.insert(0, {root!r})
from app import create_app
app = create_app({{"DATABASE_URL": {url!r}}})
make_server("127.0.0.1", {port}, app, threaded=True).serve_forever()
"""


def start_server(db_url, port):
    proc = subprocess.Popen([sys.executable, "-c", SERVER.format(root=str(ROOT), url=db_url, port=port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            call(base, "GET", "/api/rulesets", timeout=1)
            return proc, base
        except (urllib.error.URLError, ConnectionError, OSError):
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("server did not start")


CLEAN_ENV = ("HOST", "PORT", "HTTPS", "DATABASE_URL", "REDIS_URL", "TRUSTED_PROXIES", "BIND", "WEB_CONCURRENCY")


def descendants(pid: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


class Serve:
    """./scripts/serve running in ``cwd``: its output, the first address it prints, and a clean stop."""

    def __init__(self, cwd: Path, env: dict, pattern: str = r"on this computer: (\S+)", timeout: float = 180):
        self.proc = subprocess.Popen(["./scripts/serve"], cwd=cwd, env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, start_new_session=True)
        self.output: list[str] = []
        self.address: str | None = None
        up = threading.Event()

        def read():
            for line in self.proc.stdout:
                self.output.append(line)
                found = re.search(pattern, line)
                if found and self.address is None:
                    self.address = found.group(1)
                if "press Ctrl-C to stop" in line:  # the banner's last line
                    up.set()
            up.set()

        self.reader = threading.Thread(target=read, daemon=True)
        self.reader.start()
        if not up.wait(timeout) or self.address is None:
            self.stop()
            raise AssertionError("serve did not print its address:\n" + self.text[-3000:])

    @property
    def text(self) -> str:
        return "".join(self.output)

    def stop(self) -> int:
        """Ctrl-C, then wait for it to exit."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # what Ctrl-C sends
        try:
            code = self.proc.wait(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            raise
        finally:
            self.reader.join(10)
            self.proc.stdout.close()
        return code


def clean_env(**settings) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in CLEAN_ENV and not k.startswith("TENBOU_")}
    env.update({k: str(v) for k, v in settings.items()})
    return env


def assert_all_gone(pids: set[int], text: str = "") -> None:
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in pids if alive(pid)], text[-2000:]
