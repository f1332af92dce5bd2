"""./scripts/serve as a new user runs it: from a fresh copy of the project (setup already done), it
starts the production server, prints an address that works, and Ctrl-C leaves no process behind."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import numpy as np
import pytest

from server_helpers import ROOT, free_port

sys.path.insert(0, str(ROOT / "scripts"))
import serve  # noqa: E402  (scripts/serve.py)

from server_helpers import Serve, assert_all_gone, clean_env, descendants


def fresh_copy(dest: Path) -> Path:
    """What a fresh clone has (the tracked and new files, nothing ignored), with what the setup
    made: the .venv (the compiled scoring core is in it), node_modules and static/vendor (Pyodide
    and ONNX Runtime Web, precompressed). The setup itself runs in CI's own fresh checkout
    (./scripts/test); copied here it took this test about 90 s of npm and compression."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, files):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    for made in (".venv", "node_modules", "static/vendor"):  # "the setup already done"
        if (ROOT / made).exists():
            (dest / made).symlink_to(ROOT / made)
    return dest


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
