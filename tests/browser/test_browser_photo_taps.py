"""Taps from opening a photo to seeing the payments, counted (conftest.Taps): the photo is read by
the server's real models; the hand proposed is the row, so a photo with clutter around the hand
(keys, stray tiles, a mug; built by tests/browser/camera_frames.py from tile cut-outs) costs no
more taps than a clean one, and a tile the photo missed is added at its place in the row in two."""
from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image
from playwright.sync_api import expect

from .camera_frames import CROP_HAND, cluttered_table_picture, crop_hand_picture, hide_tile
from .conftest import Taps, screenshot, unlabelled_controls
from .hand_helpers import assert_phone_layout, score_api


def _png(pixels: np.ndarray) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(pixels).save(buf, "PNG")
    return buf.getvalue()


def open_photo(page, pixels: np.ndarray) -> None:
    page.goto("/#/photo")
    page.set_input_files('[data-testid="photo-choose"]', files=[{"name": "hand.png", "mimeType": "image/png", "buffer": _png(pixels)}])
    page.locator('[data-testid="detections"] button').first.wait_for(timeout=120_000)


def to_payments(page, taps: Taps) -> dict:
    """Ron or tsumo and the seat (asked beside the hand, before Score), then Score: the payments."""
    taps.check('input[name="photo-win"][value="tsumo"]')
    taps.check('input[name="photo-seat"][value="south"]')
    taps.tap('[data-testid="photo-score"]')
    page.wait_for_url("**/#/score")
    total = page.locator('[data-testid="result-total"]')
    total.wait_for(timeout=60_000)
    return {"total": int(total.inner_text())}


def hand_in_list(page) -> list[str]:
    return page.eval_on_selector_all('[data-testid="detections"] button[data-det]:not(.ignored)', "(els) => els.map((e) => e.dataset.tileNow)")


def needs(picture):
    if picture is None:
        pytest.skip("the tile pictures are not in $TENBOU_SHARED/data")
    return picture


def test_a_clean_photo_takes_three_taps_to_the_payments(phone, live_server):
    page, _ = phone
    open_photo(page, needs(crop_hand_picture()))
    assert sorted(hand_in_list(page)) == sorted(CROP_HAND)
    assert page.locator('[data-testid="also-in-photo"]').count() == 0
    assert page.locator('[data-testid="photo-note"]').count() == 0  # in focus: nothing said of the photo
    # ron/tsumo and the seat are asked before the hand's tiles (and so before Score)
    hand_y = page.locator('[data-testid="detections"]').bounding_box()["y"]
    assert page.locator('input[name="photo-win"]').first.bounding_box()["y"] < hand_y
    taps = Taps(page, "photo to payments (clean photo)")
    got = to_payments(page, taps)
    want = score_api(page, live_server, ruleset="wrr", hand="234m456p678s11155z", win_tile="5z", win="tsumo", seat_wind="south")
    assert got["total"] == want["total"]
    assert taps.record() == 3


def test_a_photo_out_of_focus_says_so_and_takes_it_again_in_one_tap(phone):
    """The clean photo out of focus (a Gaussian blur of 0.4% of its long side): still read, the
    player told so beside the tiles, and one tap on "Take it again" opens the camera."""
    import cv2

    page, _ = phone
    pixels = needs(crop_hand_picture())
    open_photo(page, cv2.GaussianBlur(pixels, (0, 0), 0.004 * max(pixels.shape[:2])))
    note = page.locator('[data-testid="photo-note"]')
    expect(note).to_contain_text("out of focus")
    assert note.bounding_box()["y"] < page.locator('[data-testid="detections"]').bounding_box()["y"]
    assert_phone_layout(page)
    screenshot(page, "photo-out-of-focus", full_page=True)
    with page.expect_file_chooser() as chooser:
        note.get_by_role("button", name="Take it again").click()
    assert chooser.value.element.get_attribute("data-testid") == "photo-input"


def test_clutter_costs_no_more_taps_than_a_clean_photo(phone, live_server):
    page, _ = phone
    open_photo(page, needs(cluttered_table_picture()))
    # the keys and the stray tiles are listed apart, not in the hand
    also = page.locator('[data-testid="also-in-photo"] button')
    assert also.count() >= 2
    from .camera_frames import HAND
    assert sorted(hand_in_list(page)) == sorted(HAND)
    assert unlabelled_controls(page) == []
    taps = Taps(page, "photo to payments (cluttered table)")
    got = to_payments(page, taps)
    want = score_api(page, live_server, ruleset="wrr", hand="222999p123s11166z", win_tile="6z", win="tsumo", seat_wind="south")
    assert got["total"] == want["total"]
    assert taps.record() <= 3


