"""Quick score, wait analysis and photo screens in a phone-sized headless Chromium."""
from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from .conftest import screenshot
from .hand_helpers import DEV_PHOTOS, assert_phone_layout, recognize_available


def pick(page, tiles: str):
    """Tap the picker buttons for an mpsz string like '234m11z'."""
    digits = []
    for ch in tiles:
        if ch.isdigit():
            digits.append(ch)
        else:
            for d in digits:
                page.click(f'[data-tile="{d}{ch}"]')
            digits = []


def choose(page, group: str, value: str):
    page.locator(f'input[name="{group}"][value="{value}"]').check()


def test_quick_score_by_picker_gives_the_known_total(phone, live_server):
    page, console = phone
    page.goto("/#/score")
    pick(page, "234m067p345s11z555z")
    choose(page, "seat_wind", "south")
    assert page.locator(".hand-tile.win").get_attribute("data-hand-tile") == "5z"
    assert page.inner_text(".counter") == "14/14"
    page.click('[data-testid="score"]')
    total = page.locator('[data-testid="result-total"]')
    # World Riichi Rules, non-dealer ron: haku 1 han, 40 fu = 1300 (the API says the same)
    assert total.inner_text() == "1300"
    card = page.locator('[data-testid="result"]')
    assert "Yakuhai: haku" in card.inner_text() and "40 fu" in card.inner_text()
    assert "Discarder pays" in card.inner_text()
    expected = page.request.post(f"{live_server}/api/score", data=json.dumps({
        "ruleset": "wrr", "hand": "234m067p345s11555z", "win_tile": "5z", "seat_wind": "south"}),
        headers={"Content-Type": "application/json"}).json()
    assert int(total.get_attribute("data-value")) == expected["total"]
    assert_phone_layout(page)
    card.scroll_into_view_if_needed()
    screenshot(page, "quick-score-result")

    # riichi + tsumo + a dora indicator change the value; the card follows the API
    page.locator('input[name="win"][value="tsumo"]').check()
    page.locator('input[name="riichi"]').check()
    choose(page, "target-" + page.locator(".hand-editor .modes input").first.get_attribute("name").split("-", 1)[1], "dora")
    page.click('[data-tile="4z"]')   # indicator north -> dora east: the pair, +2 han
    page.click('[data-testid="score"]')
    expected = page.request.post(f"{live_server}/api/score", data=json.dumps({
        "ruleset": "wrr", "hand": "234m067p345s11555z", "win_tile": "5z", "seat_wind": "south", "win": "tsumo",
        "riichi": True, "dora_indicators": "4z"}), headers={"Content-Type": "application/json"}).json()
    expect(page.locator('[data-testid="result-total"]')).to_have_text(str(expected["total"]))
    assert "Riichi" in page.locator('[data-testid="result"]').inner_text()
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "quick-score-top")


def test_invalid_hand_is_explained_next_to_the_hand(phone):
    page, console = phone
    console.allow(422)
    page.goto("/#/score")
    pick(page, "123456789m1111z")   # 13 tiles
    page.click('[data-testid="score"]')
    expect(page.locator(".hand-editor .field-error", has_text="14")).to_be_visible()
    assert page.locator(".hand-row").get_attribute("aria-invalid") == "true"
    # a fifth copy of a tile is refused at the picker, with the reason
    page.click('[data-tile="1z"]')
    expect(page.locator(".hand-editor .field-error", has_text="only four")).to_be_visible()
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "quick-score-error")


def test_melds_and_the_winning_tile_can_be_marked(phone, live_server):
    page, console = phone
    page.goto("/#/score")
    modes = page.locator(".hand-editor .modes input").first.get_attribute("name")
    choose(page, modes, "pon")
    page.click('[data-tile="7z"]')                 # pon of chun
    choose(page, modes, "hand")
    pick(page, "234m456p678s22m")
    choose(page, modes, "win")
    page.click('.hand-tile[data-hand-tile="8s"]')
    assert page.locator(".hand-tile.win").get_attribute("data-hand-tile") == "8s"
    page.click('[data-testid="score"]')
    expected = page.request.post(f"{live_server}/api/score", data=json.dumps({
        "ruleset": "wrr", "hand": "234m456p678s22m", "melds": [{"type": "pon", "tiles": "777z"}], "win_tile": "8s"}),
        headers={"Content-Type": "application/json"}).json()
    expect(page.locator('[data-testid="result-total"]')).to_have_text(str(expected["total"]))
    card = page.locator('[data-testid="result"]').inner_text()
    assert "chun" in card and "ryanmen" in card


def test_wait_analysis_lists_each_winning_tile(phone):
    page, console = phone
    page.goto("/#/waits")
    pick(page, "123m456p789s1122z")
    page.click('[data-testid="analyse"]')
    waits = page.locator("[data-wait]")
    waits.first.wait_for()
    assert sorted(w.get_attribute("data-wait") for w in waits.all()) == ["1z", "2z"]
    assert "Tenpai" in page.inner_text("main")
    assert "3900" in page.locator('[data-wait="1z"]').inner_text()   # ron on the double-east pair
    assert_phone_layout(page)
    page.locator(".waits-list").scroll_into_view_if_needed()
    screenshot(page, "waits")


