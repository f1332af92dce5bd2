"""Helpers of the browser tests that run the offline engine (Pyodide) on the phone."""
from __future__ import annotations

from pathlib import Path

import pytest

PYODIDE = Path(__file__).resolve().parents[2] / "static" / "vendor" / "pyodide"


def needs_pyodide():
    if not (PYODIDE / "pyodide.asm.wasm").exists():
        pytest.skip("Pyodide is not installed in static/vendor (scripts/test installs it with npm)")


def prepare_offline(page):
    """The player's one tap while online: Pyodide and the engine downloaded and kept."""
    page.goto("/#/score")
    page.wait_for_function("async () => (await navigator.serviceWorker.ready) && navigator.serviceWorker.controller !== null")
    page.click('[data-first-ruleset="wrr"]')
    page.click('[data-testid="prepare-offline"]')
    page.locator('[data-testid="offline-ready"]').wait_for(timeout=120_000)
