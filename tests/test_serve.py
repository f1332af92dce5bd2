"""./scripts/serve as a new user runs it: from a fresh copy of the project (setup already done), it
starts the production server, prints an address that works, and Ctrl-C leaves no process behind."""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import numpy as np
import pytest

from test_api_tables import ROOT, free_port

sys.path.insert(0, str(ROOT / "scripts"))
import serve  # noqa: E402  (scripts/serve.py)

CLEAN_ENV = ("HOST", "PORT", "HTTPS", "DATABASE_URL", "REDIS_URL", "TRUSTED_PROXIES", "BIND", "WEB_CONCURRENCY")


def fresh_copy(dest: Path) -> Path:
    """What a fresh clone has (the tracked and new files, nothing ignored), with the set-up .venv."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, files):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    (dest / ".venv").symlink_to(ROOT / ".venv")  # "the setup already done"
    return dest


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


def test_serve_starts_the_real_server_and_ctrl_c_stops_everything(tmp_path):
    clone = fresh_copy(tmp_path / "tenbou")
    port = free_port()
    server = Serve(clone, clean_env(PORT=port))
    try:
        base = server.address
        assert base == f"http://127.0.0.1:{port}"
        with urllib.request.urlopen(base + "/", timeout=10) as resp:
            assert resp.status == 200 and "<html" in resp.read().decode().lower()
        with urllib.request.urlopen(base + "/healthz", timeout=30) as resp:
            assert resp.status == 200 and b'"ok":true' in resp.read()
        assert (clone / "instance" / "tenbou.sqlite3").exists()  # the embedded default
        started = descendants(server.proc.pid)
        assert len(started) >= 3, started  # gunicorn's master and its two workers at least
    finally:
        code = server.stop()
    text = server.text
    assert code == 0, text[-3000:]
    assert "development server" not in text.lower() and "Booting worker" in text
    assert "plain HTTP" in text and "HOST=0.0.0.0" in text  # says it is not HTTPS, and how to let phones in
    assert_all_gone(started, text)
    with pytest.raises(OSError):
        urllib.request.urlopen(base + "/healthz", timeout=2)


def assert_all_gone(pids: set[int], text: str = "") -> None:
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in pids if alive(pid)], text[-2000:]


def _decode_terminal_qr(text: str) -> str:
    """Read back a QR code printed with half blocks (light modules are drawn, as segno does)."""
    import cv2

    rows = [line for line in text.splitlines() if line.strip()]
    width = max(len(r) for r in rows)
    light = {"█": (1, 1), "▀": (1, 0), "▄": (0, 1), " ": (0, 0)}
    grid = []
    for row in rows:
        top, bottom = zip(*(light[c] for c in row.ljust(width, "█")))
        grid += [top, bottom]
    img = (np.array(grid, dtype=np.uint8) * 255)
    img = np.pad(img, 4, constant_values=255)
    img = cv2.resize(img, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST)
    decoded, _, _ = cv2.QRCodeDetector().detectAndDecode(img)
    return decoded


def test_the_banner_prints_a_scannable_qr_code_for_each_phone_address(capsys):
    serve.banner("0.0.0.0", 5000, False, ["127.0.0.1"], ["192.0.2.7", "198.51.100.3"], {})
    out = capsys.readouterr().out
    assert "phones on this network (HTTP, not HTTPS): http://192.0.2.7:5000" in out
    blocks = re.findall(r"\n((?:[█▀▄ ]+\n){10,})", out)
    assert [_decode_terminal_qr(b) for b in blocks] == ["http://192.0.2.7:5000", "http://198.51.100.3:5000"]
    assert "need HTTPS" in out


def test_phone_addresses_follow_the_host_setting():
    assert serve.hosts_for("127.0.0.1") == (["127.0.0.1"], [])
    assert serve.hosts_for("192.0.2.9") == ([], ["192.0.2.9"])
    local, phones = serve.hosts_for("0.0.0.0")
    assert local == ["127.0.0.1"] and all(not p.startswith("127.") for p in phones)
