"""Offline at the table itself: the table screen offers to make scoring work offline (size, progress,
"ready", remembered); offline, one message says what the board shows; a game whose end is only
projected does not offer the next game; a hand corrected while still queued is sent as corrected and
the server's board is the projection."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import new_phone, screenshot
from .tables_helpers import (
    NAMES,
    VENDOR,
    api_table,
    board_numbers,
    create_table,
    expect_board,
    go_offline,
    go_online,
    projected,
    record_ron,
    save,
    still,
)

needs_pyodide = pytest.mark.skipif(not (VENDOR / "pyodide.asm.wasm").exists(),
                                   reason="Pyodide is not installed in static/vendor (scripts/test installs it with npm)")


def controlled(page):
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def one_message_offline(page):
    """Offline with hands waiting: the projection box is the only message about the board's state."""
    expect(page.locator('[data-testid="projection"]')).to_have_count(1)
    expect(page.locator('[data-testid="offline-banner"]')).to_have_count(0)
    expect(page.locator('[data-testid="projection"]')).to_contain_text("Offline")


@needs_pyodide
def test_the_table_screen_makes_scoring_work_offline_and_says_how_when_it_is_not(browser, live_server):
    context, console = new_phone(browser, live_server)
    console.allow_offline()
    page = context.new_page()
    table_id = create_table(page)
    controlled(page)
    before = api_table(page, live_server, table_id)
    offer = page.locator('[data-testid="table-prepare-offline"]')
    expect(offer).to_contain_text("5 MB")
    offer.scroll_into_view_if_needed()
    screenshot(page, "offline-table-offer")

    # not made ready: offline, a hand is queued and the board says how to have it next time, in one message
    go_offline(context, page)
    expect(offer).to_have_count(0)   # it needs the network: not offered offline
    save(record_ron(page, 1, 3, 1, 30))
    banner = page.locator('[data-testid="projection"][data-state="unavailable"]')
    expect(banner).to_contain_text("Next time, while online, tap “Make scoring work offline” on the table screen", timeout=60_000)
    one_message_offline(page)
    expect_board(page, before)
    still(page, top=True)
    screenshot(page, "offline-table-unavailable")
    page.click("#lang-toggle")
    expect(banner).to_contain_text("卓の画面で「オフラインでも計算できるようにする」")
    screenshot(page, "offline-table-unavailable-ja")
    page.click("#lang-toggle")

    # back online the hand goes in; one tap on the table screen downloads the engine, with its progress
    go_online(context, page)
    expect(page.locator('[data-testid="pending"]')).to_have_count(0, timeout=20_000)
    offer.click()
    expect(page.locator('[data-testid="offline-progress-text"]')).to_be_visible()
    expect(page.locator('[data-testid="table-offline"] [data-testid="offline-ready"]')).to_be_visible(timeout=120_000)
    still(page)
    screenshot(page, "offline-table-ready")
    assert page.evaluate("JSON.parse(localStorage.getItem('tenbou.offline_scoring'))") is True
    # remembered: the score screen says so too, and the table does not offer it again
    page.goto("/#/score")
    expect(page.locator('[data-testid="offline-ready"]')).to_be_visible()
    page.goto(f"/#/table/{table_id}")
    page.reload()
    expect(page.locator('[data-testid="record-hand"]')).to_be_visible()
    expect(page.locator('[data-testid="table-offline"]')).to_have_count(0)

    # and offline the board now moves forward
    go_offline(context, page)
    page.reload()
    save(record_ron(page, 0, 2, 2, 30))
    projected(page, 1)
    one_message_offline(page)
    expect(page.locator('[data-testid="unsent"]')).to_have_count(1)
    go_online(context, page)
    expect(page.locator('[data-testid="pending"]')).to_have_count(0, timeout=20_000)
    expect_board(page, api_table(page, live_server, table_id), timeout=10_000)
    context.close()
    assert console.unexpected() == []


@needs_pyodide
def test_a_queued_hand_corrected_offline_is_sent_corrected_and_the_server_board_is_the_projection(browser, live_server):
    context, console = new_phone(browser, live_server)
    console.allow_offline()
    page = context.new_page()
    page.on("dialog", lambda d: d.accept())
    table_id = create_table(page)
    controlled(page)
    # made ready on the score screen this time (the same flag as the table's offer)
    page.goto("/#/score")
    page.click('[data-first-ruleset="wrr"]')
    page.click('[data-testid="prepare-offline"]')
    expect(page.locator('[data-testid="offline-ready"]')).to_be_visible(timeout=120_000)
    page.goto(f"/#/table/{table_id}")
    expect(page.locator('[data-testid="record-hand"]')).to_be_visible()
    expect(page.locator('[data-testid="table-offline"]')).to_have_count(0)

    go_offline(context, page)
    save(record_ron(page, 1, 3, 1, 30, riichi=[0]))
    projected(page, 1)
    save(record_ron(page, 2, 0, 3, 40))
    projected(page, 2)
    wrong = board_numbers(page)

    # the first hand is still on this phone: it was 2 han, not 1 — corrected before it is sent
    page.click('[data-hand="0"] button:has-text("Correct")')
    sheet = page.locator("dialog[open]")
    sheet.locator('[data-testid="han-3"]').select_option("2")
    save(sheet)
    projected(page, 3)
    expect(page.locator('[data-testid="unsent"]')).to_have_count(2)
    corrected = board_numbers(page)
    assert corrected["scores"] != wrong["scores"]

    # the game is ended offline: the end is only projected, so the next game waits, and says why
    page.click('[data-testid="end-now"]')
    projected(page, 4)
    expect(page.locator('[data-testid="round"]')).to_have_text("Game over")
    next_game = page.locator('[data-testid="next-game"]')
    expect(next_game).to_be_disabled()
    expect(page.locator('[data-testid="next-game-wait"]')).to_contain_text("once this phone's hands are sent")
    # one message about the board offline, not a second "last known state" above it
    one_message_offline(page)
    ended = board_numbers(page)
    still(page, top=True)
    screenshot(page, "offline-table-ended")
    next_game.scroll_into_view_if_needed()
    screenshot(page, "offline-table-next-wait")
    page.click("#lang-toggle")
    expect(page.locator('[data-testid="next-game-wait"]')).to_contain_text("送信してから次の対局")
    expect(page.locator('[data-testid="projection"]')).to_contain_text("オフラインです")
    still(page, top=True)
    screenshot(page, "offline-table-ended-ja")
    next_game.scroll_into_view_if_needed()
    screenshot(page, "offline-table-next-wait-ja")
    page.click("#lang-toggle")
    projected(page, 4)

    # back online: everything is sent, in order, the correction included, and the board is the projection
    go_online(context, page)
    expect(page.locator('[data-testid="pending"]')).to_have_count(0, timeout=30_000)
    expect(page.locator('[data-testid="conflict"]')).to_have_count(0)
    expect(page.locator('[data-testid="unsent"]')).to_have_count(0)
    server = api_table(page, live_server, table_id)
    assert [h["result"] for h in server["hands"]] == ["ron", "ron", "end"]
    assert server["hands"][0]["winners"][0]["value"] == {"han": 2, "fu": 30}
    expect_board(page, server, timeout=10_000)
    assert board_numbers(page) == ended
    assert [str(s) for s in server["state"]["scores"]] == ended["scores"]
    # the next game is offered again, now that the end is the server's
    expect(next_game).to_be_enabled()
    expect(page.locator('[data-testid="next-game-wait"]')).to_have_count(0)
    assert NAMES[0] in server["players"]
    context.close()
    assert console.unexpected() == []
