"""The live camera: on-phone recognition (ONNX Runtime Web in a worker) gives the server's tiles on
the same pixels, and a fake camera showing a hand (tiles cut out of the development photos,
tests/browser/camera_frames.py) gets it captured and scored, as a ron and as a tsumo, without a tap, online
and with the network cut. Offline, "Choose photo" reads the photo on the phone."""
from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from recognition import reading
from recognition.image_io import load_image
from recognition.pipeline import turned

from .camera_frames import HAND, hand_picture
from .camera_helpers import both_ways, camera_page, captured, filming_picture, needs_vendor, on_phone
from .conftest import screenshot, unlabelled_controls
from .hand_helpers import DEV_PHOTOS
from .offline_helpers import needs_pyodide, prepare_offline

SAME_PHOTOS = sorted(p.name for p in DEV_PHOTOS.glob("*.jpg")) or ["IMG_3085.jpg"]
# a close-up taken with the phone turned 35 degrees: no row to level it by, so it is turned by its
# faces' edges (recognition.reading.face_tilt), judged on the thumbnail each side makes
SAME_PHOTOS += ["IMG_3095.jpg@35"]


def photo_pixels(name: str) -> np.ndarray:
    name, _, turn = name.partition("@")
    path = DEV_PHOTOS / name
    if not path.exists():
        pytest.skip(f"the development photos are not at {DEV_PHOTOS}")
    pixels = load_image(path.read_bytes()).pixels
    if turn:
        pixels = turned(pixels, reading.turn_frame(-float(turn), pixels.shape[1], pixels.shape[0]))
    return pixels


def png(pixels: np.ndarray) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(pixels).save(buf, "PNG")
    return buf.getvalue()


@pytest.mark.parametrize("name", SAME_PHOTOS)
def test_phone_and_server_read_the_same_tiles(reading_phone, live_server, name):
    needs_vendor()
    page, _ = reading_phone
    pixels = photo_pixels(name)
    page.goto("/#/photo")
    server = page.request.post(f"{live_server}/api/recognize", multipart={
        "image": {"name": "p.png", "mimeType": "image/png", "buffer": png(pixels)}})
    assert server.ok, server.text()
    want = server.json()
    assert want["tiles"], "the server reads tiles on this photo"
    got = on_phone(page, pixels)
    print(name, len(got["tiles"]), got["timing_ms"], want["timing_ms"])
    assert got["image_size"] == want["image_size"]
    assert [t["tile"] for t in got["tiles"]] == [t["tile"] for t in want["tiles"]]
    assert got["rows"] == want["rows"]
    for a, b in zip(got["tiles"], want["tiles"]):
        side = max(b["box"][2] - b["box"][0], b["box"][3] - b["box"][1])
        assert np.abs(np.subtract(a["box"], b["box"])).max() <= max(2.0, 0.05 * side), (a, b)
        assert abs(a["confidence"] - b["confidence"]) < 0.05
        assert a["sideways"] == b["sideways"]
    for key in ("hand", "melds", "win_tile", "complete", "uncertain"):
        assert got["proposal"][key] == want["proposal"][key], key


# -- the fake camera ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def fake_camera(playwright, chromium_path, tmp_path_factory):
    # a LAN-like name: plain HTTP there is not secure
    with filming_picture(playwright, chromium_path, tmp_path_factory, hand_picture(), "--host-resolver-rules=MAP tenbou.test 127.0.0.1",
                         missing="the development photos are not in ../shared/data/dev-photos") as b:
        yield b


@pytest.fixture
def camera_phone(fake_camera, live_server, request):
    with camera_page(fake_camera, live_server, getattr(request, "param", ["camera"])) as phone:
        yield phone


