"""The live camera over a hand on a cluttered table: Chromium's fake camera shows a video built by
this test's own code (tests/browser/camera_frames.py: the hand cut out of the development photos,
in a row on a wooden table among keyboard keys, stray tiles from the tile cut-outs, pens and a mug).
In its default mode (Automatic) the app captures the right hand without a tap, the clutter left
out of it, online and with the network cut (then the phone reads alone: the networks in
recognize-worker.js, recognition/reading.py in Pyodide)."""
from __future__ import annotations

import pytest

from .camera_frames import HAND, cluttered_table_picture
from .camera_helpers import both_ways, camera_page, captured, filming_picture
from .offline_helpers import needs_pyodide, prepare_offline

TILE_W = 60  # the hand's tiles are 60 px wide in the 960 px video (40 px in the 640 px frames read)


@pytest.fixture(scope="module")
def table_camera(playwright, chromium_path, tmp_path_factory):
    with filming_picture(playwright, chromium_path, tmp_path_factory, cluttered_table_picture(tile_w=TILE_W)) as b:
        yield b


@pytest.fixture
def table_phone(table_camera, live_server):
    with camera_page(table_camera, live_server) as phone:
        yield phone


def shown_hand(page) -> list[str]:
    return page.eval_on_selector_all('[data-testid="camera-hand"] [data-tile]', "(els) => els.map((e) => e.dataset.tile)")


def test_automatic_mode_captures_the_hand_among_clutter_online_and_offline(table_phone):
    page, console, context = table_phone
    needs_pyodide()
    prepare_offline(page)
    assert page.evaluate("() => localStorage.getItem('tenbou.camera-mode')") in (None, '"auto"')  # the default
    page.goto("/#/camera")
    info = captured(page)
    print("online: capture after", info["captureMs"], "ms on the", info["path"], "path,", info["frames"], "frames")
    assert sorted(shown_hand(page)) == sorted(HAND)  # the keys, the stray tiles: not in the hand
    online = both_ways(page)
    assert int(online[0]["total"]) > 0
    # the photo screen has the capture with the clutter listed apart, out of the hand
    page.click('[data-testid="camera-correct"]')
    page.locator('[data-testid="also-in-photo"] button').first.wait_for()
    assert page.locator('[data-testid="detections"] button[data-det]:not(.ignored)').count() == len(HAND)

    page.wait_for_function("""async () => {
      const cached = async (n) => (await (await caches.open(n)).keys()).map((r) => new URL(r.url).pathname);
      const keys = (await Promise.all((await caches.keys()).map(cached))).flat();
      return ["/static/vendor/ort/ort-wasm-simd-threaded.wasm", "/models/detector.onnx", "/models/classifier.onnx",
              "/offline-worker.js", "/offline/scoring.zip", "/static/js/core/worker-bridge.js"].every((k) => keys.includes(k));
    }""", timeout=60_000, polling=500)
    page.goto("/#/score")
    context.set_offline(True)
    console.allow_offline()
    page.reload()
    page.locator('[data-testid="score"]').wait_for()
    page.goto("/#/camera")
    info = captured(page)
    print("offline: capture after", info["captureMs"], "ms,", info["frames"], "frames")
    assert info["path"] == "phone"
    assert sorted(shown_hand(page)) == sorted(HAND)
    ron, tsumo = both_ways(page)
    assert (ron["total"], tsumo["total"]) == (online[0]["total"], online[1]["total"])