def test_a_tile_listed_apart_joins_the_hand_in_one_tap(phone):
    page, _ = phone
    open_photo(page, needs(cluttered_table_picture()))
    apart = page.locator('[data-testid="also-in-photo"] button')
    n_apart, n_hand = apart.count(), len(hand_in_list(page))
    det = apart.first.get_attribute("data-det")
    apart.first.click()
    assert len(hand_in_list(page)) == n_hand + 1 and det in page.eval_on_selector_all(
        '[data-testid="detections"] button[data-det]:not(.ignored)', "(els) => els.map((e) => e.dataset.det)")
    assert page.locator('[data-testid="also-in-photo"] button').count() == n_apart - 1
    expect(page.locator('[data-testid="hand-check"] [data-state="count"]')).to_be_visible()


def test_a_missed_tile_is_added_at_its_place_in_two_taps(phone, live_server):
    page, _ = phone
    # the fifth tile (5p) hidden under felt: the row is read with a gap, thirteen tiles
    open_photo(page, hide_tile(needs(crop_hand_picture()), 4))
    before = hand_in_list(page)
    assert sorted(before) == sorted(CROP_HAND[:4] + CROP_HAND[5:])
    expect(page.locator('[data-testid="hand-check"] [data-state="count"]')).to_be_visible()
    taps = Taps(page, "photo with a missed tile to payments")
    gap_after = page.eval_on_selector_all('[data-testid="detections"] button[data-det]', "(els) => els.map((e) => e.dataset.det)")[3]
    taps.tap(f'[data-testid="add-gap"][data-after="{gap_after}"]')
    taps.tap('dialog [data-add="5p"]')
    expect(page.locator('[data-testid="hand-check"] [data-state="complete"]')).to_be_visible(timeout=30_000)
    got = to_payments(page, taps)
    want = score_api(page, live_server, ruleset="wrr", hand="234m456p678s11155z", win_tile="5z", win="tsumo", seat_wind="south")
    assert got["total"] == want["total"]
    assert taps.record() == 5


def test_a_hand_one_tile_short_is_offered_the_missed_tile_in_one_tap(phone, live_server):
    """The same photo with its 5p hidden: thirteen tiles, one short. The engine's waits for them
    (POST /api/waits) are offered under the count; one tap adds the 5p at the end of the row, as the
    winning tile, and the hand is complete: four taps to the payments, against five by "+"."""
    page, _ = phone
    open_photo(page, hide_tile(needs(crop_hand_picture()), 4))
    offer = page.locator('[data-testid="hand-check"] [data-testid="complete-with"] button')
    expect(offer).to_have_count(1, timeout=30_000)   # 234m 46p 678s 111z 55z waits on 5p alone
    assert offer.get_attribute("data-tile") == "5p" and offer.get_attribute("aria-label") == "Add 5-pin"
    assert_phone_layout(page)
    screenshot(page, "photo-one-short", full_page=True)
    taps = Taps(page, "photo one tile short to payments")
    taps.tap('[data-testid="complete-with"] button[data-tile="5p"]')
    expect(page.locator('[data-testid="hand-check"] [data-state="complete"]')).to_contain_text("5", timeout=30_000)
    assert sorted(hand_in_list(page) + ["5p"]) == sorted(CROP_HAND)
    assert page.locator('[data-testid="detections"] [data-added="5p"]').count() == 1
    got = to_payments(page, taps)
    want = score_api(page, live_server, ruleset="wrr", hand="234m456p678s11155z", win_tile="5p", win="tsumo", seat_wind="south")
    assert got["total"] == want["total"]
    assert taps.record() == 4


