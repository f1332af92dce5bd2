"""Table journeys on a 360x740 phone, counted in taps: each kind of result, a correction; joining
by link asks the seat; duplicate names are refused; names seen before are offered."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from .conftest import Taps, new_phone, screenshot
from .tables_helpers import NAMES, api_table, create_table, expect_board


def recorded(page, live_server, table_id, n):
    expect(page.locator("[data-hand]")).to_have_count(n)
    table = api_table(page, live_server, table_id)
    expect_board(page, table)
    return table


def test_each_kind_of_result_and_a_correction_in_taps(phone, live_server):
    page, console = phone
    table_id = create_table(page, ruleset="ema")   # EMA has abortive draws

    taps = Taps(page, "table: ron, han and fu")
    taps.tap('[data-testid="record-hand"]')
    taps.check('dialog input[name="from"][value="0"]')
    taps.check('dialog input[name="winner"][data-seat="2"]')   # EMA allows double ron: winners are chips
    taps.select('dialog [data-testid="han-2"]', "3")
    taps.select('dialog [data-testid="fu-2"]', "40")
    expect(page.locator('dialog [data-testid="preview-summary"]')).to_contain_text("Chie +5200")
    taps.tap('dialog [data-testid="save-hand"]')
    table = recorded(page, live_server, table_id, 1)
    assert table["hands"][-1]["deltas"] == [-5200, 0, 5200, 0]
    assert taps.record() == 6

    taps = Taps(page, "table: tsumo, a limit")
    taps.tap('[data-testid="record-hand"]')
    taps.check('dialog input[name="result"][value="tsumo"]')
    taps.check('dialog input[name="winner"][value="1"]')
    taps.check('dialog input[name="value-mode-1"][value="limit"]')
    taps.tap('dialog [data-testid="save-hand"]')   # a mangan, the first limit
    table = recorded(page, live_server, table_id, 2)
    assert table["hands"][-1]["deltas"][1] == 12000   # Ben deals now: 4000 all
    assert taps.record() == 5

    taps = Taps(page, "table: exhaustive draw, two tenpai")
    taps.tap('[data-testid="record-hand"]')
    taps.check('dialog input[name="result"][value="draw"]')
    taps.check('dialog input[name="tenpai"][data-seat="0"]')
    taps.check('dialog input[name="tenpai"][data-seat="3"]')
    expect(page.locator('dialog [data-testid="preview-summary"]')).to_contain_text("Aiko +1500")
    taps.tap('dialog [data-testid="save-hand"]')
    recorded(page, live_server, table_id, 3)
    assert taps.record() == 5

    taps = Taps(page, "table: abortive draw")
    taps.tap('[data-testid="record-hand"]')
    taps.check('dialog input[name="result"][value="abort"]')
    taps.tap('dialog [data-testid="save-hand"]')   # the first kind is chosen already
    table = recorded(page, live_server, table_id, 4)
    assert table["hands"][-1]["result"] == "abort"
    assert taps.record() == 3

    taps = Taps(page, "table: chombo")
    taps.tap('[data-testid="record-hand"]')
    taps.check('dialog input[name="result"][value="chombo"]')
    taps.check('dialog input[name="chombo"][value="3"]')
    taps.tap('dialog [data-testid="save-hand"]')
    recorded(page, live_server, table_id, 5)
    assert taps.record() == 4

    taps = Taps(page, "table: correct a hand (fu 40 to 30)")
    taps.tap('[data-hand="0"] button:has-text("Correct")')
    taps.select('dialog [data-testid="fu-2"]', "30")
    expect(page.locator('dialog [data-testid="preview-summary"]')).to_contain_text("Chie +3900")
    taps.tap('dialog [data-testid="save-hand"]')
    expect(page.locator("dialog[open]")).to_have_count(0)
    table = api_table(page, live_server, table_id)
    assert table["hands"][0]["deltas"] == [-3900, 0, 3900, 0]
    assert taps.record() == 3


def test_duplicate_names_are_refused_and_seen_names_offered(phone, live_server):
    page, console = phone
    create_table(page)     # this phone has now seen Aiko, Ben, Chie and Dan
    page.goto("/#/tables")
    options = page.locator("#seen-names option")
    expect(options).to_have_count(4)
    assert sorted(o.get_attribute("value") for o in options.all()) == sorted(NAMES)
    assert page.get_attribute('[data-testid="player-0"]', "list") == "seen-names"
    for i, name in enumerate(["Aiko", "Ben", "aiko", "Dan"]):
        page.fill(f'[data-testid="player-{i}"]', name)
    page.click('[data-testid="create-table"]')
    expect(page.locator("#player-2-error")).to_contain_text("different name")
    assert page.url.endswith("#/tables"), "not created"
    # the server refuses it too, naming the field
    resp = page.request.post(f"{live_server}/api/tables", data='{"players": ["A", "B", "a", "D"]}', headers={"Content-Type": "application/json"})
    assert resp.status == 422 and resp.json()["error"]["field"] == "players[2]"
    # a random seat and wind draw puts the same four names in some order
    page.fill('[data-testid="player-2"]', "Chie")
    page.click('[data-testid="draw-seats"]')
    drawn = [page.input_value(f'[data-testid="player-{i}"]') for i in range(4)]
    assert sorted(drawn) == sorted(["Aiko", "Ben", "Chie", "Dan"])


def test_joining_by_link_asks_which_seat(phone, browser, live_server):
    page, console = phone
    create_table(page)
    page.click('[data-testid="share"]')
    link = page.locator('[data-testid="share-link"]').inner_text()
    assert re.search(r"/t/[\w-]+#token=", link)
    other, console2 = new_phone(browser, live_server)
    phone2 = other.new_page()
    phone2.goto(link)
    question = phone2.locator('[data-testid="seat-question"]')
    expect(question).to_be_visible()
    screenshot(phone2, "join-asks-seat")
    phone2.click('[data-pick-seat="2"]')
    expect(question).to_have_count(0)
    # Chie's seat is drawn at the bottom of this phone's board
    expect(phone2.locator('.seat.pos-bottom .name')).to_have_text("Chie")
    phone2.reload()
    phone2.locator(".board").wait_for()
    expect(phone2.locator('[data-testid="seat-question"]')).to_have_count(0)
    other.close()
    assert console2.unexpected() == []
    # the phone that created the table was never asked
    expect(page.locator('[data-testid="seat-question"]')).to_have_count(0)
