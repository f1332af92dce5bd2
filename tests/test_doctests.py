"""The examples in the scoring package's docstrings run (on the pure-Python source)."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODULES = ("scoring", "scoring.tiles", "scoring.hand", "scoring.points", "league.standings", "league.seating")

CODE = """
import doctest, importlib, sys
failed = attempted = 0
for name in {modules!r}:
    result = doctest.testmod(importlib.import_module(name))
    failed += result.failed
    attempted += result.attempted
print(attempted)
sys.exit(1 if failed else 0)
"""


def test_docstring_examples():
    env = {**os.environ, "TENBOU_PURE_PYTHON": "1"}
    out = subprocess.run([sys.executable, "-c", CODE.format(modules=MODULES)], cwd=ROOT, env=env,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert int(out.stdout.strip().splitlines()[-1]) >= 8