def test_the_camera_captures_and_scores_a_hand_without_a_tap(camera_phone):
    page, _, _ = camera_phone
    page.goto("/#/camera")
    info = captured(page)
    print("capture after", info["captureMs"], "ms on the", info["path"], "path,", info["frames"], "frames")
    ron, tsumo = both_ways(page)
    assert int(ron["total"]) > 0 and int(tsumo["total"]) > 0
    assert "Ron" in ron["text"] and "Tsumo" in tsumo["text"]
    screenshot(page, "camera-result")  # what the phone shows: scrolled to the two scores
    screenshot(page, "camera-captured", full_page=True)
    assert unlabelled_controls(page) == []
    shown = page.eval_on_selector_all('[data-testid="camera-hand"] [data-tile]', "(els) => els.map((e) => e.dataset.tile)")
    assert sorted(shown) == sorted(HAND)
    # the proposed hand is one row of small tiles at 360 px, inside the screen
    boxes = page.eval_on_selector_all('[data-testid="camera-hand"] [data-tile] img', """(els) => els.map((e) => {
      const r = e.getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right]; })""")
    assert page.viewport_size["width"] == 360 and len(boxes) == len(HAND)
    tops = [round(b[0]) for b in boxes]
    assert max(tops) - min(tops) <= 2, f"the hand wraps: tile tops {tops}"
    assert min(b[2] for b in boxes) >= 0 and max(b[3] for b in boxes) <= 360
    # every tile stays correctable: the photo screen has the frozen frame with its tiles
    page.click('[data-testid="camera-correct"]')
    tiles = page.locator('[data-testid="detections"] button')
    tiles.first.wait_for()
    assert tiles.count() == len(HAND)


def test_the_capture_is_scored_as_a_fresh_hand_with_only_the_session_settings(camera_phone, live_server):
    from .hand_helpers import enter_busy_hand, score_api

    page, _, _ = camera_phone
    page.goto("/#/score")
    page.select_option('select[name="ruleset"]', "ema")
    page.locator('input[name="seat_wind"][value="south"]').check()
    enter_busy_hand(page)  # riichi, ippatsu, haitei, honba, a dora and an ura on the score screen
    page.click('[data-testid="score"]')
    page.locator('[data-testid="result-total"]').wait_for()
    page.goto("/#/camera")
    captured(page)
    ron, tsumo = both_ways(page)
    # what the server gives for the captured hand with only the rule set, seat and round
    for got, win in ((ron, "ron"), (tsumo, "tsumo")):
        want = score_api(page, live_server, ruleset="ema", win=win, seat_wind="south", round_wind="east",
                         hand=to_mpsz(HAND), win_tile=HAND[-1])
        assert int(got["total"]) == want["total"], (win, got, want)
        yaku = got["yaku"].split()
        assert not {"riichi", "ippatsu", "haitei", "dora", "ura_dora", "seat_wind"} & set(yaku), (win, yaku)
        assert "round_wind" in yaku
    settings = page.text_content('[data-testid="camera-settings"]')
    assert "South" in settings and "East" in settings and "EMA" in settings, settings
    # one tap opens it on the score screen, as a tsumo, to add riichi, dora...: nothing carried over there
    page.click('[data-testid="camera-tsumo"]')
    page.locator('[data-testid="result-total"]').wait_for(timeout=30_000)
    assert page.locator('[data-testid="result-total"]').get_attribute("data-value") == tsumo["total"]
    assert page.locator('input[name="win"][value="tsumo"]').is_checked()
    assert not page.locator('input[name="riichi"]').is_checked()
    assert page.locator("[data-indicator]").count() == 0
    assert page.locator('input[name="seat_wind"][value="south"]').is_checked()


def to_mpsz(codes: list[str]) -> str:
    out, run = "", ""
    for i, c in enumerate(codes):
        run += c[0]
        if i + 1 == len(codes) or codes[i + 1][1] != c[1]:
            out += run + c[1]
            run = ""
    return out


