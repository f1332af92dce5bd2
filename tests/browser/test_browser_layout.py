"""Fit a 360 px phone: one row of small tiles, a picker that does not jump, titles never under the
sticky bar, standings that fit, the facing mode, the phone's text size and 150 % zoom."""
from __future__ import annotations

import json

from playwright.sync_api import expect

from .conftest import new_phone, screenshot
from .hand_helpers import assert_phone_layout

HAND = ["2m", "3m", "4m", "0p", "6p", "7p", "3s", "4s", "5s", "1z", "1z", "5z", "5z", "5z"]


def box(page, selector):
    return page.locator(selector).first.bounding_box()


def test_hand_is_one_row_and_the_picker_does_not_jump(phone):
    page, console = phone
    page.goto("/#/score")
    page.locator(".picker").wait_for()
    tops = set()
    for code in HAND:
        page.click(f'.picker [data-tile="{code}"]')
        tops.add(page.evaluate("Math.round(document.querySelector('.picker .suit').getBoundingClientRect().top + scrollY)"))
    assert len(tops) == 1, f"the picker moved as tiles were added: {sorted(tops)}"
    rows = {round(b.bounding_box()["y"]) for b in page.locator(".hand-row .concealed .hand-tile").all()}
    assert len(rows) == 1, "14 tiles in one row"
    # a refusal (a fifth copy) appears in the message line without moving the picker
    page.click('.hand-row .hand-tile[data-hand-tile="2m"]')
    page.locator('.hand-editor .modes input[value="dora"]').check()
    for _ in range(3):
        page.click('.picker [data-tile="1z"]')
    expect(page.locator(".entry-msg .field-error")).to_contain_text("only four")
    assert page.evaluate("Math.round(document.querySelector('.picker .suit').getBoundingClientRect().top + scrollY)") in tops
    # the mode buttons and the message stay in view while the picker scrolls under them
    page.locator('.picker [data-tile="7z"]').scroll_into_view_if_needed()
    page.mouse.wheel(0, 400)
    page.wait_for_timeout(200)
    bar = box(page, ".entry-bar")
    assert 0 <= bar["y"] < 120 and bar["y"] + bar["height"] <= 740
    assert_phone_layout(page)
    screenshot(page, "entry-scrolled")


def test_result_title_is_not_under_the_sticky_bar(phone):
    page, console = phone
    page.goto("/#/score")
    for code in HAND:
        page.click(f'.picker [data-tile="{code}"]')
    page.click('[data-testid="score"]')
    title = page.locator('[data-testid="result"] h2')
    title.wait_for()
    # in place at once, and still: a page scrolling smoothly to the result put another tile of the
    # hand row under a player's tap
    first = title.bounding_box()["y"]
    page.wait_for_timeout(500)
    assert title.bounding_box()["y"] == first
    topbar = box(page, ".topbar")
    assert title.bounding_box()["y"] >= topbar["y"] + topbar["height"] - 1
    screenshot(page, "result-in-view")


def finished_table(page, live_server, ruleset="wrr") -> dict:
    created = page.request.post(f"{live_server}/api/tables", data=json.dumps({"ruleset": ruleset, "players": ["Alexandra", "Bartholomew", "Chie", "Dan"]}),
                                headers={"Content-Type": "application/json"}).json()
    hands = [{"result": "chombo", "seat": 3},
             {"result": "ron", "from_seat": 1, "winners": [{"seat": 0, "value": {"yakuman": 1}}], "riichi": [2]},
             {"result": "end"}]
    table = created
    for body in hands:
        table = page.request.post(f"{live_server}/api/tables/{created['id']}/hands", headers={
            "Content-Type": "application/json", "Authorization": f"Bearer {created['edit_token']}",
            "If-Match": f'"{table["version"]}"'}, data=json.dumps(body)).json()
    return {**table, "edit_token": created["edit_token"]}


