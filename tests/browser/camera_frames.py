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


def crop_hand_picture(width: int = 960, height: int = 540, tile_w: int = 56,
                      codes: list[str] | None = None) -> np.ndarray | None:
    """`codes` (by default CROP_HAND) laid out in a row on green felt, from the Chinese-style tile crops."""
    if not (CROPS / "labels.csv").exists():
        return None
    codes = CROP_HAND if codes is None else codes
    by_tile: dict[str, list[str]] = {}
    with open(CROPS / "labels.csv", newline="") as f:
        for row in csv.DictReader(f):
            by_tile.setdefault(row["tile"], []).append(row["image"])
    tile_h = round(tile_w * 4 / 3)
    img = Image.new("RGB", (width, height), (34, 96, 64))
    x0, y0 = (width - len(codes) * (tile_w + 3)) // 2, (height - tile_h) // 2
    for k, code in enumerate(codes):
        with Image.open(CROPS / "images" / by_tile[code][0]) as im:
            face = im.convert("RGB").resize((tile_w, tile_h), Image.LANCZOS)
        img.paste(face, (x0 + k * (tile_w + 3), y0))
    return np.asarray(img)


def hide_tile(picture: np.ndarray, k: int, tile_w: int = 56) -> np.ndarray:
    """A copy of crop_hand_picture's `picture` (of that tile width) with its k-th tile under the
    felt: the row read with a gap, a tile short, as a tile the detector does not see."""
    out = picture.copy()
    tile_h = round(tile_w * 4 / 3)
    x0, y0 = (out.shape[1] - len(CROP_HAND) * (tile_w + 3)) // 2, (out.shape[0] - tile_h) // 2
    out[y0 - 2:y0 + tile_h + 2, x0 + k * (tile_w + 3) - 1:x0 + (k + 1) * (tile_w + 3)] = (34, 96, 64)
    return out


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




def cluttered_table_picture(width: int = 960, height: int = 540, tile_w: int = 56, seed: int = 7) -> np.ndarray | None:
    """The hand of DEV_TILES in a row on a wooden table among clutter drawn here: a laptop's keys
    (pale rounded squares with a letter, the size of a tile), a mug, pens, a sheet of paper, and two
    stray tiles from the tile cut-outs (../shared/data/tile-crops) lying apart from the row. The
    row is the hand; everything else is what a real table has around it."""
    from PIL import ImageDraw

    hand = dev_hand_picture(width, height, tile_w)
    if hand is None or not (CROPS / "labels.csv").exists():
        return None
    rng = np.random.default_rng(seed)
    tile_h = round(tile_w * 4 / 3)
    y0 = (height - tile_h) // 2
    x0 = (width - len(DEV_TILES) * (tile_w + 3)) // 2
    # wood: warm brown with grain
    yy, xx = np.mgrid[0:height, 0:width]
    grain = 12 * np.sin(xx / 37.0 + 3 * np.sin(yy / 53.0)) + rng.normal(0, 4, (height, width))
    wood = np.stack([150 + grain, 100 + grain * 0.8, 60 + grain * 0.5], -1).clip(0, 255).astype(np.uint8)
    img = Image.fromarray(wood)
    draw = ImageDraw.Draw(img)
    # a keyboard along the top: two rows of keys
    for r in range(2):
        for k in range(12):
            kx, ky = 40 + k * (tile_w + 12), 18 + r * (tile_w + 10)
            draw.rounded_rectangle((kx, ky, kx + tile_w, ky + tile_w), radius=8, fill=(228, 228, 224), outline=(150, 150, 150), width=2)
            draw.text((kx + tile_w // 3, ky + tile_w // 4), "QWERTYUIOPAS"[k], fill=(40, 40, 40))
    # a sheet of paper, pens and a mug below the row
    draw.rectangle((60, y0 + tile_h + 50, 300, height - 10), fill=(245, 245, 240))
    for k in range(4):
        draw.line((80, y0 + tile_h + 80 + 20 * k, 280, y0 + tile_h + 80 + 20 * k), fill=(120, 140, 200), width=2)
    draw.line((420, height - 60, 640, height - 110), fill=(30, 30, 160), width=9)
    draw.line((430, height - 30, 660, height - 70), fill=(180, 30, 30), width=7)
    draw.ellipse((760, y0 + tile_h + 40, 900, y0 + tile_h + 180), fill=(200, 60, 40), outline=(120, 30, 20), width=6)
    draw.ellipse((790, y0 + tile_h + 70, 870, y0 + tile_h + 150), fill=(70, 40, 20))
    # the hand's row, as dev_hand_picture lays it
    row = (x0 - 4, y0 - 4, x0 + len(DEV_TILES) * (tile_w + 3) + 4, y0 + tile_h + 4)
    img.paste(Image.fromarray(hand).crop(row), row[:2])
    # two stray tiles lying apart
    by_tile: dict[str, list[str]] = {}
    with open(CROPS / "labels.csv", newline="") as f:
        for line in csv.DictReader(f):
            by_tile.setdefault(line["tile"], []).append(line["image"])
    for code, (sx, sy) in (("7m", (340, y0 + tile_h + 60)), ("4p", (width - 90, 30))):
        with Image.open(CROPS / "images" / by_tile[code][0]) as im:
            img.paste(im.convert("RGB").resize((tile_w, tile_h), Image.LANCZOS), (sx, sy))
    return np.asarray(img)