def test_photo_upload_shows_tiles_and_scores(phone, live_server):
    page, console = phone
    console.allow(400, 415, 422)
    page.goto("/#/photo")
    screenshot(page, "photo-empty")
    reason = recognize_available(page, live_server)
    if reason:
        pytest.skip(reason)
    photo = DEV_PHOTOS / "IMG_3085.jpg"
    if not photo.exists():
        pytest.skip(f"the development photos are not at {DEV_PHOTOS}")
    page.set_input_files('[data-testid="photo-input"]', str(photo))
    page.locator('[data-testid="detections"]').wait_for(timeout=60_000)
    found = page.locator('[data-testid="detections"] button')
    labelled = json.loads((DEV_PHOTOS / "labels.json").read_text())["IMG_3085.jpg"]["tiles"]
    assert found.count() >= len(labelled) // 2, "most of the photo's tiles are found and listed"
    boxes = page.locator(".photo-stage svg rect")
    assert boxes.count() == found.count()
    screenshot(page, "photo-recognised")
    # correct the first tile by tapping it, then mark a winning tile
    found.first.click()
    page.click('dialog [data-fix="5z"]')
    assert page.locator('[data-testid="detections"] button').first.get_attribute("data-tile-now") == "5z"
    check = page.locator('[data-testid="hand-check"] .banner')
    check.and_(page.locator(':not([data-state="checking"])')).wait_for()
    found.nth(1).click()
    page.click('[data-testid="mark-win"]')
    # the banner about the hand is worked out again for the corrected hand
    check.and_(page.locator(':not([data-state="checking"])')).wait_for()
    # never scored with settings left from an earlier hand: ron or tsumo and the seat are asked
    page.click('[data-testid="photo-score"]')
    expect(page.locator('[data-testid="photo-choice-error"]')).to_contain_text("ron or tsumo and the seat wind")
    assert page.url.endswith("#/photo")
    choose(page, "photo-win", "tsumo")
    choose(page, "photo-seat", "west")
    page.click('[data-testid="photo-score"]')
    page.wait_for_url("**/#/score")
    assert page.locator('input[name="win"][value="tsumo"]').is_checked()
    assert page.locator('input[name="seat_wind"][value="west"]').is_checked()
    assert not page.locator('input[name="riichi"]').is_checked()
    # the hand read from the photo is in the picker's hand; scoring it gives a result or says why not
    # the score screen renders the hand after loading the rule sets: wait for it, then count
    page.locator(".hand-row .hand-tile").nth(len(labelled) // 2 - 1).wait_for()
    assert page.locator(".hand-row .hand-tile").count() >= len(labelled) // 2
    page.locator('[data-testid="result"], .field-error:not(:empty), .banner.error').first.wait_for()
    screenshot(page, "photo-to-score")


def test_photo_is_downscaled_on_the_phone_before_upload(phone):
    page, console = phone
    page.goto("/#/photo")
    out = page.evaluate("""async () => {
        const { downscale, MAX_SIDE } = await import('/static/js/core/images.js');
        const canvas = document.createElement('canvas');
        canvas.width = 4000; canvas.height = 3000;
        const ctx = canvas.getContext('2d');
        ctx.fillStyle = '#d0161e'; ctx.fillRect(0, 0, 4000, 3000);
        const big = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
        const small = await downscale(big);
        const bitmap = await createImageBitmap(small.blob);
        return { max: MAX_SIDE, w: small.width, h: small.height, bw: bitmap.width, bh: bitmap.height, type: small.blob.type };
    }""")
    assert out == {"max": 2048, "w": 2048, "h": 1536, "bw": 2048, "bh": 1536, "type": "image/jpeg"}


def test_corrected_detections_make_the_hand(phone):
    """The photo screen's mapping from (corrected) detections to a hand: reading order from the
    rows, face-down tiles left out, the proposal's melds kept, the marked tile as the winning tile."""
    page, console = phone
    page.goto("/#/photo")
    tiles = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "back", "7z", "7z", "7z"]
    res = {
        "tiles": [{"tile": t, "box": [i * 10, 0, i * 10 + 9, 12], "confidence": 0.9, "sideways": False,
                   "face_down": t == "back", "alternatives": []} for i, t in enumerate(tiles)],
        "rows": [list(range(12)), [12, 13, 14]],
        "proposal": {"hand": "123m456p789s11z", "melds": [{"type": "pon", "tiles": "777z"}], "win_tile": "1z"},
        "image_size": [150, 12],
    }
    hand = page.evaluate("""async ([res]) => {
        const { handFromDetections } = await import('/static/js/photo/detections.js');
        const dets = res.tiles.map((t) => ({ tile: t.tile, ignored: t.face_down }));
        dets[0].tile = '4m';          // the player corrected the first tile
        return handFromDetections(res, dets, 5);   // and marked 6p as the winning tile
    }""", [res])
    assert hand["concealed"] == ["4m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z"]
    assert hand["melds"] == [{"type": "pon", "tiles": ["7z", "7z", "7z"]}]
    assert hand["concealed"][hand["winIndex"]] == "6p"


def test_tablet_layout(browser, live_server):
    from .conftest import new_phone

    context, console = new_phone(browser, live_server, viewport={"width": 800, "height": 1100}, is_mobile=False)
    page = context.new_page()
    page.goto("/#/score")
    page.locator(".picker .suit button").first.wait_for()
    row = page.locator(".picker .suit").first.locator("button")
    tops = {round(b.bounding_box()["y"]) for b in row.all()}
    assert len(tops) == 1, "on a tablet a suit fits on one row"
    assert page.evaluate("document.documentElement.scrollWidth") <= 800
    screenshot(page, "tablet-quick-score")
    context.close()
    assert console.unexpected() == []