def test_standings_fit_in_one_unit_with_running_totals(phone, live_server):
    page, console = phone
    table = finished_table(page, live_server)
    assert table["state"]["finished"], table
    page.goto(f"/t/{table['id']}#token={table['edit_token']}")
    standings = page.locator('[data-testid="standings"]')
    expect(standings).to_be_visible()
    # every column inside the card at 360 px, no sideways scrolling
    card = standings.bounding_box()
    for cell in standings.locator("th, td").all():
        b = cell.bounding_box()
        assert b["x"] >= card["x"] - 1 and b["x"] + b["width"] <= card["x"] + card["width"] + 1, cell.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    # one unit: thousands with one decimal, the final as the API gives it
    first = table["state"]["standings"][0]
    row = standings.locator("tbody tr").first.inner_text()
    assert f"{first['points'] / 1000:.1f}" in row and f"+{first['final']:.1f}" in row
    assert f"+{first['uma'] / 1000:.1f}" in row
    # the history shows each player's running total after every hand
    last = table["hands"][1]
    for total in last["scores_after"]:
        expect(page.locator(f'[data-hand="1"] .deltas [data-total="{total}"]')).to_contain_text(f"= {total}")
    standings.scroll_into_view_if_needed()
    screenshot(page, "standings-360")


def test_facing_mode_shows_all_four_seats(browser, live_server):
    for width in (320, 360, 800):
        context, console = new_phone(browser, live_server, viewport={"width": width, "height": 740})
        page = context.new_page()
        players = ["Alexandra", "Bartholomew", "Christabel", "Dan"]
        created = page.request.post(f"{live_server}/api/tables", data=json.dumps({"ruleset": "wrr", "players": players}),
                                    headers={"Content-Type": "application/json"}).json()
        page.goto(f"/t/{created['id']}#token={created['edit_token']}")
        page.locator(".board").wait_for()
        page.locator('label.chip:has-text("Turn names to face each player")').click()
        board = page.locator(".board.facing")
        board.wait_for()
        outer = board.bounding_box()
        boxes = [page.locator(f'.seat[data-seat="{s}"]').bounding_box() for s in range(4)]
        for s, b in enumerate(boxes):
            assert b["x"] >= outer["x"] - 1 and b["x"] + b["width"] <= outer["x"] + outer["width"] + 1, (width, s, b)
            assert b["width"] > 20 and b["height"] > 40
        for i in range(4):
            for j in range(i + 1, 4):
                a, c = boxes[i], boxes[j]
                overlap = not (a["x"] + a["width"] <= c["x"] + 1 or c["x"] + c["width"] <= a["x"] + 1
                               or a["y"] + a["height"] <= c["y"] + 1 or c["y"] + c["height"] <= a["y"] + 1)
                assert not overlap, (width, i, j)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        board.scroll_into_view_if_needed()
        screenshot(page, f"facing-{width}")
        context.close()
        assert console.unexpected() == []


def test_text_size_and_150_percent_zoom(browser, live_server):
    # 150 % zoom of a 360 px phone is a 240 px wide layout viewport; a larger text-size setting
    # makes the root font bigger: the app follows it and nothing overflows sideways
    context, console = new_phone(browser, live_server, viewport={"width": 240, "height": 493})
    page = context.new_page()
    page.goto("/#/score")
    page.locator(".picker").wait_for()
    page.add_style_tag(content="html { font-size: 125%; }")
    assert page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") == 20
    for code in HAND:
        page.click(f'.picker [data-tile="{code}"]')
    for route in ("#/score", "#/waits", "#/photo", "#/tables"):
        page.goto(f"/{route}")
        page.wait_for_timeout(300)
        page.add_style_tag(content="html { font-size: 125%; }")
        wide = page.evaluate("""() => [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > 241)
            .map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 8)""")
        assert page.evaluate("document.documentElement.scrollWidth") <= 240, (route, wide)
    table = finished_table(page, live_server)
    page.goto(f"/t/{table['id']}#token={table['edit_token']}")
    page.locator('[data-testid="standings"]').wait_for()
    page.add_style_tag(content="html { font-size: 125%; }")
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > 241)
        .map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 8)""")
    wide += page.evaluate("""() => [innerWidth, document.documentElement.clientWidth, document.body.scrollWidth,
        ...[...document.querySelectorAll('body *')]
          .filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'hidden')
          .map((e) => e.tagName + '.' + e.className + ' ' + e.scrollWidth + '/' + e.clientWidth).slice(0, 20)]""")
    assert page.evaluate("document.documentElement.scrollWidth") <= 240, json.dumps(wide)
    screenshot(page, "zoom-150-table", full_page=True)
    context.close()
    assert console.unexpected() == []
