"""Live tables in the browser: create, record every kind of hand, undo, correct, share, two phones
on one table, a conflicting edit, offline use and installability."""
from __future__ import annotations

import json
import re
import time

import pytest
from playwright.sync_api import expect

from .conftest import new_phone, press, screenshot, unlabelled_controls
from .tables_helpers import (
    NAMES,
    api_table,
    create_table,
    expect_board,
    go_offline,
    go_online,
    offline_capable_table,
    open_sheet,
    record_ron,
    save,
)


def test_table_records_every_kind_of_hand_and_matches_the_api(phone, live_server):
    page, console = phone
    page.goto("/#/tables")
    screenshot(page, "tables")
    table_id = create_table(page)
    table = api_table(page, live_server, table_id)
    expect_board(page, table)
    assert table["players"] == NAMES
    expect(page.locator('.seat.dealer [data-testid="seat-score-0"]')).to_have_count(1)
    screenshot(page, "table-new")

    # ron: Chie wins 3 han 40 fu from Aiko, Ben declared riichi
    assert unlabelled_controls(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    sheet = record_ron(page, 0, 2, 3, 40, riichi=[1])
    # before Record: who pays what, and where the stick goes
    preview = sheet.locator('[data-testid="preview"]')
    expect(preview).to_contain_text("Aiko pays Chie 5200 (for the hand)")
    expect(preview).to_contain_text("Ben puts 1000 on the table (riichi stick)")
    expect(preview).to_contain_text("Chie takes 1000 from the table")
    expect(preview.locator('[data-delta="2"]')).to_have_text("Chie +6200")
    expect(preview).to_contain_text("Then: East 2, 0 honba, 0 riichi sticks")
    expect(sheet.locator('[data-testid="preview-summary"]')).to_have_text("Aiko −5200Ben −1000Chie +6200Dan ±0")
    assert unlabelled_controls(page) == []
    screenshot(page, "record-ron-sheet")
    save(sheet)
    table = api_table(page, live_server, table_id)
    assert table["hands"][-1]["result"] == "ron" and table["hands"][-1]["winners"][0]["points"] == 5200
    expect_board(page, table)

    # tsumo: the value comes from the hand entered with the picker (the quick-score flow)
    sheet = open_sheet(page, "tsumo")
    sheet.locator('input[name="winner"][value="1"]').check()
    sheet.locator('input[name="value-mode-1"][value="hand"]').check()
    for tile in ["2m", "3m", "4m", "0p", "6p", "7p", "3s", "4s", "5s", "1z", "1z", "5z", "5z", "5z"]:
        sheet.locator(f'[data-tile="{tile}"]').click()
    sheet.locator('[data-testid="check-hand-1"]').click()
    expect(sheet.locator('[data-testid="hand-value-1"]')).to_contain_text("haku")
    screenshot(page, "record-tsumo-hand")
    save(sheet)
    table = api_table(page, live_server, table_id)
    last = table["hands"][-1]
    assert last["result"] == "tsumo" and last["winners"][0]["seat"] == 1 and "hand" in last["winner"]["value"]
    expect_board(page, table)

    # exhaustive draw, Aiko and Chie tenpai
    sheet = open_sheet(page, "draw")
    sheet.locator('input[name="tenpai"][data-seat="0"]').check()
    sheet.locator('input[name="tenpai"][data-seat="2"]').check()
    save(sheet)
    table = api_table(page, live_server, table_id)
    assert table["hands"][-1]["result"] == "draw"
    assert table["hands"][-1]["deltas"] == [1500, -1500, 1500, -1500]
    expect_board(page, table)

    # chombo by Dan: under WRR a penalty settled at the end, shown before Record and on the board
    sheet = open_sheet(page, "chombo")
    sheet.locator('input[name="chombo"][value="3"]').check()
    expect(sheet.locator('[data-testid="preview"]')).to_contain_text("Dan: a 20000 point penalty, settled at the end")
    save(sheet)
    expect(page.locator('[data-testid="penalties"]')).to_have_text("Penalties settled at the end: Dan −20000.")
    table = api_table(page, live_server, table_id)
    assert table["hands"][-1]["result"] == "chombo"
    expect_board(page, table)
    assert page.locator("[data-hand]").count() == 4
    screenshot(page, "table-history", full_page=True)

    # undo the chombo
    page.once("dialog", lambda d: d.accept())
    page.click('[data-testid="undo"]')
    expect(page.locator("[data-hand]")).to_have_count(3)
    table = api_table(page, live_server, table_id)
    assert [h["result"] for h in table["hands"]] == ["ron", "tsumo", "draw"]
    expect_board(page, table)

    # correct the first hand: 3 han 30 fu instead of 40
    page.click('[data-hand="0"] button:has-text("Correct")')
    sheet = page.locator("dialog[open]")
    sheet.locator('[data-testid="fu-2"]').select_option("30")
    save(sheet)
    table = api_table(page, live_server, table_id)
    assert table["hands"][0]["winners"][0]["points"] == 3900
    expect_board(page, table)

    # export as CSV and JSON
    for fmt in ("csv", "json"):
        href = page.locator(f'a[href$="format={fmt}"]').get_attribute("href")
        resp = page.request.get(live_server + href)
        assert resp.ok and NAMES[2] in resp.text()

    # point differences on tap
    page.click('[data-seat="0"]')
    diff = table["state"]["scores"][2] - table["state"]["scores"][0]
    expect(page.locator('[data-seat="2"] .diff')).to_have_text(("+" if diff > 0 else "−") + str(abs(diff)))
    screenshot(page, "table-differences")


def test_invalid_table_hand_is_explained_in_the_sheet(phone, live_server):
    page, console = phone
    console.allow(422)
    create_table(page)
    sheet = open_sheet(page, "ron")
    sheet.locator('[data-testid="save-hand"]').click()
    expect(sheet.locator(".field-error")).to_contain_text("discarded")   # checked before sending
    sheet.locator('input[name="from"][value="1"]').check()
    sheet.locator('input[name="winner"][value="2"]').check()
    sheet.locator('input[name="value-mode-2"][value="hand"]').check()
    for tile in ["1m", "2m", "3m"]:
        sheet.locator(f'[data-tile="{tile}"]').click()
    sheet.locator('[data-testid="check-hand-2"]').click()
    expect(sheet.locator(".hand-editor .entry-bar .field-error").first).to_contain_text("14")


def read_qr(locator, tries: int = 10) -> str:
    """What a camera reads from the QR code on screen: a screenshot taken while the share dialog is
    still opening (or the code is being redrawn) can decode as nothing, so read a few frames."""
    cv2 = pytest.importorskip("cv2")
    import numpy as np

    decoded = ""
    for _ in range(tries):
        image = cv2.imdecode(np.frombuffer(locator.screenshot(), np.uint8), cv2.IMREAD_COLOR)
        # a white quiet zone and twice the size, as a camera sees it: OpenCV's detector misses
        # some codes cropped tight to the element's box
        image = cv2.resize(cv2.copyMakeBorder(image, 32, 32, 32, 32, cv2.BORDER_CONSTANT, value=(255, 255, 255)),
                           None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST)
        decoded = cv2.QRCodeDetector().detectAndDecode(image)[0] or cv2.QRCodeDetectorAruco().detectAndDecode(image)[0]
        if decoded:
            break
        time.sleep(0.2)
    return decoded


def test_share_link_and_qr_code(phone, live_server):
    page, console = phone
    table_id = create_table(page)
    page.click('[data-testid="share"]')
    qr = page.locator('[data-testid="qr"]')
    link = qr.get_attribute("data-link")
    table = api_table(page, live_server, table_id)
    token = json.loads(page.evaluate("localStorage.getItem('tenbou.tables')"))[table_id]["edit_token"]
    assert link.endswith(f"/t/{table_id}#token={token}")
    screenshot(page, "share")
    assert read_qr(qr) == link
    # the read-only link for spectators
    page.locator('input[name="share-kind"][value="watch"]').check()
    watch = page.locator('[data-testid="qr"]').get_attribute("data-link")
    assert watch.endswith(f"/t/{table['share_code']}")
    assert read_qr(page.locator('[data-testid="qr"]')) == watch


def test_second_phone_sees_updates_and_a_conflicting_edit_is_explained(phone, second_phone, browser, live_server):
    page, _ = phone
    other, other_console = second_phone
    other_console.allow(409)
    table_id = create_table(page)
    page.click('[data-testid="share"]')
    edit_link = page.locator('[data-testid="qr"]').get_attribute("data-link")
    page.keyboard.press("Escape")

    other.goto(edit_link)
    expect(other.locator('[data-testid="record-hand"]')).to_be_visible()
    assert "token" not in other.url          # the token leaves the address bar once stored
    # the second phone starts entering a chombo while the first records a ron
    other_sheet = open_sheet(other, "chombo")
    other_sheet.locator('input[name="chombo"][value="1"]').check()
    save(record_ron(page, 3, 0, 2, 30))
    table = api_table(page, live_server, table_id)
    expect_board(other, table, timeout=10_000)   # polled within a few seconds
    screenshot(other, "second-phone-updated")
    other_sheet.locator('[data-testid="save-hand"]').click()
    conflict = other.locator('[data-testid="conflict"]')
    expect(conflict).to_contain_text("Another phone changed the table")
    expect(conflict).to_contain_text("Ron")
    screenshot(other, "conflict")
    # closing the sheet without a choice keeps the entry on the phone, to record or discard later
    other.keyboard.press("Escape")
    kept = other.locator('[data-testid="conflict"]')
    expect(kept).to_contain_text("Not recorded: Chombo: Ben")
    assert api_table(page, live_server, table_id)["version"] == table["version"]
    kept.locator("button", has_text="Record it now").click()
    expect(other.locator('[data-testid="conflict"]')).to_have_count(0)
    table = api_table(page, live_server, table_id)
    assert table["hands"][-1]["result"] == "chombo" and table["hands"][-1]["seat"] == 1
    expect_board(other, table)

    # a spectator link, on a third phone, shows the table read-only
    context, console = new_phone(browser, live_server)
    spectator = context.new_page()
    spectator.goto(f"/t/{table['share_code']}")
    expect_board(spectator, table)
    expect(spectator.locator("main")).to_contain_text("watching")
    expect(spectator.locator('[data-testid="record-hand"]')).to_have_count(0)
    expect(spectator.locator('[data-testid="undo"]')).to_have_count(0)
    context.close()
    assert console.unexpected() == []


def test_standings_when_the_game_is_over(phone, live_server):
    page, console = phone
    created = page.request.post(f"{live_server}/api/tables", data=json.dumps({"ruleset": "tenhou", "players": NAMES}),
                                headers={"Content-Type": "application/json"}).json()
    resp = page.request.post(f"{live_server}/api/tables/{created['id']}/hands", headers={
        "Content-Type": "application/json", "Authorization": f"Bearer {created['edit_token']}", "If-Match": str(created["version"])},
        data=json.dumps({"result": "ron", "from_seat": 1, "winners": [{"seat": 0, "value": {"yakuman": 1}}], "riichi": []}))
    table = resp.json()
    assert table["state"]["finished"], "a dealer yakuman busts the discarder under Tenhou rules"
    page.goto(f"/t/{created['id']}#token={created['edit_token']}")
    standings = page.locator('[data-testid="standings"]')
    expect(standings).to_be_visible()
    first = table["state"]["standings"][0]
    assert NAMES[first["seat"]] in standings.locator("tbody tr").first.inner_text()
    expect(page.locator('[data-testid="round"]')).to_have_text("Game over")
    standings.scroll_into_view_if_needed()
    screenshot(page, "standings")


def test_app_opens_offline_and_queues_hands(browser, live_server):
    context, console = new_phone(browser, live_server)
    console.allow(409)
    console.allow_offline()
    page = context.new_page()
    table_id = create_table(page)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    table = api_table(page, live_server, table_id)

    context.set_offline(True)
    page.goto("/#/score")
    page.reload()
    expect(page.locator('[data-tile="5m"]')).to_be_visible()
    page.goto(f"/#/table/{table_id}")
    expect(page.locator('[data-testid="offline-banner"]')).to_be_visible()
    expect_board(page, table)
    screenshot(page, "offline-table")

    # a hand recorded offline waits on the phone, and is sent once back online
    save(record_ron(page, 1, 3, 1, 30))
    expect(page.locator('[data-testid="pending"]')).to_contain_text("1 hand waiting to be sent: Ron: Dan (1 han 30 fu) from Ben")
    context.set_offline(False)
    expect(page.locator('[data-testid="pending"]')).to_have_count(0, timeout=10_000)
    table = api_table(page, live_server, table_id)
    assert table["hands"][-1]["winners"][0]["seat"] == 3
    expect_board(page, table, timeout=10_000)

    # offline again, two hands; meanwhile another phone records a hand: the first queued one becomes
    # a conflict, and so does the one recorded on top of it (it does not wait forever behind it)
    context.set_offline(True)
    page.evaluate("window.dispatchEvent(new Event('offline'))")
    save(record_ron(page, 0, 1, 2, 30))
    save(record_ron(page, 2, 0, 1, 30))
    expect(page.locator('[data-testid="pending"]')).to_contain_text("2 hands waiting to be sent")
    token = json.loads(page.evaluate('localStorage.getItem("tenbou.tables")'))[table_id]["edit_token"]
    resp = page.request.post(f"{live_server}/api/tables/{table_id}/hands", headers={
        "Content-Type": "application/json", "Authorization": f"Bearer {token}", "If-Match": str(table["version"])},
        data=json.dumps({"result": "draw", "tenpai": [], "riichi": []}))
    assert resp.ok
    context.set_offline(False)
    conflict = page.locator('[data-testid="conflict"]')
    expect(conflict).to_have_count(2, timeout=10_000)
    expect(page.locator('[data-testid="pending"]')).to_have_count(0)
    expect(conflict.first).to_contain_text("Not recorded: Ron: Ben (2 han 30 fu) from Aiko")
    expect(conflict.first).to_contain_text("The table changed before this was recorded")
    expect(conflict.last).to_contain_text("Not recorded: Ron: Aiko (1 han 30 fu) from Chie")
    expect(conflict.last).to_contain_text("It was entered after a hand that could not be recorded")
    screenshot(page, "offline-conflict")
    for _ in range(2):
        conflict.first.locator("button", has_text="Discard it").click()
    expect(conflict).to_have_count(0)
    assert len(api_table(page, live_server, table_id)["hands"]) == 2
    context.close()
    assert console.unexpected() == []


def test_manifest_and_service_worker_meet_the_installability_criteria(profile_phone, live_server):
    page, console = profile_phone
    page.goto("/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == [], manifest["errors"]
    assert manifest["url"].endswith("/manifest.webmanifest")
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors == []


def test_dark_theme_scoreboard(browser, live_server):
    context, console = new_phone(browser, live_server, color_scheme="dark")
    page = context.new_page()
    create_table(page)
    bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert bg == "rgb(16, 19, 24)"
    screenshot(page, "table-dark")
    page.goto("/#/score")
    screenshot(page, "quick-score-dark")
    context.close()
    assert console.unexpected() == []


def test_double_ron_abortive_draw_and_pao_under_ema(phone, live_server):
    page, console = phone
    table_id = create_table(page, ruleset="ema")
    # two winners on one discard (EMA allows up to three)
    sheet = open_sheet(page, "ron")
    sheet.locator('input[name="from"][value="0"]').check()
    sheet.locator('input[name="winner"][data-seat="1"]').check()
    sheet.locator('input[name="winner"][data-seat="2"]').check()
    sheet.locator('[data-testid="han-1"]').select_option("2")
    sheet.locator('[data-testid="han-2"]').select_option("3")
    screenshot(page, "record-double-ron")
    save(sheet)
    table = api_table(page, live_server, table_id)
    assert [w["seat"] for w in table["hands"][-1]["winners"]] == [1, 2]
    expect_board(page, table)

    # abortive draw: four winds
    sheet = open_sheet(page, "abort")
    sheet.locator('input[name="abort-kind"][value="four_winds"]').check()
    save(sheet)
    table = api_table(page, live_server, table_id)
    assert table["hands"][-1]["result"] == "abort" and table["hands"][-1]["kind"] == "four_winds"
    expect_board(page, table)

    # a yakuman tsumo with Aiko liable (pao): she pays it all
    sheet = open_sheet(page, "tsumo")
    sheet.locator('input[name="winner"][value="3"]').check()
    sheet.locator('input[name="value-mode-3"][value="limit"]').check()
    sheet.locator('input[name="limit-3"][value="y1"]').check()
    sheet.locator('select[name="pao-3"]').select_option("0")
    save(sheet)
    table = api_table(page, live_server, table_id)
    deltas = table["hands"][-1]["deltas"]
    assert deltas[1] == deltas[2] == 0 and deltas[0] < 0 < deltas[3]
    expect_board(page, table)

    # the phone remembers the table
    page.goto("/#/tables")
    expect(page.locator(f'.table-list a[href="#/table/{table_id}"]')).to_contain_text("Aiko · Ben · Chie · Dan")


def test_house_rules_at_table_creation(phone, live_server):
    page, console = phone
    page.goto("/#/tables")
    page.select_option('[data-testid="table-ruleset"]', "wrr")
    page.locator("summary", has_text="Adjust the rules").click()
    rules = page.locator(".rules")
    # a short grouped screen in plain words: no clause notes, no internal names, the rarer rules folded away
    assert [h.inner_text() for h in rules.locator("h3").all()] == [
        "Points and the end of the game", "Dora", "Yaku and limits", "Wins, draws and penalties"]
    text = rules.inner_text()
    assert "_" not in text and not re.search(r"\b\d+\.\d+(\.\d+)?\b", text), text
    assert "Nine terminals" in text
    expect(rules.locator("details:has(summary:has-text('More rules'))")).not_to_have_attribute("open", "")
    page.locator('input[name="rule-kiriage"]').check()
    page.fill('input[name="rule-start_points"]', "25000")
    riichi_stick = page.locator('input[name="rule-riichi_stick"]')   # the range the server enforces
    assert (riichi_stick.get_attribute("min"), riichi_stick.get_attribute("max"), riichi_stick.get_attribute("step")) == ("100", "10000", "100")
    screenshot(page, "house-rules")
    for i, name in enumerate(NAMES):
        page.fill(f'[data-testid="player-{i}"]', name)
    page.click('[data-testid="create-table"]')
    page.wait_for_url(re.compile(r"#/table/[\w-]+$"))
    table = api_table(page, live_server, page.url.rsplit("/", 1)[1])
    assert table["rules"] == {"kiriage": True, "start_points": 25000}
    expect_board(page, table)


def test_several_hands_recorded_offline_are_all_sent_in_order(browser, live_server):
    context, console, page, table_id = offline_capable_table(browser, live_server)
    context.set_offline(True)
    page.evaluate("window.dispatchEvent(new Event('offline'))")
    save(record_ron(page, 1, 3, 1, 30))
    sheet = open_sheet(page, "draw")
    sheet.locator('input[name="tenpai"][data-seat="2"]').check()
    save(sheet)
    save(record_ron(page, 0, 2, 2, 40))
    expect(page.locator('[data-testid="pending"]')).to_contain_text("3 hands waiting to be sent")
    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator('[data-testid="pending"]')).to_have_count(0, timeout=10_000)
    expect(page.locator('[data-testid="conflict"]')).to_have_count(0)
    table = api_table(page, live_server, table_id)
    assert [h["result"] for h in table["hands"]] == ["ron", "draw", "ron"]
    assert table["hands"][0]["winners"][0]["seat"] == 3 and table["hands"][2]["winners"][0]["seat"] == 2
    expect_board(page, table, timeout=10_000)
    context.close()


def test_undo_takes_back_a_hand_still_on_the_phone_even_offline(browser, live_server):
    """A hand recorded offline is a mistake: undo takes it back from this phone (it was never sent),
    names that hand rather than the server's last, and leaves the server's hands alone. With nothing
    waiting, undo acts on the server's last hand again."""
    context, console, page, table_id = offline_capable_table(browser, live_server)
    save(record_ron(page, 1, 3, 1, 30))        # Dan's ron, on the server
    go_offline(context, page)
    save(record_ron(page, 0, 2, 2, 40))        # Chie's ron, on this phone only
    sheet = open_sheet(page, "draw")
    sheet.locator('input[name="tenpai"][data-seat="1"]').check()
    save(sheet)                                # a draw on top of it, Ben tenpai
    pending = page.locator('[data-testid="pending"]')
    expect(pending).to_contain_text("2 hands waiting to be sent")
    undo = page.locator('[data-testid="undo"]')
    expect(undo).to_have_text("Take back last change")   # not "Undo last hand": the newest change is on this phone
    undo.scroll_into_view_if_needed()
    screenshot(page, "undo-queued")

    asked = []
    page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    page.click('[data-testid="undo"]')
    expect(pending).to_contain_text("1 hand waiting to be sent")
    expect(page.locator("#toast")).to_contain_text("Taken back. It had not been sent.")
    screenshot(page, "undo-taken-back")
    assert "not sent yet" in asked[0] and "Draw: tenpai Ben" in asked[0]   # the newest change

    page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    page.click('[data-testid="undo"]')
    expect(pending).to_have_count(0)
    assert "Chie" in asked[1] and "Dan" not in asked[1]
    expect(undo).to_have_text("Undo last hand")
    assert json.loads(page.evaluate("localStorage.getItem('tenbou.queue') || '[]'")) == []

    # back online nothing is sent, and the server's hand is still there
    go_online(context, page)
    table = api_table(page, live_server, table_id)
    assert [h["winners"][0]["seat"] for h in table["hands"]] == [3]
    expect(page.locator(".history li")).to_have_count(1)
    page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    page.click('[data-testid="undo"]')
    expect(page.locator(".history li")).to_have_count(0)
    assert "Dan" in asked[2] and api_table(page, live_server, table_id)["hands"] == []
    context.close()
    assert console.unexpected() == []


def stored_token(page, table_id):
    return json.loads(page.evaluate("localStorage.getItem('tenbou.tables')"))[table_id]["edit_token"]


def test_a_link_with_someone_elses_token_never_overwrites_a_working_one(phone, live_server):
    page, console = phone
    table_id = create_table(page)
    mine = stored_token(page, table_id)
    for choice in ("keep-token", "use-link-token"):
        page.goto("/#/tables")
        page.goto(f"/t/{table_id}#token=someone-elses-token")
        banner = page.locator('[data-testid="token-choice"]')
        expect(banner).to_be_visible()
        assert stored_token(page, table_id) == mine          # nothing replaced until the player says so
        if choice == "keep-token":
            screenshot(page, "token-choice")
        banner.locator(f'[data-testid="{choice}"]').click()
        expect(banner).to_have_count(0)
        assert stored_token(page, table_id) == (mine if choice == "keep-token" else "someone-elses-token")
    # the same token in a link asks nothing
    page.goto("/#/tables")
    page.goto(f"/t/{table_id}#token=someone-elses-token")
    expect(page.locator('[data-testid="round"]')).to_be_visible()
    expect(page.locator('[data-testid="token-choice"]')).to_have_count(0)
    assert console.unexpected() == []


def test_a_damaged_record_stored_before_the_checks_does_not_break_the_table_screen(phone, live_server, monkeypatch):
    import game.ledger
    import services.tables

    page, console = phone
    response = page.request.post(f"{live_server}/api/tables", data=json.dumps({"ruleset": "wrr", "players": NAMES}),
                                 headers={"Content-Type": "application/json"})
    # once in a full run (2026-12-06) this answer held no edit_token; what it held was not kept
    assert response.status == 201, f"{response.status} {response.text()}"
    created = response.json()
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {created['edit_token']}"}
    lenient = lambda body, strict=True: dict(body) if isinstance(body, dict) else body  # noqa: E731  (the old code)
    monkeypatch.setattr(game.ledger, "clean_hand", lenient)
    monkeypatch.setattr(services.tables, "clean_hand", lenient)
    for version, hand in enumerate(({"result": "ron", "from_seat": 1, "winners": [{"seat": 0, "value": {"han": 2, "fu": 30}}],
                                     "riichi": [], "index": 7, "deltas": "x"},
                                    {"result": "end", "riichi": "x", "winners": "y"}), start=1):
        resp = page.request.post(f"{live_server}/api/tables/{created['id']}/hands", headers={**headers, "If-Match": f'"{version}"'},
                                 data=json.dumps(hand))
        assert resp.ok, resp.text()
    monkeypatch.undo()
    page.goto(f"/t/{created['id']}#token={created['edit_token']}")
    history = page.locator(".history li")
    expect(history).to_have_count(2)
    expect(page.locator('[data-testid="round"]')).to_have_text("Game over")
    expect(history.nth(1)).to_have_attribute("data-hand", "0")
    screenshot(page, "damaged-record")
    page.once("dialog", lambda d: d.accept())
    page.click('[data-testid="undo"]')
    expect(page.locator('[data-testid="record-hand"]')).to_be_visible()
    expect(page.locator(".history li")).to_have_count(1)
    assert console.unexpected() == []


def test_a_hand_refused_with_503_waits_in_the_queue_and_goes_in_by_itself(phone, live_server):
    """Storage down for a moment (503 + Retry-After, issue 24): the hand is kept on the phone, and the
    queue sends it again by itself once the server takes it, with no tap and no network change."""
    page, console = phone
    console.allow(503)
    console.allow_offline()
    table_id = create_table(page)
    refused = []

    def storage_down(route):
        if route.request.method == "POST" and len(refused) < 2:
            refused.append(route.request.headers.get("if-match"))
            route.fulfill(status=503, headers={"Retry-After": "5", "Content-Type": "application/json"},
                          body=json.dumps({"error": {"field": None, "code": "unavailable", "message": "storage down",
                                                     "detail": {"id": "storage_unavailable", "params": {}}}}))
        else:
            route.continue_()

    page.route(re.compile(r".*/api/tables/[^/]+/hands$"), storage_down)
    save(record_ron(page, 1, 3, 1, 30))
    expect(page.locator('[data-testid="pending"]')).to_contain_text("1 hand waiting to be sent", timeout=10_000)
    expect(page.locator('[data-testid="pending"]')).to_have_count(0, timeout=20_000)
    table = api_table(page, live_server, table_id)
    assert len(table["hands"]) == 1 and table["hands"][0]["winners"][0]["seat"] == 3
    assert refused and all(v == '"1"' for v in refused)   # sent with If-Match each time
    assert console.unexpected() == []


def test_a_hand_whose_answer_is_lost_is_sent_again_and_recorded_once(phone, live_server):
    """The wifi drops after the server stored a hand: the phone never gets the answer, so it keeps
    the hand and sends it again by itself. Sent with the same Idempotency-Key, it is answered with
    the table: no conflict to resolve, and the hand is on the table once, not twice."""
    page, console = phone
    console.allow_failure("net::ERR_CONNECTION_RESET")
    table_id = create_table(page)
    sent = []

    def answer_lost(route):
        if route.request.method != "POST":
            route.continue_()
            return
        sent.append((route.request.headers.get("idempotency-key"), route.request.headers.get("if-match")))
        if len(sent) == 1:
            stored = route.fetch()   # the server stores the hand...
            assert stored.ok, stored.text()
            route.abort("connectionreset")   # ...and its answer never reaches the phone
        else:
            route.continue_()

    page.route(re.compile(r".*/api/tables/[^/]+/hands$"), answer_lost)
    save(record_ron(page, 1, 3, 1, 30))
    expect(page.locator('[data-testid="pending"]')).to_have_count(0, timeout=20_000)
    expect(page.locator('.history li')).to_have_count(1)
    expect(page.locator('[data-testid="conflict"]')).to_have_count(0)
    table = api_table(page, live_server, table_id)
    assert len(table["hands"]) == 1 and table["version"] == 2
    assert len(sent) == 2 and sent[0] == sent[1], sent   # the same key, on the same version, both times
    assert sent[0][0] and sent[0][1] == '"1"'
    assert console.unexpected() == []


def test_a_hand_with_no_answer_is_kept_on_the_phone_and_goes_in_once(phone, live_server):
    """The server stores the hand but its answer never comes (a wifi that hangs rather than drops):
    after 15 s the phone stops waiting, closes the sheet with the hand kept on the phone, and sends it
    again by itself. Record is not left greyed out, and the hand is on the table once."""
    page, console = phone
    page.clock.install()   # the 15 s pass at once (fast_forward); the rest of the time runs as it does
    table_id = create_table(page)
    held = []

    def no_answer(route):
        if route.request.method == "POST" and not held:
            stored = route.fetch()   # the server stores the hand; the answer is held, never given
            assert stored.ok, stored.text()
            held.append(route)
        else:
            route.continue_()

    page.route(re.compile(r".*/api/tables/[^/]+/hands$"), no_answer)
    # every toast said, kept: the queue may send the hand before a check could read the first one
    page.evaluate("""() => { window.toasts = []; const el = document.getElementById("toast");
        new MutationObserver(() => window.toasts.push(el.textContent)).observe(el, {childList: true, characterData: true, subtree: true}); }""")
    sheet = record_ron(page, 1, 3, 1, 30)
    sheet.locator('[data-testid="save-hand"]').click()
    expect(sheet.locator('[data-testid="save-hand"]')).to_be_disabled()
    deadline = time.monotonic() + 10
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert held, "the hand was not sent"
    page.clock.fast_forward(16_000)
    expect(sheet).to_have_count(0)
    expect(page.locator('[data-testid="pending"]')).to_have_count(0, timeout=20_000)
    expect(page.locator(".history li")).to_have_count(1)
    expect(page.locator('[data-testid="conflict"]')).to_have_count(0)
    table = api_table(page, live_server, table_id)
    assert len(table["hands"]) == 1 and table["version"] == 2
    said = page.evaluate("window.toasts")
    saved = next(i for i, text in enumerate(said) if text.startswith("Saved on this phone"))
    assert "A hand recorded offline was sent." in said[saved:], said
    assert console.unexpected() == []


def test_an_event_games_next_game_is_left_to_the_organiser(phone, live_server):
    """A phone holding only the table's token is not offered "next game" for a game of an event
    (the server refuses it with 403, issue 24): it says the organiser starts it."""
    page, console = phone
    ev = page.request.post(f"{live_server}/api/events", data=json.dumps({"name": "Club", "players": NAMES}),
                           headers={"Content-Type": "application/json"}).json()
    org = {"Content-Type": "application/json", "Authorization": f"Bearer {ev['organiser_token']}"}
    game = page.request.post(f"{live_server}/api/events/{ev['id']}/games", data=json.dumps({"players": [0, 1, 2, 3]}),
                             headers={**org, "If-Match": f'"{ev["version"]}"'}).json()["new_games"][0]
    resp = page.request.post(f"{live_server}/api/tables/{game['id']}/hands", data=json.dumps({"result": "end"}),
                             headers={**org, "If-Match": '"1"'})
    assert resp.ok, resp.text()
    page.goto(f"/t/{game['id']}#token={game['edit_token']}")
    expect(page.locator('[data-testid="round"]')).to_have_text("Game over")
    expect(page.locator('[data-testid="next-by-organiser"]')).to_contain_text("its organiser starts the next game")
    expect(page.locator('[data-testid="next-game"]')).to_have_count(0)
    assert console.unexpected() == []


def _hold_first_check(page, table_id, mark: str):
    """Open the table screen from this phone's copy and hold its first check with the server; mark
    the share button then drawn with `mark`. Returns the held route."""
    held = []
    page.route(f"**/api/tables/{table_id}", lambda route: held.append(route))
    page.evaluate(f"location.hash = '#/table/{table_id}'")
    expect(page.locator('[data-testid="share"]')).to_be_visible()
    deadline = time.monotonic() + 10
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(20)
    assert held, "the table screen did not ask the server"
    page.evaluate(f"document.querySelector('[data-testid=\"share\"]').dataset.mark = '{mark}'")
    return held[0]


def _let_go(page, table_id, route):
    with page.expect_response(f"**/api/tables/{table_id}"):
        route.continue_()
    page.unroute(f"**/api/tables/{table_id}")
    # a 304 changes nothing the test can wait for: the answer is handled within a few of the page's
    # tasks (a wait too short could only let the old redraw pass unseen, never fail the new code)
    page.wait_for_timeout(300)


def _share_mark(page):
    return page.evaluate("document.querySelector('[data-testid=\"share\"]').dataset.mark || null")


def _draw_on_another_phone(page, live_server, table_id):
    """Another phone records a draw, Aiko alone tenpai (30000 -> 33000), with this phone's token."""
    stored = page.evaluate(f"JSON.parse(localStorage.getItem('tenbou.tables'))['{table_id}']")
    resp = page.request.post(f"{live_server}/api/tables/{table_id}/hands", data=json.dumps(
        {"result": "draw", "tenpai": [0], "riichi": [], "nagashi": []}),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {stored['edit_token']}",
                 "If-Match": f'"{stored["table"]["version"]}"'})
    assert resp.ok, resp.text()


