"""Faster entry: undo the last tile, type the tiles, the tsumo split, tiles left per wait, discards
picked with the picker, and the rule set asked once on first launch."""
from __future__ import annotations

from playwright.sync_api import expect

from .conftest import screenshot
from .hand_helpers import HAND, score_api


def mode(page, target):
    page.locator(f'.hand-editor .modes input[value="{target}"]').check()


def test_undo_takes_back_the_last_tile_meld_or_indicator(phone):
    page, console = phone
    page.goto("/#/score")
    for code in ["1m", "2m", "3m"]:
        page.click(f'.picker [data-tile="{code}"]')
    page.click('[data-testid="undo-tile"]')
    assert [t.get_attribute("data-hand-tile") for t in page.locator(".hand-row .hand-tile").all()] == ["1m", "2m"]
    mode(page, "pon")
    page.click('.picker [data-tile="7z"]')
    mode(page, "dora")
    page.click('.picker [data-tile="4z"]')
    page.click('[data-testid="undo-tile"]')
    assert page.locator("[data-indicator]").count() == 0
    assert page.locator(".meld").count() == 1
    page.click('[data-testid="undo-tile"]')
    assert page.locator(".meld").count() == 0
    # a removed tile is not undone twice: undo then takes the tile before it
    page.click('.hand-row [data-hand-tile="2m"]')
    page.click('[data-testid="undo-tile"]')
    assert page.locator(".hand-row .hand-tile").count() == 0
    page.click('[data-testid="undo-tile"]')
    expect(page.locator(".entry-msg .field-error")).to_contain_text("Nothing to undo")


def test_typed_tiles_score_like_tapped_ones_and_tsumo_shows_the_split(phone, live_server):
    page, console = phone
    page.goto("/#/score")
    page.click("summary:has-text('Type the tiles instead')")
    page.fill('[data-testid="typed-tiles"]', "234m067p345s11z555")
    page.click('[data-testid="use-typed"]')
    expect(page.locator(".entry-msg .field-error")).to_contain_text("digits followed by their suit")
    page.fill('[data-testid="typed-tiles"]', "234m067p345s11z55555z")
    page.press('[data-testid="typed-tiles"]', "Enter")
    expect(page.locator(".entry-msg .field-error")).to_contain_text("only four")
    page.fill('[data-testid="typed-tiles"]', "234m067p345s11z555z")
    page.press('[data-testid="typed-tiles"]', "Enter")
    assert page.inner_text(".counter") == "14/14"
    assert page.locator(".hand-tile.win").get_attribute("data-hand-tile") == "5z"
    page.locator('input[name="win"][value="tsumo"]').check()
    page.locator('input[name="seat_wind"][value="south"]').check()
    page.click('[data-testid="score"]')
    expected = score_api(page, live_server, ruleset="wrr", hand=HAND, win_tile="5z", win="tsumo", seat_wind="south")
    expect(page.locator('[data-testid="result-total"]')).to_have_text(str(expected["total"]))
    pay = expected["payments"]
    expect(page.locator('[data-testid="tsumo-split"]')).to_have_text(f' {pay["non_dealer"]}/{pay["dealer"]}')
    # the dealer's tsumo: so much from each
    page.locator('input[name="seat_wind"][value="east"]').check()
    page.click('[data-testid="score"]')
    expected = score_api(page, live_server, ruleset="wrr", hand=HAND, win_tile="5z", win="tsumo", seat_wind="east")
    expect(page.locator('[data-testid="tsumo-split"]')).to_have_text(f' {expected["payments"]["non_dealer"]} all')


def test_waits_show_tiles_left_and_discards_come_from_the_picker(phone):
    page, console = phone
    page.goto("/#/waits")
    for code in ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "2z", "2z"]:
        page.click(f'.picker [data-tile="{code}"]')
    mode(page, "discards")
    page.click('.picker [data-tile="1z"]')
    page.click('.picker [data-tile="9m"]')
    assert [t.get_attribute("data-indicator") for t in page.locator('[aria-label="Your discards"] [data-indicator]').all()] == ["1z", "9m"]
    page.click('[data-testid="analyse"]')
    page.locator("[data-wait]").first.wait_for()
    # 1z: two in the hand, one discarded -> 1 left; 2z: two in the hand -> 2 left
    expect(page.locator('[data-testid="left-1z"]')).to_have_text("1 of 4 left")
    expect(page.locator('[data-testid="left-2z"]')).to_have_text("2 of 4 left")
    expect(page.locator(".card[aria-label=Waits] h2")).to_contain_text("3 left")
    expect(page.locator(".banner.warn")).to_contain_text("Furiten")
    page.locator(".waits-list").scroll_into_view_if_needed()
    screenshot(page, "waits-left")


def test_rule_set_is_asked_once_on_first_launch(phone, live_server):
    page, console = phone
    page.goto("/#/score")
    card = page.locator('[data-testid="first-ruleset"]')
    expect(card).to_be_visible()
    expect(card.locator('[data-first-ruleset="ema"]')).to_contain_text("red fives count")
    expect(card.locator('[data-first-ruleset="wrr"]')).to_contain_text("no red fives")
    screenshot(page, "first-launch")
    page.click('[data-first-ruleset="ema"]')
    expect(card).to_have_count(0)
    assert page.locator('select[name="ruleset"]').input_value() == "ema"
    # a red five now counts: the same hand scores as EMA says, with its aka dora
    page.click("summary:has-text('Type the tiles instead')")
    page.fill('[data-testid="typed-tiles"]', HAND)
    page.press('[data-testid="typed-tiles"]', "Enter")
    page.click('[data-testid="score"]')
    expected = score_api(page, live_server, ruleset="ema", hand=HAND, win_tile="5z")
    expect(page.locator('[data-testid="result-total"]')).to_have_text(str(expected["total"]))
    page.reload()
    page.locator(".picker").wait_for()
    expect(page.locator('[data-testid="first-ruleset"]')).to_have_count(0)
    assert page.locator('select[name="ruleset"]').input_value() == "ema"
