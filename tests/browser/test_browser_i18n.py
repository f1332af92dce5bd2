"""English and Japanese: the phone's language by default, a switch in the top bar, yaku and limits
with their kanji names, winds, results and API errors (by their stable code) from the catalogue."""
from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import expect

from .conftest import new_phone, screenshot
from .hand_helpers import HAND

STATIC = Path(__file__).resolve().parents[2] / "static"


def test_catalogues_have_every_key_the_app_uses():
    en = json.loads((STATIC / "i18n" / "en.json").read_text(encoding="utf-8"))
    ja = json.loads((STATIC / "i18n" / "ja.json").read_text(encoding="utf-8"))
    assert set(en) <= set(ja), sorted(set(en) - set(ja))
    used = set()
    for js in (STATIC / "js").rglob("*.js"):
        used |= set(re.findall(r'\bt\("([\w.]+)"', js.read_text(encoding="utf-8")))
    used |= set(re.findall(r'data-i18n(?:-label)?="([\w.]+)"', (STATIC.parent / "templates" / "index.html").read_text(encoding="utf-8")))
    assert used and used <= set(en), sorted(used - set(en))


def test_japanese_phone_gets_japanese_and_can_switch(browser, live_server):
    context, console = new_phone(browser, live_server, locale="ja-JP")
    console.allow(422)
    page = context.new_page()
    page.goto("/#/score")
    expect(page.locator('[data-i18n="nav.score"]')).to_have_text("点数")
    expect(page.locator('[data-i18n="nav.tables"]')).to_have_text("卓")
    assert page.evaluate("document.documentElement.lang") == "ja"
    page.click('[data-first-ruleset="wrr"]')
    expect(page.locator('[data-testid="score"]')).to_have_text("計算")
    winds = [page.locator(f'input[name="seat_wind"][value="{w}"]').locator("xpath=..").inner_text() for w in ("east", "south", "west", "north")]
    assert winds == ["東", "南", "西", "北"]

    # an error from the API, worded from its detail id (13 tiles where 14 are needed): no English inside
    page.click("summary:has-text('文字で入力する')")
    page.fill('[data-testid="typed-tiles"]', "123456789m1111z")
    page.press('[data-testid="typed-tiles"]', "Enter")
    page.click('[data-testid="score"]')
    error = page.locator(".hand-editor .entry-bar .field-error").first
    expect(error).to_contain_text("手牌が13枚です")
    assert not re.search(r"[A-Za-z]{3}", error.inner_text())

    # riichi, tsumo, haku and two dora: a mangan, in kanji
    page.fill('[data-testid="typed-tiles"]', HAND)
    page.press('[data-testid="typed-tiles"]', "Enter")
    page.locator('input[name="seat_wind"][value="south"]').check()
    page.locator('input[name="win"][value="tsumo"]').check()
    page.locator('input[name="riichi"]').check()
    page.locator('.hand-editor .modes input[value="dora"]').check()
    page.click('.picker [data-tile="4z"]')
    page.click('[data-testid="score"]')
    card = page.locator('[data-testid="result"]')
    expect(card.locator('[data-testid="limit"]')).to_have_text("満貫")
    for word in ("役牌 白", "立直", "門前清自摸和", "ドラ", "子の支払い（各自）", "ツモ"):
        expect(card).to_contain_text(word)
    expect(card.locator('[data-testid="tsumo-split"]')).to_have_text(" 2000/4000")
    card.scroll_into_view_if_needed()
    screenshot(page, "japanese-result")

    # the switch: English, kept after a reload
    page.click("#lang-toggle")
    expect(page.locator('[data-i18n="nav.score"]')).to_have_text("Score")
    page.reload()
    expect(page.locator('[data-i18n="nav.score"]')).to_have_text("Score")
    expect(page.locator('[data-testid="score"]')).to_have_text("Score")
    assert page.evaluate("document.documentElement.lang") == "en"
    context.close()
    assert console.unexpected() == []


def test_english_phone_gets_english(phone):
    page, console = phone
    page.goto("/#/score")
    expect(page.locator('[data-i18n="nav.score"]')).to_have_text("Score")
    expect(page.locator("#lang-toggle")).to_have_text("日本語")