def test_a_hand_one_tile_over_is_offered_the_tile_to_leave_out_in_one_tap(phone, live_server):
    """A row of 234m 456p 678s 111z 77z with a 9p among its tiles, fifteen in all (a stray tile laid
    in line with the hand): of the tiles each left out in turn, only the 9p leaves a complete hand
    (the engine's waits), so it alone is offered under the count. One tap leaves it out, listed with
    what else the photo shows: four taps to the payments, against five by the tile's sheet.
    (Not CROP_HAND's haku pair: in a photo of fourteen tiles or more, one of those blank faces is
    read too unsurely to be kept.)"""
    page, _ = phone
    hand = CROP_HAND[:12] + ["7z", "7z"]
    codes = hand[:9] + ["9p"] + hand[9:]
    open_photo(page, needs(crop_hand_picture(codes=codes)))
    assert sorted(hand_in_list(page)) == sorted(codes)
    expect(page.locator('[data-testid="hand-check"] [data-state="count"]')).to_be_visible()
    offer = page.locator('[data-testid="hand-check"] [data-testid="complete-without"] button')
    expect(offer).to_have_count(1, timeout=30_000)
    assert offer.get_attribute("data-tile") == "9p" and offer.get_attribute("aria-label") == "Leave out 9-pin"
    assert_phone_layout(page)
    screenshot(page, "photo-one-over", full_page=True)
    taps = Taps(page, "photo one tile over to payments")
    taps.tap('[data-testid="complete-without"] button[data-tile="9p"]')
    expect(page.locator('[data-testid="hand-check"] [data-state="complete"]')).to_be_visible(timeout=30_000)
    assert sorted(hand_in_list(page)) == sorted(hand)
    assert page.locator('[data-testid="also-in-photo"] button[data-tile-now="9p"]').count() == 1
    got = to_payments(page, taps)
    want = score_api(page, live_server, ruleset="wrr", hand="234m456p678s11177z", win_tile="7z", win="tsumo", seat_wind="south")
    assert got["total"] == want["total"]
    assert taps.record() == 4


def test_a_misread_tile_s_sheet_offers_the_tiles_that_complete_the_hand_in_its_place(phone):
    """A tile read as another (here the 5p set to 9p by hand, as a misread the alternatives do not
    name): its sheet lists, above the picker, the tiles that complete the hand in its place (the
    engine's waits for the other thirteen: the 5p alone); one tap there and the hand is complete.
    A tile of a complete hand gets no such row."""
    page, _ = phone
    open_photo(page, needs(crop_hand_picture()))
    expect(page.locator('[data-testid="hand-check"] [data-state="complete"]')).to_be_visible(timeout=30_000)
    five = page.locator('[data-testid="detections"] button[data-tile-now="5p"]')
    det = five.get_attribute("data-det")
    five.click()
    page.wait_for_timeout(1500)   # time for an offer to come, were one made for a complete hand
    assert page.locator('dialog [data-testid="completes-here"] button').count() == 0
    page.click('dialog [data-fix="9p"]')
    expect(page.locator('[data-testid="hand-check"] [data-state="incomplete"]')).to_be_visible(timeout=30_000)
    taps = Taps(page, "misread tile corrected from its sheet")
    taps.tap(f'[data-testid="detections"] button[data-det="{det}"]')
    offer = page.locator('dialog [data-testid="completes-here"] button')
    expect(offer).to_have_count(1, timeout=30_000)
    assert offer.get_attribute("data-complete") == "5p"
    assert_phone_layout(page)
    screenshot(page, "photo-completes-here")
    taps.tap('dialog [data-complete="5p"]')
    expect(page.locator('[data-testid="hand-check"] [data-state="complete"]')).to_be_visible(timeout=30_000)
    assert sorted(hand_in_list(page)) == sorted(CROP_HAND)
    assert taps.record() == 2


def test_a_misread_tile_whose_alternatives_name_the_right_one_is_offered_in_one_tap(phone):
    """A tile read as another that the classifier also took for the right one (四 read as 西, 7p
    as 8p): the hand of fourteen does not win, and under the check the tile is offered read as
    that one (the engine's waits for the other thirteen, met with the tile's alternatives); one
    tap and the hand is complete. Staged on the server's real reading of the photo, its 5p turned
    into a 6p with the 5p among its alternatives, too unlikely for the reader to take by itself
    (under 8% as likely: recognition.hand.MAX_TILE_COST; page.route)."""
    page, _ = phone
    picture = needs(crop_hand_picture())

    def misread(route):
        response = route.fetch()
        body = response.json()
        five = next(t for t in body["tiles"] if t["tile"] == "5p")
        five.update(tile="6p", confidence=0.9, alternatives=[{"tile": "5p", "confidence": 0.05}])
        body["proposal"]["complete"] = False   # as the reader proposes it with a 6p
        route.fulfill(response=response, json=body)

    page.route("**/api/recognize", misread)
    open_photo(page, picture)
    expect(page.locator('[data-testid="hand-check"] [data-state="incomplete"]')).to_be_visible(timeout=30_000)
    taps = Taps(page, "misread tile offered under the check")
    offer = page.locator('[data-testid="complete-if"] button')
    expect(offer.first).to_be_visible(timeout=30_000)
    first = offer.first
    assert (first.get_attribute("data-from"), first.get_attribute("data-tile")) == ("6p", "5p")
    assert first.get_attribute("aria-label") == "Read 6-pin as 5-pin"
    assert unlabelled_controls(page) == []
    assert_phone_layout(page)
    first.scroll_into_view_if_needed()
    screenshot(page, "photo-complete-if")
    taps.tap('[data-testid="complete-if"] button[data-from="6p"][data-tile="5p"]')
    expect(page.locator('[data-testid="hand-check"] [data-state="complete"]')).to_be_visible(timeout=30_000)
    assert sorted(hand_in_list(page)) == sorted(CROP_HAND)
    assert page.locator('[data-testid="complete-if"]').count() == 0
    assert taps.record() == 1


