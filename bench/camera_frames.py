"""Camera frames for the live-camera test and benchmark: a complete hand laid out from real
photographed tile faces (../shared/data/tile-crops), and a YUV4MPEG2 file of it for Chromium's
fake camera (--use-file-for-fake-video-capture)."""
from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
CROPS = ROOT.parent / "shared" / "data" / "tile-crops"
HAND = ["2m", "3m", "4m", "4p", "5p", "6p", "6s", "7s", "8s", "1z", "1z", "1z", "5z", "5z"]


def hand_picture(width: int = 960, height: int = 540, tile_w: int = 56) -> np.ndarray | None:
    """A complete hand laid out in a row on green felt, from real photographed tile faces."""
    if not (CROPS / "labels.csv").exists():
        return None
    by_tile: dict[str, list[str]] = {}
    with open(CROPS / "labels.csv", newline="") as f:
        for row in csv.DictReader(f):
            by_tile.setdefault(row["tile"], []).append(row["image"])
    tile_h = round(tile_w * 4 / 3)
    img = Image.new("RGB", (width, height), (34, 96, 64))
    x0, y0 = (width - len(HAND) * (tile_w + 3)) // 2, (height - tile_h) // 2
    for k, code in enumerate(HAND):
        with Image.open(CROPS / "images" / by_tile[code][0]) as im:
            face = im.convert("RGB").resize((tile_w, tile_h), Image.LANCZOS)
        img.paste(face, (x0 + k * (tile_w + 3), y0))
    return np.asarray(img)


def write_y4m(path: Path, rgb: np.ndarray, frames: int = 2) -> None:
    """A YUV4MPEG2 (4:2:0, BT.601 video range) file of the still picture, for Chromium's fake camera."""
    h, w = rgb.shape[:2]
    r, g, b = (rgb[..., i].astype(np.float32) for i in range(3))
    y = 16 + 0.257 * r + 0.504 * g + 0.098 * b
    u = 128 - 0.148 * r - 0.291 * g + 0.439 * b
    v = 128 + 0.439 * r - 0.368 * g - 0.071 * b
    sub = lambda p: p.reshape(h // 2, 2, w // 2, 2).mean((1, 3))  # noqa: E731
    planes = b"".join(np.clip(np.rint(p), 0, 255).astype(np.uint8).tobytes() for p in (y, sub(u), sub(v)))
    with open(path, "wb") as f:
        f.write(f"YUV4MPEG2 W{w} H{h} F30:1 Ip A1:1 C420jpeg\n".encode())
        for _ in range(frames):
            f.write(b"FRAME\n" + planes)