def test_a_tap_while_the_phone_checks_the_table_is_not_lost(phone, live_server):
    """A board the server confirms is not drawn again: a button replaced between a finger's down and
    up never gets its tap (CI once clicked "share" as the first check came back, and no sheet opened).
    When the server's table differs, the board is drawn again with it."""
    page, _ = phone
    table_id = create_table(page)
    page.goto("/#/tables")
    _let_go(page, table_id, _hold_first_check(page, table_id, "drawn before the check"))
    assert _share_mark(page) == "drawn before the check"
    page.click('[data-testid="share"]')
    expect(page.locator('[data-testid="qr"]')).to_have_count(1)
    page.keyboard.press("Escape")

    # another phone records a draw while this one is on the tables list: the board is drawn again
    page.goto("/#/tables")
    _draw_on_another_phone(page, live_server, table_id)
    _let_go(page, table_id, _hold_first_check(page, table_id, "drawn before the check"))
    expect(page.locator('[data-testid="seat-score-0"]')).to_have_text("33000")
    assert _share_mark(page) is None


def test_news_from_the_server_waits_for_the_finger_on_a_button(phone, live_server):
    """Another phone's hand comes in while this player's finger is on "share": the board is drawn
    again only after the finger is lifted, so the button pressed is the one that gets the tap (drawn
    at once, the new button under the finger never gets the click, and no sheet opens)."""
    page, console = phone
    table_id = create_table(page)
    page.goto("/#/tables")
    _draw_on_another_phone(page, live_server, table_id)
    route = _hold_first_check(page, table_id, "pressed")
    lift = press(page, page.locator('[data-testid="share"]'), touch=True)
    _let_go(page, table_id, route)
    # the news is in, and waits while the finger is down (at most 5 s: util.whenReleased)
    assert _share_mark(page) == "pressed"
    assert page.locator('[data-testid="seat-score-0"]').text_content() == "30000"
    lift()
    expect(page.locator('[data-testid="qr"]')).to_have_count(1)
    expect(page.locator('[data-testid="seat-score-0"]')).to_have_text("33000")
    assert _share_mark(page) is None
    assert console.unexpected() == []


def test_the_record_sheet_does_not_move_under_a_finger_when_its_preview_arrives(phone):
    """The preview of who pays what comes a moment after each change and takes more or fewer lines;
    the sheet keeps its height, so the chips above it stay where the player is about to tap (a
    sheet that grew from the bottom of the screen moved them, and a tap landed beside its chip)."""
    page, _ = phone
    create_table(page)
    sheet = open_sheet(page, "draw")
    preview = sheet.locator('[data-testid="preview"]')
    chip = sheet.locator('input[name="tenpai"][data-seat="3"]')

    def settled_top() -> float:
        expect(preview).to_have_attribute("aria-busy", "false")
        return chip.bounding_box()["y"]

    tops = [settled_top()]
    for seat in (0, 1):  # nobody tenpai, one (three lines of payments), two: the preview changes each time
        before = preview.inner_text()
        sheet.locator(f'input[name="tenpai"][data-seat="{seat}"]').check()
        expect(preview).not_to_have_text(before)
        tops.append(settled_top())
    assert max(tops) - min(tops) < 1, tops
    screenshot(page, "record-draw-sheet")
