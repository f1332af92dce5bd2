"""The phone app's DOM-free JavaScript modules (tiles, store, the worker bridge, frame tensors, the
table's projection and model) pass their unit tests: tests/js/*.test.mjs, run by `node --test`.
(Their types and lint are ./scripts/check's: tsc and eslint.)"""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_javascript_unit_tests_pass():
    node = shutil.which("node")
    if node is None:
        if os.environ.get("TENBOU_REQUIRE_NATIVE"):   # CI (.ci/run) installs npm, and node with it
            pytest.fail("node is not installed: the JavaScript unit tests cannot run")
        pytest.skip("node is not installed")
    tests = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests" / "js").glob("*.test.mjs"))
    assert len(tests) >= 9, tests
    out = subprocess.run([node, "--test", *tests], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    passed = [line for line in out.stdout.splitlines() if line.startswith("# pass ")]
    assert passed and int(passed[-1].split()[-1]) > 0, out.stdout[-2000:]