def test_a_camera_capture_out_of_focus_is_taken_again_with_the_camera(phone):
    """A frame the live camera captured, read as out of focus: "Take it again" goes back to the
    live camera, not to the phone's camera app."""
    page, _ = phone
    page.goto("/#/score")
    page.evaluate("""async () => {
      const { usePhoto } = await import("/static/js/photo/photo.js");
      const c = document.createElement("canvas"); c.width = 64; c.height = 48;
      const blob = await new Promise((r) => c.toBlob(r, "image/jpeg"));
      const tile = (t, i) => ({ tile: t, box: [2 + 6 * i, 10, 7 + 6 * i, 18], confidence: 0.9, sideways: false, face_down: false, alternatives: [] });
      usePhoto(blob, { tiles: ["1m", "2m", "3m"].map(tile), rows: [[0, 1, 2]], proposal: null, image_size: [64, 48],
                       notes: [{ id: "photo_out_of_focus", params: {} }] }, [64, 48]);
    }""")
    page.goto("/#/photo")
    retake = page.locator('[data-testid="photo-note"] [data-testid="retake"]')
    expect(retake).to_have_attribute("href", "#/camera")
    retake.click()
    page.wait_for_url("**/#/camera")


def test_a_hand_photographed_aslant_is_drawn_as_it_lies(phone):
    """Read from the photo turned level, each tile is drawn on the photo as its outline (a
    polygon lying 30 degrees aslant), not as the upright box around it, which would cover its
    neighbours and take their taps."""
    import math
    from pathlib import Path

    from recognition.image_io import load_image

    page, _ = phone
    photo = Path(__file__).resolve().parents[1] / "data" / "hard_cases" / "aslant_row.jpg"
    open_photo(page, load_image(photo.read_bytes()).pixels)
    shapes = page.eval_on_selector_all(".photo-stage g[data-det]", "(gs) => gs.map((g) => g.firstElementChild.tagName + ' ' + "
                                       "(g.firstElementChild.getAttribute('points') || ''))")
    assert len(shapes) == 14 and all(s.startswith("polygon ") for s in shapes), shapes
    (ax, ay), (bx, by) = [tuple(map(float, p.split(","))) for p in shapes[0].split(" ")[1:3]]
    assert abs(math.degrees(math.atan2(by - ay, bx - ax)) - (-30)) < 3
    # a tap on the middle of the fourth tile's outline opens its correction, not a neighbour's
    assert page.locator("[data-fix]").count() == 0
    middle = page.eval_on_selector('.photo-stage g[data-det="3"] polygon', """(p) => {
        const r = p.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }""")
    page.mouse.click(*middle)
    page.locator("[data-fix]").first.wait_for()
    assert page.get_by_text("Tile 4", exact=False).count() >= 1


def test_a_photo_with_no_tile_says_what_to_do_next(phone, live_server):
    """A keyboard, no tile (tests/data/hard_cases): the screen says no tile was found and how to take
    it again, with the button to do so, and that the hand can be entered here; no count to correct
    (0 of 14) and no tile to tap. The first tile added by "+" brings the usual check back."""
    from pathlib import Path

    page, _ = phone
    page.goto("/#/photo")
    photo = Path(__file__).resolve().parents[1] / "data" / "hard_cases" / "keyboard_alone.jpg"
    page.set_input_files('[data-testid="photo-choose"]', str(photo))
    empty = page.locator('[data-testid="photo-empty"]')
    empty.wait_for(timeout=120_000)
    expect(empty).to_contain_text("No tiles found in the photo. Take it again closer")
    expect(empty.locator('[data-testid="retake"]')).to_be_visible()
    expect(page.locator('[data-testid="hand-check"]')).to_have_count(0)
    expect(page.get_by_text("Or enter the hand here: tap + to add its tiles one by one.")).to_be_visible()
    expect(page.get_by_text("Tap a tile to correct it")).to_have_count(0)
    assert unlabelled_controls(page) == []
    assert_phone_layout(page)
    page.click('[data-testid="add-gap"][data-after="-1"]')
    page.click('dialog [data-add="1m"]')
    expect(page.locator('[data-testid="photo-empty"]')).to_have_count(0)
    expect(page.locator('[data-testid="hand-check"] [data-state="count"]')).to_be_visible()
