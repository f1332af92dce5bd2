"""A table night, round two (issue 21), walked on a 360x740 phone in English and Japanese: what is
recorded is what happened (a limit stays a limit, the last board agrees with the standings on a
leftover stick, an EMA chombo is a payment, the offline sheet never names a wrong round, liability
asks which yakuman, an event planned for N rounds offers no round N+1), the Japanese words (半荘,
rule-set names), the chart's labels, the standings' fit at 360 px and the toast's place."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import new_phone, screenshot
from .tables_helpers import NAMES, api_table, create_table, go_offline, open_sheet, save

LOCALES = {"en": "en-GB", "ja": "ja-JP"}
WORDS = {
    "en": {"han": r"\bhan\b", "mangan": "Mangan", "next": "Record the next hand", "payment": "pays for the chombo now",
           "penalty": "point penalty", "stick_to": "riichi stick went to", "which": "how many of the 2 yakuman",
           "games": "Standings · 2 games", "ema": "EMA Riichi Rules 2008"},
    "ja": {"han": "翻", "mangan": "満貫", "next": "次の局を記録", "payment": "満貫払いで精算",
           "penalty": "罰符", "stick_to": "供託1本は", "which": "2倍役満のうち何倍分",
           "games": "順位表・2半荘", "ema": "EMAリーチルール 2008"},
}


@pytest.fixture(params=["en", "ja"])
def lang_phone(request, browser, live_server):
    context, console = new_phone(browser, live_server, locale=LOCALES[request.param])
    page = context.new_page()
    yield request.param, context, page, console
    context.close()
    assert console.unexpected() == [], "console errors"


def post(page, live_server, path, body, token):
    headers = {"Authorization": f"Bearer {token}"}
    if path.endswith("/hands"):  # a hand is recorded on the version of the table it was made on
        version = page.request.get(f"{live_server}{path[:-len('/hands')]}").json()["version"]
        headers["If-Match"] = f'"{version}"'
    resp = page.request.post(f"{live_server}{path}", data=body, headers=headers)
    assert resp.ok, resp.text()
    return resp.json()


def edit_token(page, table_id):
    return page.evaluate(f"JSON.parse(localStorage.getItem('tenbou.tables'))['{table_id}'].edit_token")


def x_labels(page, testid):
    return page.eval_on_selector_all(f'[data-testid="{testid}"] text.tick[text-anchor="middle"]', "els => els.map(e => e.textContent)")


def fits(page, selector):
    """Every cell of the table inside the screen, and nothing to scroll sideways."""
    return page.evaluate("""(sel) => {
      const table = document.querySelector(sel);
      const width = document.documentElement.clientWidth;
      const cells = [...table.querySelectorAll('th, td')].filter((c) => c.getBoundingClientRect().right > width + 0.5);
      let box = table.parentElement;
      const scrolls = box.scrollWidth > box.clientWidth + 1;
      return { outside: cells.map((c) => c.textContent), scrolls, page: document.documentElement.scrollWidth > width + 1 };
    }""", selector)


def test_a_limit_stays_a_limit_and_chart_labels_tell_repeats_apart(lang_phone, live_server):
    lang, context, page, console = lang_phone
    table_id = create_table(page)
    # Ron -> Limit -> Mangan, with no han or fu entered
    sheet = open_sheet(page, "ron")
    sheet.locator('input[name="from"][value="1"]').check()
    sheet.locator('input[name="winner"][value="2"]').check()
    sheet.locator('input[name="value-mode-2"][value="limit"]').check()
    sheet.locator('input[name="limit-2"][value="mangan"]').check()
    save(sheet)
    table = api_table(page, live_server, table_id)
    winner = table["hands"][0]["winners"][0]
    assert winner["value"] == {"limit": "mangan"} and "han" not in winner and "fu" not in winner
    line = page.locator('[data-hand="0"] .what')
    expect(line).to_contain_text(WORDS[lang]["mangan"])
    assert not re.search(WORDS[lang]["han"], line.inner_text()), line.inner_text()
    csv_text = page.request.get(f"{live_server}/api/tables/{table_id}/export?format=csv").text()
    assert "mangan" in csv_text.splitlines()[1] and " han " not in csv_text.splitlines()[1]
    # correcting it starts from the limit as entered
    page.click('[data-hand="0"] button[aria-label]')
    expect(page.locator('dialog[open] input[name="limit-2"][value="mangan"]')).to_be_checked()
    page.locator("dialog[open] .sheet-head button").click()

    # the dealer repeats after a draw: E2, then E2-1; the chart tells them apart
    token = edit_token(page, table_id)
    post(page, live_server, f"/api/tables/{table_id}/hands", {"result": "draw", "tenpai": [1], "riichi": []}, token)
    post(page, live_server, f"/api/tables/{table_id}/hands", {"result": "ron", "from_seat": 0, "winners": [{"seat": 1, "value": {"han": 2, "fu": 30}}]}, token)
    page.reload()
    expect(page.locator("[data-hand]")).to_have_count(3)
    labels = x_labels(page, "chart-game")
    assert labels[-2:] == ["E2", "E2-1"], labels
    assert len(set(labels)) == len(labels), labels


def test_the_toast_never_covers_the_offline_engine_button(lang_phone, live_server):
    lang, context, page, console = lang_phone
    create_table(page)
    offer = page.locator('[data-testid="table-offline"]')
    expect(offer).to_be_visible()
    # the offline-engine button where the toast shows (just above the bottom bar), then a hand recorded
    page.evaluate("""() => {
      const el = document.querySelector('[data-testid="table-offline"]');
      const toast = document.getElementById('toast');
      toast.hidden = false; toast.textContent = 'x';
      const t = toast.getBoundingClientRect(); toast.hidden = true;
      window.scrollBy(0, el.getBoundingClientRect().top - t.top);
    }""")
    page.evaluate("import('/static/js/core/util.js').then((m) => m.toast('Hand recorded.'))")
    toast = page.locator("#toast")
    expect(toast).to_be_visible()
    t, o = toast.bounding_box(), offer.bounding_box()
    overlap = t["x"] < o["x"] + o["width"] and o["x"] < t["x"] + t["width"] and t["y"] < o["y"] + o["height"] and o["y"] < t["y"] + t["height"]
    screenshot(page, f"records-toast-{lang}")
    assert not overlap, (t, o)


def test_the_last_board_agrees_with_the_standings_and_an_ema_chombo_is_a_payment(lang_phone, live_server):
    lang, context, page, console = lang_phone
    table_id = create_table(page, ruleset="ema")
    expect(page.locator(".row h2 + span.small")).to_contain_text(WORDS[lang]["ema"])
    # the chombo preview: a payment now, never "a 0 point penalty"
    sheet = open_sheet(page, "chombo")
    sheet.locator('input[name="chombo"][value="1"]').check()
    expect(sheet.locator('[data-testid="preview-chombo"]')).to_contain_text(WORDS[lang]["payment"])
    expect(sheet.locator('[data-testid="preview"]')).not_to_contain_text(WORDS[lang]["penalty"])
    page.locator("dialog[open] .sheet-head button").click()
    # a riichi stick left at the end: EMA gives it to first place, and the board says so
    token = edit_token(page, table_id)
    post(page, live_server, f"/api/tables/{table_id}/hands", {"result": "ron", "from_seat": 1, "winners": [{"seat": 2, "value": {"han": 3, "fu": 30}}]}, token)
    post(page, live_server, f"/api/tables/{table_id}/hands", {"result": "draw", "tenpai": [0], "riichi": [0]}, token)
    post(page, live_server, f"/api/tables/{table_id}/hands", {"result": "end"}, token)
    page.reload()
    table = api_table(page, live_server, table_id)
    first = table["state"]["standings"][0]
    assert table["state"]["leftover_sticks"]["to"] == [first["seat"]]
    for row in table["state"]["standings"]:
        expect(page.locator(f'[data-testid="seat-score-{row["seat"]}"]')).to_have_text(str(row["points"]))
    expect(page.locator('[data-testid="riichi-sticks"]')).to_contain_text(WORDS[lang]["stick_to"])
    expect(page.locator('[data-testid="riichi-sticks"]')).to_contain_text(NAMES[first["seat"]])
    screenshot(page, f"records-last-board-{lang}")
    fit = fits(page, '[data-testid="standings"] table')
    assert fit["outside"] == [] and not fit["scrolls"] and not fit["page"], fit


def test_offline_without_the_engine_the_sheet_names_no_wrong_round(lang_phone, live_server):
    lang, context, page, console = lang_phone
    console.allow_offline()
    create_table(page)
    go_offline(context, page)
    for frm, winner in ((1, 2), (2, 3)):
        sheet = open_sheet(page, "ron")
        sheet.locator(f'input[name="from"][value="{frm}"]').check()
        sheet.locator(f'input[name="winner"][value="{winner}"]').check()
        if frm == 2:
            # the first hand is queued and the board cannot include it: this is not East 1
            expect(page.locator("dialog[open] .sheet-head h2")).to_have_text(WORDS[lang]["next"])
        save(sheet)
    expect(page.locator('[data-testid="pending"]')).to_be_visible()


def test_liability_asks_which_yakuman_where_it_is_per_yakuman(lang_phone, live_server):
    lang, context, page, console = lang_phone
    console.allow(422)   # the preview is refused until the sheet says which yakuman
    table_id = create_table(page, ruleset="tenhou")
    sheet = open_sheet(page, "tsumo")
    sheet.locator('input[name="winner"][value="1"]').check()
    sheet.locator('input[name="value-mode-1"][value="limit"]').check()
    sheet.locator('input[name="limit-1"][value="y2"]').check()
    expect(sheet.locator('[data-testid="pao-which-1"] fieldset')).to_have_count(0)   # no liable player: not asked
    sheet.locator('select[name="pao-1"]').select_option("3")
    which = sheet.locator('[data-testid="pao-which-1"]')
    expect(which).to_contain_text(WORDS[lang]["which"])
    which.locator('input[value="1"]').check()
    save(sheet)
    hand = api_table(page, live_server, table_id)["hands"][0]
    assert hand["winner"]["value"] == {"yakuman": 2, "pao_yakuman": 1}
    assert hand["deltas"] == [-16000, 64000, -8000, -40000]


def test_an_event_planned_for_two_rounds_offers_no_third_and_fits_360(lang_phone, live_server):
    lang, context, page, console = lang_phone
    players = ["Aiko", "Benjamin", "Chie", "Daniel", "Emiko", "Fernando", "Gin", "Haruka"]
    resp = page.request.post(f"{live_server}/api/events", data={"name": "Club", "ruleset": "wrr", "players": players,
                                                                 "settings": {"rounds_planned": 2}})
    ev = resp.json()
    token = ev["organiser_token"]
    for _ in range(2):
        out = post(page, live_server, f"/api/events/{ev['id']}/rounds", {}, token)
        for g in out["new_games"]:
            ron = {"result": "ron", "from_seat": 1, "winners": [{"seat": 2, "value": {"han": 4, "fu": 30}}]}
            post(page, live_server, f"/api/tables/{g['id']}/hands", ron, token)
            post(page, live_server, f"/api/tables/{g['id']}/hands", {"result": "end"}, token)
    page.goto(f"/#/event/{ev['id']}?token={token}")
    standings = page.locator('[data-testid="event-standings"]')
    expect(standings.locator("h2")).to_have_text(WORDS[lang]["games"].replace("2", "4"))
    expect(standings.locator("tbody tr")).to_have_count(8)
    fit = fits(page, '[data-testid="event-standings"] table')
    screenshot(page, f"records-event-standings-{lang}")
    assert fit["outside"] == [] and not fit["scrolls"] and not fit["page"], fit
    page.locator('input[name="event-tab"][value="games"]').check()
    expect(page.locator('[data-testid="rounds-done"]')).to_be_visible()
    expect(page.locator('[data-testid="draw-round"]')).to_have_count(0)


def test_japanese_rule_set_names_on_the_first_run_chooser(browser, live_server):
    context, console = new_phone(browser, live_server, locale="ja-JP")
    page = context.new_page()
    page.goto("/#/score")
    expect(page.locator('[data-first-ruleset="jpml"]')).to_contain_text("日本プロ麻雀連盟")
    expect(page.locator('[data-first-ruleset="mahjongsoul"]')).to_contain_text("雀魂")
    assert not re.search(r"Rules|online", page.locator('[data-testid="first-ruleset"]').inner_text())
    context.close()
    assert console.unexpected() == []
