"""Never a silently wrong score: per-hand state does not carry into the next hand, the winning-tile
mark stays put, and a hand read from a photo is scored only once the player has said how it was won.
Phone-sized Chromium (360x740); the taps of each journey are counted."""
from __future__ import annotations

from playwright.sync_api import expect

from .conftest import Taps, screenshot
from .hand_helpers import HAND, check_state, enter_busy_hand, fake_recognition, mode, score_api, serve_recognition, upload


def assert_fresh_hand(page, *, ruleset: str, seat: str):
    """Nothing of the last hand is left; the session's rule set and seat are."""
    assert page.locator(".hand-row .hand-tile").count() == 0
    assert page.inner_text(".counter") == "0/14"
    assert page.locator('input[name="win"][value="ron"]').is_checked()
    for name in ("riichi", "double_riichi", "ippatsu", "last_tile", "rinshan", "chankan"):
        assert not page.locator(f'input[name="{name}"]').is_checked(), name
    assert page.locator('.stepper[aria-label="Honba"] output').inner_text() == "0"
    assert page.locator('.stepper[aria-label="Riichi sticks"] output').inner_text() == "0"
    assert page.locator('[data-testid="dora-count"] output').inner_text() == "0", "the dora count is per hand"
    assert page.locator("[data-indicator]").count() == 0
    assert page.locator(mode(page, "hand")).is_checked(), "the picker is back on the hand"
    assert page.locator('[data-testid="result"]').count() == 0
    assert page.locator('select[name="ruleset"]').input_value() == ruleset
    assert page.locator(f'input[name="seat_wind"][value="{seat}"]').is_checked()


def test_next_hand_clear_and_reload_keep_only_the_session(phone, live_server):
    page, console = phone
    page.goto("/#/score")
    page.select_option('select[name="ruleset"]', "ema")
    page.locator('input[name="seat_wind"][value="south"]').check()
    enter_busy_hand(page)
    page.click('[data-testid="score"]')
    expected = score_api(page, live_server, ruleset="ema", hand=HAND, win_tile="5z", seat_wind="south", win="tsumo",
                         riichi=True, ippatsu=True, haitei=True, honba=2, riichi_sticks=1,
                         dora_indicators="4z", ura_indicators="9m", dora_count=2)
    expect(page.locator('[data-testid="result-total"]')).to_have_text(str(expected["total"]))

    # after scoring: "Next hand" starts afresh, keeping the rule set and the seat
    page.click('[data-testid="next-hand"]')
    assert_fresh_hand(page, ruleset="ema", seat="south")
    assert page.locator('[data-testid="next-hand"]').is_hidden()

    # Clear does the same, and puts the picker back on "Hand" (it was on "Ura ind.")
    enter_busy_hand(page)
    page.evaluate("window.scrollTo(0, 0)")
    page.click('.hand-editor button:has-text("Clear")')
    assert_fresh_hand(page, ruleset="ema", seat="south")
    page.click('.picker [data-tile="1m"]')
    assert page.locator('.hand-row [data-hand-tile="1m"]').count() == 1, "the next tile goes to the hand"

    # a reload mid-hand keeps the session only
    enter_busy_hand(page)
    page.reload()
    page.locator(".picker").wait_for()
    assert_fresh_hand(page, ruleset="ema", seat="south")


def test_winning_tile_mark_stays_when_a_tile_is_removed_and_added_back(phone, live_server):
    page, console = phone
    page.goto("/#/score")
    for code in ["2m", "3m", "4m", "0p", "6p", "7p", "3s", "4s", "5s", "1z", "1z", "5z", "5z", "5z"]:
        page.click(f'.picker [data-tile="{code}"]')
    assert page.locator(".hand-tile.win").get_attribute("data-hand-tile") == "5z"
    page.click('.hand-row [data-hand-tile="3m"]')       # remove a mis-tapped tile...
    assert page.locator(".hand-tile.win").get_attribute("data-hand-tile") == "5z"
    page.click('.picker [data-tile="3m"]')               # ...and put it back
    assert page.locator(".hand-tile.win").get_attribute("data-hand-tile") == "5z"
    page.click('[data-testid="score"]')
    expected = score_api(page, live_server, ruleset="wrr", hand=HAND, win_tile="5z")
    expect(page.locator('[data-testid="result-total"]')).to_have_text(str(expected["total"]))
    # removing the winning tile itself frees the mark: the tile added next wins
    page.click('.hand-row .hand-tile.win')
    page.click('.picker [data-tile="1z"]')
    assert page.locator(".hand-tile.win").get_attribute("data-hand-tile") == "1z"


