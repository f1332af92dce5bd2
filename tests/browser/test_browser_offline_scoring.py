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
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
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



# A download of an engine starting fails: the scoring source, or one of the files Pyodide fetches
# side by side (its WebAssembly's failure left the start waiting for ever)
FAILING = ("offline/scoring.zip", "pyodide/pyodide-lock.json", "pyodide/python_stdlib.zip", "pyodide/pyodide.asm.wasm")
WARM = """async () => {
  const { prepareOffline, engineState } = await import("/static/js/core/offline.js");
  const late = new Promise((resolve) => setTimeout(() => resolve(`still ${engineState()} after 30 s`), 30000));
  const warm = prepareOffline().then(() => "ready", async (err) => {
    await new Promise((resolve) => setTimeout(resolve, 500));  // the other downloads fail meanwhile
    return `${engineState()}: ${err.message}`;
  });
  return Promise.race([warm, late]);
}"""


# Pyodide's own report of a standard library it could not install, logged (not thrown) when the
# download fails after it is awaited: CPython then cannot start and says so on its stderr
STDLIB_REPORT = "Error occurred while installing the standard library:"


@pytest.mark.parametrize("late", [False, True], ids=["at-once", "late"])
@pytest.mark.parametrize("failing", FAILING, ids=lambda f: f.rsplit("/", 1)[1])
def test_an_engine_whose_download_fails_says_so_at_once_and_leaves_no_uncaught_error(browser, live_server, failing, late):
    """The network drops while the engine starts (found by the suite: a phone going offline 0.1 s after
    the score screen asked for the engine): the start fails and its caller is told so, at once; the
    downloads started alongside, failing too, are that same failure, not uncaught errors of their own.
    A download failing at once rejects before Pyodide awaits it, one failing late (1 s) after: the
    suite met both, for the standard library."""
    if not (VENDOR / "pyodide.asm.wasm").exists():
        pytest.skip("Pyodide is not installed in static/vendor (scripts/test installs it with npm)")
    context, console = new_phone(browser, live_server, service_workers="block")

    def drop(route):
        if late:
            time.sleep(1.0)
        route.abort("internetdisconnected")
    context.route(f"**/{failing}", drop)
    console.allow_offline()
    page = context.new_page()
    page.goto("/#/score")
    outcome = page.evaluate(WARM)
    context.close()
    assert outcome.startswith("failed: offline scoring could not start"), outcome
    errors = console.unexpected()
    assert [e for e in errors if e.startswith("uncaught")] == []
    if errors and failing.endswith("python_stdlib.zip"):
        assert errors[0] == STDLIB_REPORT, errors   # logged by Pyodide, then CPython's fatal error
    else:
        assert errors == []


def test_a_failed_preparation_is_said_in_the_players_language(browser, live_server):
    """The score screen's offer to score offline, failing, says so in the catalogue's words (it showed
    the worker's English reason, 'offline scoring could not start: Failed to fetch', on a Japanese phone)."""
    if not (VENDOR / "pyodide.asm.wasm").exists():
        pytest.skip("Pyodide is not installed in static/vendor (scripts/test installs it with npm)")
    context, console = new_phone(browser, live_server, service_workers="block", locale="ja-JP")
    context.route("**/pyodide/pyodide.asm.wasm", lambda route: route.abort("internetdisconnected"))
    console.allow_offline()
    page = context.new_page()
    page.goto("/#/score")
    page.click('[data-testid="prepare-offline"]')
    alert = page.locator(".offline-prep .field-error")
    expect(alert).to_be_visible(timeout=30_000)
    catalogue = json.loads((VENDOR.parents[1] / "i18n" / "ja.json").read_text())
    assert alert.inner_text() == catalogue["offline.failed"]
    expect(page.locator('[data-testid="prepare-offline"]')).to_be_enabled()  # and it can be asked again
    context.close()
    assert console.unexpected() == []
