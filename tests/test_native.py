"""The compiled scoring core is the same engine: same answers, and never a stale build."""
import json
import os
import subprocess
import sys
from pathlib import Path

import scoring
from scoring import _native

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = """
import json, sys
sys.path.insert(0, {root!r}); sys.path.insert(0, {tests!r})
import scoring
from random_hands import random_deals
out = []
for deal in random_deals(23, 1500):
    for ruleset in ("tenhou", "ema", "saikouisen"):
        try:
            out.append(scoring.score(deal.payload(ruleset)))
        except scoring.ScoringError as err:
            out.append({{"error": [err.field, err.message, err.kind, err.detail]}})
print(json.dumps({{"native": scoring.NATIVE, "results": out}}))
"""


def _run(pure: bool) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "TENBOU_PURE_PYTHON"}
    if pure:
        env["TENBOU_PURE_PYTHON"] = "1"
    code = SCRIPT.format(root=str(ROOT), tests=str(ROOT / "tests"))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_compiled_and_pure_python_give_the_same_results():
    pure = _run(pure=True)
    default = _run(pure=False)
    assert pure["native"] is False
    assert default["results"] == pure["results"]
    assert sum("error" not in r for r in pure["results"]) > 2000


def test_a_stale_build_is_never_used(tmp_path, monkeypatch):
    monkeypatch.delenv("TENBOU_PURE_PYTHON", raising=False)
    monkeypatch.setenv("TENBOU_NATIVE_DIR", str(tmp_path))
    (tmp_path / "scoring").mkdir()
    (tmp_path / "STAMP").write_text("0" * 64 + "\n")  # a build of some other source
    path = ["/pkg"]
    assert _native.activate(path) is False and path == ["/pkg"]
    (tmp_path / "STAMP").write_text(_native.source_stamp() + "\n")
    assert _native.activate(path) is True and path[0] == str(tmp_path / "scoring")
    monkeypatch.setenv("TENBOU_PURE_PYTHON", "1")
    assert _native.activate(["/pkg"]) is False


def test_the_stamp_follows_the_source(tmp_path, monkeypatch):
    before = _native.source_stamp()
    fake = tmp_path / "pkg"
    fake.mkdir()
    for name in _native.COMPILED:
        (fake / f"{name}.py").write_bytes((_native.PACKAGE_DIR / f"{name}.py").read_bytes())
    monkeypatch.setattr(_native, "PACKAGE_DIR", fake)
    assert _native.source_stamp() == before
    (fake / "fu.py").write_text((fake / "fu.py").read_text() + "\n# edited\n")
    assert _native.source_stamp() != before


def test_ci_runs_the_compiled_core():
    """CI sets TENBOU_REQUIRE_NATIVE: there the whole suite must have run on the compiled build."""
    if not os.environ.get("TENBOU_REQUIRE_NATIVE"):
        import pytest

        pytest.skip("only checked where TENBOU_REQUIRE_NATIVE is set (CI)")
    assert scoring.NATIVE, "the compiled scoring core was not built: see `python -m scoring.native --strict`"