def test_with_the_network_cut_the_phone_reads_the_hand(camera_phone):
    page, console, context = camera_phone
    needs_pyodide()
    prepare_offline(page)   # the player makes scoring work offline (Pyodide and the engine, kept by the service worker) ...
    # ... and opening the camera online fetches ONNX Runtime's WASM and the models, kept too
    page.goto("/#/camera")
    captured(page)
    online = both_ways(page)
    page.wait_for_function("""async () => {
      const cached = async (n) => (await (await caches.open(n)).keys()).map((r) => new URL(r.url).pathname);
      const keys = (await Promise.all((await caches.keys()).map(cached))).flat();
      return ["/static/vendor/ort/ort-wasm-simd-threaded.wasm", "/models/detector.onnx", "/models/classifier.onnx",
              "/offline-worker.js", "/offline/scoring.zip", "/static/vendor/pyodide/pyodide.asm.wasm"].every((k) => keys.includes(k));
    }""", timeout=60_000, polling=500)
    page.goto("/#/score")
    context.set_offline(True)
    console.allow_offline()
    page.reload()  # the app itself now comes from the service worker's cache
    page.locator('[data-testid="score"]').wait_for()
    page.goto("/#/camera")
    info = captured(page)
    assert info["path"] == "phone"
    shown = page.eval_on_selector_all('[data-testid="camera-hand"] [data-tile]', "(els) => els.map((e) => e.dataset.tile)")
    assert sorted(shown) == sorted(HAND)
    # the capture is scored on the phone, both ways, as the server scored it online
    ron, tsumo = both_ways(page)
    page.locator('[data-testid="scored-offline"]').wait_for()
    assert (ron["total"], tsumo["total"]) == (online[0]["total"], online[1]["total"]) and int(ron["total"]) > 0
    assert page.locator('[data-testid="camera-score-error"]').count() == 0
    info = page.eval_on_selector('[data-testid="camera"]', "(el) => ({...el.dataset})")
    print("offline capture after", info["captureMs"], "ms,", info["frames"], "frames; scored", info["scoreMs"], "ms after the capture")
    screenshot(page, "camera-result-offline")
    screenshot(page, "camera-captured-offline", full_page=True)

    # "Choose photo" offline: the photo is read on the phone by the same models
    photo = DEV_PHOTOS / "IMG_3085.jpg"
    if photo.exists():
        page.goto("/#/photo")
        page.set_input_files('[data-testid="photo-choose"]', str(photo))
        page.locator('[data-testid="detections"] button').first.wait_for(timeout=60_000)
        page.locator('[data-testid="read-on-phone"]').wait_for()
        assert page.locator('[data-testid="photo-error"]').count() == 0
        assert page.locator('[data-testid="detections"] button').count() >= 10


def test_on_the_server_path_too(camera_phone):
    page, _, _ = camera_phone
    page.goto("/#/score")
    page.evaluate("() => localStorage.setItem('tenbou.camera-mode', JSON.stringify('server'))")
    page.goto("/#/camera")
    info = captured(page)
    print("server-path capture after", info["captureMs"], "ms,", info["frames"], "frames")
    assert info["path"] == "server"
    both_ways(page)


@pytest.mark.parametrize("camera_phone", [[]], indirect=True)
def test_without_permission_the_screen_says_why(camera_phone):
    page, console, _ = camera_phone
    page.goto("/#/camera")
    error = page.locator('[data-testid="camera-error"]')
    error.wait_for()
    assert "Allow the camera" in error.text_content()
    assert page.eval_on_selector('[data-testid="camera"]', "(el) => el.dataset.state") == "no-camera"


def test_take_photo_opens_the_camera_and_choose_photo_the_gallery(phone):
    page, _ = phone
    page.goto("/#/photo")
    take, choose = page.locator('[data-testid="photo-input"]'), page.locator('[data-testid="photo-choose"]')
    assert take.get_attribute("capture") == "environment" and take.get_attribute("accept") == "image/*"
    assert choose.get_attribute("capture") is None and choose.get_attribute("accept") == "image/*"
    assert page.locator('label[for="photo-input"]').text_content() == "Take photo"
    assert page.locator('label[for="photo-choose"]').text_content() == "Choose photo"
    photo = DEV_PHOTOS / "IMG_3085.jpg"
    if photo.exists():  # a photo chosen from the gallery goes through the same flow
        with page.expect_response("**/api/recognize"):
            page.set_input_files('[data-testid="photo-choose"]', str(photo))
        page.locator('[data-testid="detections"] button').first.wait_for(timeout=60_000)
    page.click('[data-testid="open-camera"]')
    page.locator('[data-testid="camera"]').wait_for()


