"""Plain light things beside the tiles: a sheet, a napkin, a white phone's back, a cup seen from
above. Each labelled photo of a folder is read once; one plain shape (a rectangle, a trapezoid or
an ellipse, off-white, 2 to 5 times the tiles' size unless `--sizes`) is painted where it lies at
least a tile's size from every tile read, and the photo is read again. Evaluation only: the numbers of
models/HISTORY.md's "A plain light thing read as haku" (recognition.reading.Settings.giant,
recognition.scales.giants) come from it.

    python -m training.case_scenes /tmp/cases --others
    python -m training.plain_things /tmp/cases tests/data/hard_cases [--sizes 1,1.6]

For each reader (the rule on, as shipped, and off): the photos where anything is read on the shape,
how many of those readings are haku, and the labelled tiles the photos lose with the shape there.
A haku is a plain light face: the classifier, which sees each box shrunk to 64 px, cannot tell
one from a plain thing of any size, so only the thing's size beside the tiles can.
"""
from __future__ import annotations

import argparse
import dataclasses
from collections import Counter

import cv2
import numpy as np

from recognition import scales
from recognition.pipeline import MODELS_DIR, Recognizer, Settings
from training.datasets import load_real


@dataclasses.dataclass
class Tally:
    photos: int = 0  # photos with a shape painted
    read_on: int = 0  # photos where a tile is read on the shape
    haku_on: int = 0  # of the tiles read on shapes, haku
    lost: int = 0  # labelled tiles not read (the shape's readings left out)


def paint(img: np.ndarray, boxes: list, rng: np.random.Generator,
          sizes: tuple[float, float] = (2.0, 5.0)) -> tuple[float, float, float, float] | None:
    """One plain light shape painted into `img` (BGR, in place) clear of `boxes` (the tiles read),
    `sizes` times the tiles' size (drawn between the two); its box, or None when no place is found."""
    size = scales.tile_size([tuple(b[:4]) + (1.0,) for b in boxes])
    if size is None:
        return None
    height, width = img.shape[:2]
    for _ in range(200):
        s = size * rng.uniform(*sizes)
        w = s * rng.uniform(0.7, 1.3)
        h = s * s / w
        x, y = rng.uniform(0, max(width - w, 1)), rng.uniform(0, max(height - h, 1))
        if w >= 0.6 * width or h >= 0.6 * height:
            continue
        if all(x + w < b[0] - size or x > b[2] + size or y + h < b[1] - size or y > b[3] + size for b in boxes):
            break
    else:
        return None
    colour = tuple(int(c) for c in rng.integers(195, 250, 3))
    shape = int(rng.integers(3))
    if shape == 0:
        cv2.rectangle(img, (int(x), int(y)), (int(x + w), int(y + h)), colour, -1)
    elif shape == 1:  # a sheet seen from a low angle
        d = 0.15 * w
        quad = np.array([[x + d, y], [x + w - d, y], [x + w, y + h], [x, y + h]], np.int32)
        cv2.fillPoly(img, [quad], colour)
    else:  # a cup or a plate from above
        cv2.ellipse(img, (int(x + w / 2), int(y + h / 2)), (int(w / 2), int(h / 2)), 0, 0, 360, colour, -1)
    return x, y, x + w, y + h


def measure(folders: list[str], seed: int = 5, models: str = MODELS_DIR,
            sizes: tuple[float, float] = (2.0, 5.0)) -> dict[str, Tally]:
    readers = {"on": Recognizer.from_directory(models),
               "off": Recognizer.from_directory(models, settings=dataclasses.replace(Settings(), giant=None))}
    tally = {name: Tally() for name in readers}
    rng = np.random.default_rng(seed)
    for photo in load_real(folders):
        if not photo.tiles:
            continue
        with open(photo.path, "rb") as f:
            data = f.read()
        tiles = readers["off"].recognize(data).tiles
        if len(tiles) < 4:
            continue
        img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        where = paint(img, [t.box for t in tiles], rng, sizes)
        if where is None:
            continue
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 85])
        x1, y1, x2, y2 = where
        for name, rec in readers.items():
            read = rec.recognize(buf.tobytes()).tiles
            on = [t for t in read if x1 - 5 <= (t.box[0] + t.box[2]) / 2 <= x2 + 5
                  and y1 - 5 <= (t.box[1] + t.box[3]) / 2 <= y2 + 5]
            rest = Counter(t.tile for t in read if not t.face_down and t not in on)
            t = tally[name]
            t.photos += 1
            t.read_on += bool(on)
            t.haku_on += sum(r.tile == "5z" for r in on)
            t.lost += sum((photo.tiles - rest).values())
    return tally


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="+", help="folders of labelled photos (a labels.json, or a real-photos folder)")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--sizes", default="2,5", help="the shapes' sizes, least and most, in tiles' sizes")
    args = ap.parse_args(argv)
    least, most = (float(v) for v in args.sizes.split(","))
    for name, t in measure(args.folders, args.seed, sizes=(least, most)).items():
        print(f"rule {name:3}: {t.photos} photos, a tile read on the shape in {t.read_on} ({t.haku_on} haku), "
              f"labelled tiles lost {t.lost}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
