"""Waits with the network cut: the waits screen and the photo screen's "is this a complete hand"
check ask the server's own engine run by Pyodide on the phone (offline-worker.js, message
{call: "waits"}), once the player made scoring work offline. The answers are compared with what
the server itself answered online for the same hand, not with values written here. A request that
cannot reach the server while the phone still says it is online (bad wifi) starts loading the
engine too."""
from __future__ import annotations

import json
import time

from playwright.sync_api import expect

from .conftest import ARTIFACTS, new_phone, screenshot
from .hand_helpers import check_state, fake_recognition, serve_recognition, upload
from .offline_helpers import needs_pyodide, prepare_offline

HAND = "2345666m234p567s"   # five waits, worth different amounts (pinfu, tanyao, both) on ron and tsumo


def waits_shown(page) -> list[dict]:
    """Each wait the screen lists: its tile and the text of its ron and tsumo lines."""
    return page.eval_on_selector_all(".waits-list li[data-wait]",
                                     "(els) => els.map((li) => ({tile: li.dataset.wait, text: li.innerText}))")


def test_the_waits_screen_lists_the_servers_waits_with_the_network_cut(browser, live_server):
    needs_pyodide()
    context, console = new_phone(browser, live_server)
    page = context.new_page()
    prepare_offline(page)

    # online: the hand typed on the waits screen, and the server's own answer to the page's request
    page.goto("/#/waits")
    page.click("summary:has-text('Type the tiles instead')")
    page.fill('[data-testid="typed-tiles"]', HAND)
    page.press('[data-testid="typed-tiles"]', "Enter")
    with page.expect_response("**/api/waits") as answer:
        page.click('[data-testid="analyse"]')
    api = answer.value.json()
    page.locator(".waits-list li").first.wait_for()
    online = waits_shown(page)
    heading = page.inner_text(".card[aria-label='Waits'] h2")
    assert [w["tile"] for w in online] == [w["tile"] for w in api["waits"]] and len(online) == 5
    assert len({(w["ron"]["total"], w["tsumo"]["total"]) for w in api["waits"]}) > 1, "waits worth different amounts"
    assert page.locator('[data-testid="waits-offline"]').count() == 0

    # the network cut, the app reloaded from the service worker's cache: the same hand, the same answer
    context.set_offline(True)
    console.allow_offline()
    page.reload()
    page.locator('[data-testid="analyse"]').wait_for()
    assert page.evaluate("navigator.onLine") is False
    started = time.monotonic()
    page.click('[data-testid="analyse"]')
    page.locator('[data-testid="waits-offline"]').wait_for(timeout=120_000)
    first_s = time.monotonic() - started   # the engine started loading when the screen opened offline
    offline = waits_shown(page)
    assert [w["tile"] for w in offline] == [w["tile"] for w in api["waits"]]
    assert offline == online, "each wait worth the same on ron and tsumo as the server said"
    assert page.inner_text(".card[aria-label='Waits'] h2") == heading
    screenshot(page, "waits-offline")
    page.locator(".waits-list li").last.scroll_into_view_if_needed()
    screenshot(page, "waits-offline-list")
    started = time.monotonic()
    page.click('[data-testid="analyse"]')   # again, the engine loaded
    page.locator('[data-testid="waits-offline"]').wait_for(timeout=60_000)
    again_s = time.monotonic() - started
    assert waits_shown(page) == online
    ARTIFACTS.parent.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS.parent / "offline-waits.json").write_text(json.dumps(
        {"hand": HAND, "first_offline_waits_seconds": round(first_s, 2), "warm_offline_waits_seconds": round(again_s, 2)}, indent=1))

    # a hand the engine refuses is refused offline as the server refuses it: same field, same words
    context.set_offline(False)
    refused = page.request.post(f"{live_server}/api/waits", data=json.dumps({"ruleset": "wrr", "hand": HAND[:-2] + "s"}),
                                headers={"Content-Type": "application/json"})
    assert refused.status == 422 and refused.json()["error"]["field"] == "hand"
    context.set_offline(True)
    page.locator(".hand-row .hand-tile").last.click()   # 12 tiles left
    page.click('[data-testid="analyse"]')
    expect(page.locator(".hand-editor .field-error:not(:empty)").first).to_have_text(refused.json()["error"]["message"], timeout=60_000)
    context.close()
    assert console.unexpected() == []


def test_the_photo_check_says_complete_or_not_with_the_network_cut(browser, live_server):
    needs_pyodide()
    context, console = new_phone(browser, live_server)
    page = context.new_page()
    prepare_offline(page)
    codes = ["2m", "3m", "4m", "0p", "6p", "7p", "3s", "4s", "5s", "1z", "1z", "5z", "5z", "5z"]
    serve_recognition(page, fake_recognition(codes, [list(range(14))]))
    page.goto("/#/photo")
    upload(page)
    assert check_state(page) == "complete"   # the server's check, online

    # the network drops while the player corrects the tiles: the phone's engine checks each correction
    context.set_offline(True)
    console.allow_offline()
    assert page.evaluate("navigator.onLine") is False
    page.click('[data-testid="detections"] button[data-det="13"]')
    page.click('dialog [data-fix="6z"]')
    banner = page.locator('[data-testid="hand-check"] .banner')
    expect(banner).to_have_attribute("data-state", "incomplete", timeout=120_000)
    screenshot(page, "photo-check-offline-incomplete")
    page.click('[data-testid="detections"] button[data-det="13"]')
    page.click('dialog [data-fix="5z"]')
    expect(banner).to_have_attribute("data-state", "complete", timeout=60_000)
    expect(banner).to_contain_text("complete hand")
    context.close()
    assert console.unexpected() == []


def test_without_offline_scoring_prepared_the_waits_screen_says_it_is_offline(phone):
    page, console = phone
    page.goto("/#/waits")
    page.click("summary:has-text('Type the tiles instead')")
    page.fill('[data-testid="typed-tiles"]', HAND)
    page.press('[data-testid="typed-tiles"]', "Enter")
    page.context.set_offline(True)
    console.allow_offline()
    page.click('[data-testid="analyse"]')
    expect(page.locator(".banner.error")).to_contain_text("offline")
    assert page.locator('[data-testid="waits-offline"]').count() == 0
    assert page.evaluate("import('/static/js/core/offline.js').then((m) => m.engineState())") == "cold"


ENGINE = "import('/static/js/core/offline.js').then((m) => m.engineState())"
CALL_API = """async () => {
  const { api, OfflineError } = await import('/static/js/core/api.js');
  try { await api('GET', '/healthz'); return 'reached'; } catch (err) { return err instanceof OfflineError ? 'offline' : String(err); }
}"""


def test_a_request_failing_while_the_phone_says_online_starts_warming_the_engine(phone):
    page, console = phone
    page.goto("/#/score")
    page.locator('[data-testid="score"]').wait_for()
    # bad wifi: the phone says it is online, but the request never reaches the server
    page.context.route("**/healthz", lambda route: route.abort("connectionfailed"))
    assert page.evaluate("navigator.onLine") is True
    # offline scoring not prepared: nothing to warm
    assert page.evaluate(CALL_API) == "offline"
    assert page.evaluate(ENGINE) == "cold"
    # prepared: the first failure starts loading it, with no score asked for yet
    page.evaluate("localStorage.setItem('tenbou.offline_scoring', 'true')")
    assert page.evaluate(CALL_API) == "offline"
    assert page.evaluate(ENGINE) in ("warming", "ready")
    console.errors[:] = [e for e in console.errors if "net::ERR_CONNECTION_FAILED" not in e]
