"""Camera frames for the live-camera test and benchmark: a complete hand laid out from tiles cut
out of the development photos (../shared/data/dev-photos, the riichi set players use), or from the
older Chinese-style tile crops (../shared/data/tile-crops), and a YUV4MPEG2 file of it for
Chromium's fake camera (--use-file-for-fake-video-capture)."""
from __future__ import annotations

import csv
import json
import os
from pathlib import Path

import numpy as np
from PIL import Image, ImageOps

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("TENBOU_SHARED", ROOT.parent / "shared"))  # the rule texts and data, beside the checkout
CROPS = SHARED / "data" / "tile-crops"
DEV_PHOTOS = SHARED / "data" / "dev-photos"
CROP_HAND = ["2m", "3m", "4m", "4p", "5p", "6p", "6s", "7s", "8s", "1z", "1z", "1z", "5z", "5z"]

# A complete closed hand (222p 999p 123s 111z 66z, won on 6z) from tiles of the development photos.
# labels.json has no boxes, so each box is the detector's box around the tile (pixels of the photo
# as stored, EXIF turn applied) and its face the labelled one: IMG_3085's row reads exactly as its
# labelled row, position by position; the other photos' labels list the tile. All checked by eye.
# The 3s lies askew on IMG_3086: a wider box, turned by `turn` degrees (anticlockwise), then `inner`
# cut out of the turned picture. A tile used two or three times is fine: a set has four of each.
DEV_TILES = [
    ("IMG_3085.jpg", "2p", (337, 870, 415, 974), 0, None),
    ("IMG_3085.jpg", "2p", (337, 870, 415, 974), 0, None),
    ("IMG_3085.jpg", "2p", (337, 870, 415, 974), 0, None),
    ("IMG_3085.jpg", "9p", (738, 867, 829, 977), 0, None),
    ("IMG_3085.jpg", "9p", (738, 867, 829, 977), 0, None),
    ("IMG_3085.jpg", "9p", (738, 867, 829, 977), 0, None),
    ("IMG_3090.jpg", "1s", (180, 1117, 427, 1419), 0, None),
    ("IMG_3085.jpg", "2s", (668, 862, 732, 973), 0, None),
    ("IMG_3086.jpg", "3s", (780, 520, 1030, 760), 137, (60, 22, 178, 168)),
    ("IMG_3085.jpg", "1z", (901, 861, 993, 972), 0, None),
    ("IMG_3085.jpg", "1z", (901, 861, 993, 972), 0, None),
    ("IMG_3085.jpg", "1z", (901, 861, 993, 972), 0, None),
    ("IMG_3095.jpg", "6z", (463, 701, 616, 890), 0, None),
    ("IMG_3095.jpg", "6z", (463, 701, 616, 890), 0, None),
]
DEV_HAND = [code for _, code, _, _, _ in DEV_TILES]
HAND = DEV_HAND  # what the fake camera shows in the tests and the benchmark


def dev_hand_picture(width: int = 960, height: int = 540, tile_w: int = 56) -> np.ndarray | None:
    """The hand of DEV_TILES laid out in one row on a plain green table, tiles cut out of the
    development photos; None when the photos are not there."""
    if not (DEV_PHOTOS / "labels.json").exists():
        return None
    labels = json.loads((DEV_PHOTOS / "labels.json").read_text())
    tile_h = round(tile_w * 4 / 3)
    img = Image.new("RGB", (width, height), (34, 96, 64))
    x0, y0 = (width - len(DEV_TILES) * (tile_w + 3)) // 2, (height - tile_h) // 2
    photos: dict[str, Image.Image] = {}
    for k, (name, code, box, turn, inner) in enumerate(DEV_TILES):
        if code not in labels[name]["tiles"]:
            raise ValueError(f"{name} is not labelled as showing a {code}")
        if name not in photos:
            with Image.open(DEV_PHOTOS / name) as im:
                photos[name] = ImageOps.exif_transpose(im).convert("RGB")
        face = photos[name].crop(box)
        if turn:
            face = face.rotate(turn, resample=Image.BICUBIC).crop(inner)
        img.paste(face.resize((tile_w, tile_h), Image.LANCZOS), (x0 + k * (tile_w + 3), y0))
    return np.asarray(img)


def crop_hand_picture(width: int = 960, height: int = 540, tile_w: int = 56) -> np.ndarray | None:
    """CROP_HAND laid out in a row on green felt, from the Chinese-style tile crops."""
    if not (CROPS / "labels.csv").exists():
        return None
    by_tile: dict[str, list[str]] = {}
    with open(CROPS / "labels.csv", newline="") as f:
        for row in csv.DictReader(f):
            by_tile.setdefault(row["tile"], []).append(row["image"])
    tile_h = round(tile_w * 4 / 3)
    img = Image.new("RGB", (width, height), (34, 96, 64))
    x0, y0 = (width - len(HAND) * (tile_w + 3)) // 2, (height - tile_h) // 2
    for k, code in enumerate(CROP_HAND):
        with Image.open(CROPS / "images" / by_tile[code][0]) as im:
            face = im.convert("RGB").resize((tile_w, tile_h), Image.LANCZOS)
        img.paste(face, (x0 + k * (tile_w + 3), y0))
    return np.asarray(img)


def hand_picture(width: int = 960, height: int = 540) -> np.ndarray | None:
    """The picture of HAND the fake camera shows."""
    return dev_hand_picture(width, height)


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


