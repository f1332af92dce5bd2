"""Helpers of the camera tests: reading pixels on the phone's path (the networks in
recognize-worker.js, recognition/reading.py in Pyodide), and waiting for the camera's capture."""
from __future__ import annotations

import base64
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
VENDOR = ROOT / "static" / "vendor" / "ort" / "ort-wasm-simd-threaded.wasm"
PYODIDE = ROOT / "static" / "vendor" / "pyodide"

# Reads raw RGBA pixels handed over from Python (the very pixels the server decodes) on the phone:
# the networks in recognize-worker.js, then recognition/reading.py in the offline worker (Pyodide).
RUN_WORKER = """async ({b64, width, height}) => {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const { phoneReader } = await import("/static/js/photo/live-recognizer.js");
  const reader = phoneReader();
  if (!(await reader.ready)) return { error: reader.message };
  try {
    return { result: await reader.read({ pixels: bytes, width, height }), threads: reader.threads };
  } catch (err) {
    return { error: String(err.message || err) };
  }
}"""


def needs_vendor():
    if not VENDOR.exists():
        pytest.skip("onnxruntime-web is not installed in static/vendor (scripts/_setup.sh needs npm)")


def on_phone(page, pixels: np.ndarray) -> dict:
    rgba = np.concatenate([pixels, np.full(pixels.shape[:2] + (1,), 255, np.uint8)], 2)
    out = page.evaluate(RUN_WORKER, {"b64": base64.b64encode(rgba.tobytes()).decode(), "width": pixels.shape[1], "height": pixels.shape[0]})
    assert "error" not in out, out.get("error")
    return out["result"]


def captured(page, timeout=120_000) -> dict:
    try:
        page.wait_for_selector('[data-testid="camera"][data-state="captured"]', timeout=timeout)
    except Exception:
        state = page.evaluate("() => [location.hash, document.querySelector('#view').innerText.slice(0, 400)]")
        raise AssertionError(f"no auto-capture; the screen shows {state}") from None
    return page.eval_on_selector('[data-testid="camera"]', "(el) => ({...el.dataset})")


def both_ways(page, timeout=120_000) -> tuple[dict, dict]:
    """The camera's two scores of the captured hand (as a ron and as a tsumo)."""
    page.locator('[data-testid="camera-ron"]').wait_for(timeout=timeout)
    page.locator('[data-testid="camera-tsumo"]').wait_for(timeout=timeout)
    get = "(el) => ({...el.dataset, text: el.innerText})"
    return (page.eval_on_selector('[data-testid="camera-ron"]', get), page.eval_on_selector('[data-testid="camera-tsumo"]', get))


@contextmanager
def filming(playwright, chromium_path, video: Path, *args: str):
    """Chromium whose camera is a fake one filming `video` (a y4m: camera_frames.write_y4m), with
    `args` added to its command line."""
    from .conftest import CHROMIUM_ARGS

    b = playwright.chromium.launch(executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS + [
        *args, "--use-fake-device-for-media-stream", f"--use-file-for-fake-video-capture={video}"])
    try:
        yield b
    finally:
        b.close()


@contextmanager
def filming_picture(playwright, chromium_path, tmp_path_factory, picture: np.ndarray | None, *args: str,
                    missing: str = "the tile pictures are not in $TENBOU_SHARED/data"):
    """`filming` a still `picture` (camera_frames' pictures), or the test skipped with `missing`
    when its tiles are not there (None), or when onnxruntime-web is not installed."""
    from .camera_frames import write_y4m

    needs_vendor()
    if picture is None:
        pytest.skip(missing)
    path = tmp_path_factory.mktemp("camera") / "picture.y4m"
    write_y4m(path, picture)
    with filming(playwright, chromium_path, path, *args) as b:
        yield b


@contextmanager
def camera_page(browser, live_server, permissions=("camera",)):
    """A phone of `browser` with `permissions` granted: (page, console, context); no console error
    may be left when it closes."""
    from .conftest import new_phone

    context, console = new_phone(browser, live_server, permissions=list(permissions))
    try:
        yield context.new_page(), console, context
    finally:
        context.close()
    assert console.unexpected() == [], "console errors"
