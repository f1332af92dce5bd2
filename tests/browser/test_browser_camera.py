"""The live camera: on-phone recognition (ONNX Runtime Web in a worker) gives the server's tiles on
the same pixels, and a fake camera showing a hand gets it captured and scored without a tap, online
and with the network cut."""
from __future__ import annotations

import base64
import io
import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from recognition.image_io import load_image

from .test_browser_scoring import DEV_PHOTOS

ROOT = Path(__file__).resolve().parents[2]
VENDOR = ROOT / "static" / "vendor" / "ort" / "ort-wasm-simd-threaded.wasm"
SAME_PHOTOS = ["IMG_3085.jpg", "IMG_3095.jpg", "IMG_3108.jpg"]

# Runs the worker on raw RGBA pixels handed over from Python: the very pixels the server decodes.
RUN_WORKER = """async ({b64, width, height}) => {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const worker = new Worker("/static/js/recognize-worker.js", { type: "module" });
  const answer = (want) => new Promise((resolve) => { worker.onmessage = (e) => { if (want.includes(e.data.type)) resolve(e.data); }; });
  let msg = answer(["ready", "unavailable"]);
  worker.postMessage({ type: "init" });
  const ready = await msg;
  if (ready.type !== "ready") return { error: ready.message };
  msg = answer(["result", "failed"]);
  worker.postMessage({ type: "recognize", id: 1, pixels: bytes, width, height });
  const out = await msg;
  worker.terminate();
  return out.type === "result" ? { result: out.result, threads: ready.threads } : { error: out.message };
}"""


def needs_vendor():
    if not VENDOR.exists():
        pytest.skip("onnxruntime-web is not installed in static/vendor (scripts/_setup.sh needs npm)")


def photo_pixels(name: str) -> np.ndarray:
    path = DEV_PHOTOS / name
    if not path.exists():
        pytest.skip(f"the development photos are not at {DEV_PHOTOS}")
    return load_image(path.read_bytes()).pixels


def png(pixels: np.ndarray) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(pixels).save(buf, "PNG")
    return buf.getvalue()


def on_phone(page, pixels: np.ndarray) -> dict:
    rgba = np.concatenate([pixels, np.full(pixels.shape[:2] + (1,), 255, np.uint8)], 2)
    out = page.evaluate(RUN_WORKER, {"b64": base64.b64encode(rgba.tobytes()).decode(), "width": pixels.shape[1], "height": pixels.shape[0]})
    assert "error" not in out, out.get("error")
    return out["result"]


@pytest.mark.parametrize("name", SAME_PHOTOS)
def test_phone_and_server_read_the_same_tiles(phone, live_server, name):
    needs_vendor()
    page, _ = phone
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