def test_riichi_tsumo_journey_taps(phone, live_server):
    page, console = phone
    page.goto("/#/score")
    taps = Taps(page, "score a riichi tsumo hand")
    taps.tiles(HAND)
    taps.check('input[name="win"][value="tsumo"]')
    taps.check('input[name="riichi"]')
    taps.tap('[data-testid="score"]')
    expected = score_api(page, live_server, ruleset="wrr", hand=HAND, win_tile="5z", win="tsumo", riichi=True)
    expect(page.locator('[data-testid="result-total"]')).to_have_text(str(expected["total"]))
    assert taps.record() == 17


def test_dora_counted_with_the_stepper_change_the_score(phone, live_server):
    page, console = phone
    page.goto("/#/score")
    taps = Taps(page, "score a riichi tsumo hand with dora counted by the stepper")
    taps.tiles(HAND)
    taps.check('input[name="win"][value="tsumo"]')
    taps.check('input[name="riichi"]')
    taps.tap('[aria-label="Dora in hand: one more"]')
    taps.tap('[aria-label="Dora in hand: one more"]')
    taps.tap('[data-testid="score"]')
    plain = score_api(page, live_server, ruleset="wrr", hand=HAND, win_tile="5z", win="tsumo", riichi=True)
    counted = score_api(page, live_server, ruleset="wrr", hand=HAND, win_tile="5z", win="tsumo", riichi=True, dora_count=2)
    assert counted["total"] != plain["total"]
    expect(page.locator('[data-testid="result-total"]')).to_have_text(str(counted["total"]))
    expect(page.locator('[data-testid="result"] [data-yaku="dora"]')).to_contain_text("2")
    assert taps.record() == 19
    # a step down re-scores with one dora; Clear puts the count back to 0
    page.click('[aria-label="Dora in hand: one less"]')
    page.click('[data-testid="score"]')
    one = score_api(page, live_server, ruleset="wrr", hand=HAND, win_tile="5z", win="tsumo", riichi=True, dora_count=1)
    expect(page.locator('[data-testid="result-total"]')).to_have_text(str(one["total"]))
    page.evaluate("window.scrollTo(0, 0)")
    page.click('.hand-editor button:has-text("Clear")')
    assert page.locator('[data-testid="dora-count"] output').inner_text() == "0"
    # dora never make a hand without yaku score: a ron with no yaku and three counted dora is refused
    console.allow(422)
    page.click("summary:has-text('Type the tiles instead')")
    page.fill('[data-testid="typed-tiles"]', "123m456p789s234m11z")
    page.press('[data-testid="typed-tiles"]', "Enter")
    for _ in range(3):
        page.click('[aria-label="Dora in hand: one more"]')
    page.click('[data-testid="score"]')
    expect(page.locator(".hand-editor .entry-bar .field-error").first).to_contain_text("no yaku")
    assert page.locator('[data-testid="result"]').count() == 0


# --- a photo, with the recognition answer fixed so the journey is the same on every run -----------


