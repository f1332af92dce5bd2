"""Offline scoring with the server's own engine: Pyodide runs the `scoring` package in a Web Worker,
downloaded when the player asks, cached by the service worker; offline, the score is the API's.
Records the download size and the time to the first offline score in test-artifacts/offline.json."""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import ARTIFACTS, new_phone, screenshot
from .hand_helpers import HAND, score_api

VENDOR = Path(__file__).resolve().parents[2] / "static" / "vendor" / "pyodide"


def test_a_hand_scores_offline_with_the_same_engine(browser, live_server):
    if not (VENDOR / "pyodide.asm.wasm").exists():
        pytest.skip("Pyodide is not installed in static/vendor (scripts/test installs it with npm)")
    context, console = new_phone(browser, live_server)
    console.allow_offline()
    page = context.new_page()
    sizes = {}
    page.on("response", lambda r: ("/static/vendor/" in r.url or "/offline" in r.url) and sizes.setdefault(r.url, len(r.body())))
    page.goto("/#/score")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.click('[data-first-ruleset="wrr"]')
    started = time.monotonic()
    page.click('[data-testid="prepare-offline"]')
    expect(page.locator('[data-testid="offline-ready"]')).to_be_visible(timeout=120_000)
    prepare_s = time.monotonic() - started

    # offline, after a reload: the worker, Pyodide and the scoring source come from the cache
    context.set_offline(True)
    page.reload()
    page.locator(".picker").wait_for()
    page.click("summary:has-text('Type the tiles instead')")
    page.fill('[data-testid="typed-tiles"]', HAND)
    page.press('[data-testid="typed-tiles"]', "Enter")
    page.locator('input[name="seat_wind"][value="south"]').check()
    page.locator('input[name="win"][value="tsumo"]').check()
    page.locator('input[name="riichi"]').check()
    started = time.monotonic()
    page.click('[data-testid="score"]')
    expect(page.locator('[data-testid="scored-offline"]')).to_be_visible(timeout=120_000)
    first_offline_s = time.monotonic() - started
    total = page.locator('[data-testid="result-total"]').inner_text()
    screenshot(page, "scored-offline")

    # the same engine: the server's answer for the same request
    context.set_offline(False)
    expected = score_api(page, live_server, ruleset="wrr", hand=HAND, win_tile="5z", win="tsumo", seat_wind="south", riichi=True)
    assert total == str(expected["total"])
    # an impossible hand offline is refused like the API refuses it (field and code)
    context.set_offline(True)
    page.locator(".hand-row .hand-tile").first.click()   # 13 tiles
    page.click('[data-testid="score"]')
    expect(page.locator(".hand-editor .entry-bar .field-error").first).to_contain_text("14")

    ARTIFACTS.parent.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS.parent / "offline.json").write_text(json.dumps({
        "download_bytes": sum(sizes.values()), "files": {u.rsplit("/", 1)[1]: n for u, n in sizes.items()},
        "prepare_seconds": round(prepare_s, 2), "first_offline_score_seconds": round(first_offline_s, 2)}, indent=1))
    context.close()
    assert console.unexpected() == []