def test_over_plain_http_on_the_network_the_screen_asks_for_https(camera_phone, live_server):
    page, console, _ = camera_phone
    port = live_server.rsplit(":", 1)[1]
    page.goto(f"http://tenbou.test:{port}/#/camera")
    assert page.evaluate("() => window.isSecureContext") is False
    error = page.locator('[data-testid="camera-error"]')
    error.wait_for()
    assert "https://" in error.text_content() and "secure connection" in error.text_content()
    # Chromium notes that it ignores COOP on an untrustworthy origin: expected on plain HTTP
    console.errors[:] = [e for e in console.errors if "Cross-Origin-Opener-Policy header has been ignored" not in e]


CHOICES = """async () => {
  const { LiveRecognizer, FAST_ENOUGH_MS } = await import("/static/js/photo/live-recognizer.js");
  const r = new LiveRecognizer("auto");
  const pick = (mode, state, typicalMs) => { r.mode = mode; r.phone = { state, typicalMs }; return r.choose(); };
  return {
    loading: pick("auto", "loading", 0), ready: pick("auto", "ready", 0), fast: pick("auto", "ready", FAST_ENOUGH_MS),
    slow: pick("auto", "ready", FAST_ENOUGH_MS + 1), asked_server: pick("server", "ready", 10),
    asked_phone_unavailable: pick("phone", "unavailable", 0),
  };
}"""


def test_the_path_is_chosen_automatically_and_offline_is_always_the_phone(phone):
    page, console = phone
    page.goto("/#/score")
    assert page.evaluate(CHOICES) == {"loading": "server", "ready": "phone", "fast": "phone", "slow": "server",
                                      "asked_server": "server", "asked_phone_unavailable": None}
    page.context.set_offline(True)
    console.allow_offline()
    offline = page.evaluate(CHOICES)
    assert offline["slow"] == offline["asked_server"] == "phone" and offline["loading"] is None


# After the held answer is let through: wait until the page has it, then one macrotask more, so
# every continuation of the score screen that was waiting on it has run.
SETTLED = """async () => {
  const { rulesets } = await import("/static/js/core/api.js");
  await rulesets();
  await new Promise((resolve) => setTimeout(resolve, 0));
  return true;
}"""


def test_a_screen_still_loading_does_not_draw_over_the_camera(fake_camera, live_server):
    from .conftest import new_phone

    # no service worker: the rule sets must come from the network, where this test holds them
    context, console = new_phone(fake_camera, live_server, permissions=["camera"], service_workers="block")
    page = context.new_page()
    held, released = [], []
    page.route("**/api/rulesets", lambda route: route.continue_() if released else held.append(route))
    try:
        page.goto("/#/score")
        for _ in range(200):  # the score screen has asked for the rule sets (after the message catalogue)
            if held:
                break
            page.wait_for_timeout(50)
        assert held, "the score screen did not ask for the rule sets"
        assert page.locator('[data-testid="score"]').count() == 0, "the score screen is still loading"
        page.evaluate("() => { location.hash = '#/camera'; }")
        page.wait_for_selector('[data-testid="camera"][data-state="live"], [data-testid="camera"][data-state="captured"]')
        released.append(True)
        for route in held:
            route.continue_()
        assert page.evaluate(SETTLED)
        # the late answer did not draw the score screen over the camera screen
        assert page.locator('[data-testid="score"]').count() == 0
        assert page.locator('[data-testid="camera"]').count() == 1
        captured(page)  # and the camera, still the one shown, captured the hand
        assert page.locator('[data-testid="score"]').count() == 0
    finally:
        context.close()
    assert console.unexpected() == [], "console errors"