def test_photo_banners_follow_each_correction_and_the_win_is_asked(phone, live_server):
    page, console = phone
    codes = ["2m", "3m", "4m", "0p", "6p", "7p", "3s", "4s", "5s", "1z", "1z", "5z", "5z", "6z"]   # the last is misread
    serve_recognition(page, fake_recognition(codes, [list(range(14))], confidence={13: 0.41}))
    page.goto("/#/photo")
    taps = Taps(page, "score from a photo (one tile to correct)")
    taps.count += 1   # the tap on "Take or choose a photo"
    upload(page)
    assert check_state(page) == "incomplete"
    expect(page.locator('[data-testid="uncertain"]')).to_contain_text("1 uncertain tile")
    screenshot(page, "photo-before-correction", full_page=True)
    taps.tap('[data-testid="detections"] button[data-det="13"]')
    taps.tap('dialog [data-fix="5z"]')
    # recomputed for the corrected hand: complete now, and the corrected tile is no longer uncertain
    assert check_state(page) == "complete"
    assert page.locator('[data-testid="uncertain"]').count() == 0
    taps.tap('[data-testid="photo-score"]')
    expect(page.locator('[data-testid="photo-choice-error"]')).to_contain_text("ron or tsumo and the seat wind")
    taps.check('input[name="photo-win"][value="tsumo"]')
    taps.check('input[name="photo-seat"][value="south"]')
    taps.tap('[data-testid="photo-score"]')
    page.wait_for_url("**/#/score")
    expected = score_api(page, live_server, ruleset="wrr", hand=HAND, win_tile="5z", win="tsumo", seat_wind="south")
    expect(page.locator('[data-testid="result-total"]')).to_have_text(str(expected["total"]))
    taps.count -= 1   # the refused tap above is the test's, not the journey's
    assert taps.record() == 6


def test_photo_never_scores_with_the_last_hands_settings(phone, live_server):
    page, console = phone
    # an earlier hand: riichi, ron, seat north, 3 honba
    page.goto("/#/score")
    page.locator('input[name="riichi"]').check()
    page.locator('input[name="seat_wind"][value="north"]').check()
    for _ in range(3):
        page.click('[aria-label="Honba: one more"]')
    codes = ["2m", "3m", "4m", "0p", "6p", "7p", "3s", "4s", "5s", "1z", "1z", "5z", "5z", "5z"]
    serve_recognition(page, fake_recognition(codes, [list(range(14))]))
    page.goto("/#/photo")
    upload(page)
    assert check_state(page) == "complete"
    page.check('input[name="photo-win"][value="ron"]')
    page.check('input[name="photo-seat"][value="east"]')
    page.click('[data-testid="photo-score"]')
    page.wait_for_url("**/#/score")
    expected = score_api(page, live_server, ruleset="wrr", hand=HAND, win_tile="5z", win="ron", seat_wind="east")
    expect(page.locator('[data-testid="result-total"]')).to_have_text(str(expected["total"]))
    assert not page.locator('input[name="riichi"]').is_checked()
    assert page.locator('.stepper[aria-label="Honba"] output').inner_text() == "0"


def test_winning_tile_inside_a_called_group_is_refused_with_a_message(phone, live_server):
    page, console = phone
    codes = ["2m", "3m", "4m", "4p", "5p", "6p", "6s", "7s", "8s", "2m", "2m", "7z", "7z", "7z"]
    answer = fake_recognition(codes, [list(range(11)), [11, 12, 13]], melds=[{"type": "pon", "tiles": "777z"}], sideways={12})
    serve_recognition(page, answer)
    page.goto("/#/photo")
    upload(page)
    assert check_state(page) == "complete"
    page.click('[data-testid="detections"] button[data-det="12"]')     # a tile of the pon
    page.click('[data-testid="mark-win"]')
    assert check_state(page) == "win-in-meld"
    expect(page.locator('[data-testid="hand-check"]')).to_contain_text("called meld")
    page.check('input[name="photo-win"][value="ron"]')
    page.check('input[name="photo-seat"][value="east"]')
    page.click('[data-testid="photo-score"]')
    expect(page.locator('[data-testid="photo-choice-error"]')).to_contain_text("called meld")
    assert page.url.endswith("#/photo"), "not scored"
    # marking a concealed tile instead is honoured
    page.click('[data-testid="detections"] button[data-det="8"]')
    page.click('[data-testid="mark-win"]')
    assert check_state(page) == "complete"
    page.click('[data-testid="photo-score"]')
    page.wait_for_url("**/#/score")
    expected = score_api(page, live_server, ruleset="wrr", hand="234m456p678s22m", melds=[{"type": "pon", "tiles": "777z"}],
                         win_tile="8s", win="ron", seat_wind="east")
    expect(page.locator('[data-testid="result-total"]')).to_have_text(str(expected["total"]))
    assert page.locator(".hand-tile.win").get_attribute("data-hand-tile") == "8s"
