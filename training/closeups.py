"""Close-ups: one tile or two side by side filling much of the photo, drawn by training.hard_cases'
own code (issue 19: "a close-up of one or two tiles ... must both work"). Evaluation only: the
numbers of models/HISTORY.md's "Reading at the tiles' scale" (recognition.scales: ScaleRule.closeup_few,
pieces_cover, blob_sure) come from these photos.

    python -m training.closeups /tmp/closeups                      # seeds from 0, upright
    python -m training.closeups /tmp/closeups --seed 300 --lean 0.02
    python -m training.evaluate /tmp/closeups                      # exact share per kind
    python -m training.closeups /tmp/crop_closeups --crops         # photographed tiles of another set
    python -m training.closeups /tmp/stacks --stacked --seed 1     # two of them one above the other
    python -m training.closeups /tmp/things --things --seed 5      # no tile: cards, dominoes, keys
    python -m training.closeups /tmp/things --things --each 60     # five times as many

Every one of the 37 faces (red fives included) once per size, on one of five felts in turn, each
photo from its own seed (`--seed` plus the face's index). Kinds: `one_44`, `one_88`, `one_99` (one
tile 44%, 88% and 99% of the 1008 x 756 photo's height) and `two_200` to `two_460` (two tiles side
by side, each face that many px wide: 35% to 81% of the height), the second tile of a pair seven
faces on. `--lean` tips the faces back, as a phone held above the table sees them.
"""
from __future__ import annotations

import argparse
import os

import numpy as np

from training import hard_cases as hc
from training.labels import RED_FIVES, TILE_CODES

CODES = TILE_CODES + RED_FIVES
FELTS = [(120, 45, 40), (40, 110, 60), (70, 70, 75), (150, 150, 140), (30, 30, 35)]
ONE = {"one_44": (330, 440), "one_88": (500, 667), "one_99": (560, 747)}  # one face's w x h
TWO = (200, 300, 380, 460)  # each face's width; its height 4/3 of it


def photo(codes: list[str], w: float, h: float, seed: int, lean: float) -> np.ndarray:
    """The faces `codes` side by side, each `w` x `h`, centred on a felt drawn from `seed`."""
    rng = np.random.default_rng(seed)
    img = hc.table(rng, FELTS[seed % len(FELTS)])
    span = len(codes) * w + len(codes) - 1
    hc._row(img, codes, (hc.W - span) / 2, (hc.H - h) / 2, w, h, (40, 90, 170), lean=lean)
    return img


def build(out: str, seed: int = 0, lean: float = 0.0) -> dict:
    os.makedirs(out, exist_ok=True)
    labels = {}
    for j, code in enumerate(CODES):
        for kind, (w, h) in ONE.items():
            name = f"{kind}_{code}.jpg"
            hc.save_photo(out, name, photo([code], w, h, seed + j, lean))
            labels[name] = {"kind": kind, "tiles": [code], "back": 0}
        pair = [code, CODES[(j * 7 + 3) % len(CODES)]]
        for w in TWO:
            name = f"two_{w}_{code}.jpg"
            hc.save_photo(out, name, photo(pair, w, w * 4 / 3, seed + j, lean))
            labels[name] = {"kind": f"two_{w}", "tiles": pair, "back": 0}
    hc.save_labels(out, labels)
    return labels


CROP_ONE = (0.6, 0.8, 0.95)  # one photographed face, this share of the portrait photo's height
CROP_TWO = (0.5, 0.7, 0.9)  # two side by side, this share of the landscape photo's width


def _pasted(img: np.ndarray, faces: list[np.ndarray], x: float, y: float, w: float) -> None:
    """`faces` (RGB uint8) side by side from (x, y), each `w` wide (its height by its own shape),
    6 px apart, resampled by area or cubic as a camera nearer or farther would."""
    import cv2

    for k, f in enumerate(faces):
        h = w * f.shape[0] / f.shape[1]
        fw, fh = int(round(w)), int(round(h))
        up = fw > f.shape[1]
        tile = cv2.resize(f, (fw, fh), interpolation=cv2.INTER_CUBIC if up else cv2.INTER_AREA)
        x0, y0 = int(round(x + k * (w + 6))), int(round(y))
        img[y0:y0 + fh, x0:x0 + fw] = tile


def build_crops(out: str, seed: int = 0, singles: int = 40, pairs: int = 30) -> dict:
    """Close-ups of photographed tiles of another set (``data/tile-crops``, faces cut close, 240 x 320):
    `singles` faces each filling CROP_ONE of a 756 x 1008 photo's height, and `pairs` pairs each
    filling CROP_TWO of a 1008 x 756 photo's width, on the felts in turn; the faces drawn from
    `seed`. A measure only (models/HISTORY.md, "Tiles filling the frame, read whole")."""
    import csv

    from PIL import Image

    root = os.path.join(hc.SHARED, "data", "tile-crops")
    with open(os.path.join(root, "labels.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    rng = np.random.default_rng(seed)
    pick = [rows[int(i)] for i in rng.choice(len(rows), singles + 2 * pairs, replace=False)]

    def face(row: dict) -> np.ndarray:
        return np.asarray(Image.open(os.path.join(root, "images", row["image"])).convert("RGB"))

    os.makedirs(out, exist_ok=True)
    labels = {}
    n = 0
    for j, row in enumerate(pick[:singles]):
        f = face(row)
        for share in CROP_ONE:
            img = hc.table(np.random.default_rng([seed, j, n]), FELTS[n % len(FELTS)], size=(hc.H, hc.W))
            n += 1
            h = share * hc.W
            w = h * f.shape[1] / f.shape[0]
            _pasted(img, [f], (hc.H - w) / 2, (hc.W - h) / 2, w)
            name = f"crop_one_{round(share * 100)}_{j:02d}.jpg"
            hc.save_photo(out, name, img)
            labels[name] = {"kind": f"crop_one_{round(share * 100)}", "tiles": [row["tile"]], "back": 0}
    for j in range(pairs):
        a, b = pick[singles + 2 * j], pick[singles + 2 * j + 1]
        fa, fb = face(a), face(b)
        for share in CROP_TWO:
            img = hc.table(np.random.default_rng([seed, singles + j, n]), FELTS[n % len(FELTS)])
            n += 1
            w = share * hc.W / 2
            h = w * fa.shape[0] / fa.shape[1]
            _pasted(img, [fa, fb], (hc.W - 2 * w - 6) / 2, max(0.0, (hc.H - h) / 2), w)
            name = f"crop_two_{round(share * 100)}_{j:02d}.jpg"
            hc.save_photo(out, name, img)
            labels[name] = {"kind": f"crop_two_{round(share * 100)}", "tiles": [a["tile"], b["tile"]], "back": 0}
    hc.save_labels(out, labels)
    return labels


CROP_STACKED = (0.7, 0.85, 0.95)  # two faces one above the other, this share of the portrait photo's height


def build_stacks(out: str, seed: int = 1, stacks: int = 30) -> dict:
    """Two photographed faces (``data/tile-crops``) one above the other, 6 px apart, together
    filling each of CROP_STACKED of a 756 x 1008 photo's height, on the felts in turn: boxed as
    one, they are as narrow as a face boxed by its sticks, and must not be read as one tile
    (reading.WHOLE_TALL). A measure only (models/HISTORY.md, "A face boxed by its sticks, and read
    in its own light")."""
    import csv

    from PIL import Image

    root = os.path.join(hc.SHARED, "data", "tile-crops")
    with open(os.path.join(root, "labels.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    rng = np.random.default_rng(seed)
    pick = [rows[int(i)] for i in rng.choice(len(rows), 2 * stacks, replace=False)]

    def face(row: dict) -> np.ndarray:
        return np.asarray(Image.open(os.path.join(root, "images", row["image"])).convert("RGB"))

    os.makedirs(out, exist_ok=True)
    labels = {}
    n = 0
    for j in range(stacks):
        a, b = pick[2 * j], pick[2 * j + 1]
        fa, fb = face(a), face(b)
        for share in CROP_STACKED:
            img = hc.table(np.random.default_rng([seed, j, n]), FELTS[n % len(FELTS)], size=(hc.H, hc.W))
            n += 1
            h = (share * hc.W - 6) / 2
            w = h * fa.shape[1] / fa.shape[0]
            top = (hc.W - 2 * h - 6) / 2
            _pasted(img, [fa], (hc.H - w) / 2, top, w)
            _pasted(img, [fb], (hc.H - w) / 2, top + h + 6, w)
            name = f"stack_{round(share * 100)}_{j:02d}.jpg"
            hc.save_photo(out, name, img)
            labels[name] = {"kind": f"stack_{round(share * 100)}", "tiles": [a["tile"], b["tile"]], "back": 0}
    hc.save_labels(out, labels)
    return labels


def close_keys(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A laptop keyboard seen so close its keys are tile-sized, filling a photo of `size` (w, h):
    keys 8-20% of the photo's longer side apart, light or dark (training.hard_cases.keyboard), the
    keyboard turned up to 12 degrees about a point drawn on it, that point at the photo's centre."""
    import cv2

    w, h = size
    pitch = float(rng.uniform(0.08, 0.2)) * max(w, h)
    row = pitch * float(rng.uniform(0.85, 1.25))
    kw, kh = int(13 * pitch + 20), int(5 * row)
    pad = max(w, h)  # the laptop's body round the keys, so no turn shows past it
    body = int(rng.integers(60, 200))
    deck = hc.table(rng, (body, body, body + 4), grain=4, size=(kw + 2 * pad, kh + 2 * pad))
    hc.keyboard(deck, pad, pad, pad + kw, pad + kh, rng)
    px, py = pad + float(rng.uniform(0.25, 0.75)) * kw, pad + float(rng.uniform(0.25, 0.75)) * kh
    m = cv2.getRotationMatrix2D((px, py), float(rng.uniform(-12, 12)), 1.0)
    m[0, 2] += w / 2 - px
    m[1, 2] += h / 2 - py
    return cv2.warpAffine(deck, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def build_things(out: str, seed: int = 5, each: int = 12) -> dict:
    """Things that are no tile filling the frame, `each` of every kind in portrait and landscape
    photos (keys once): a number card 55-80% of the shorter side wide, a domino lying across the
    frame and one upright, a laptop keyboard seen so close its keys are tile-sized (`close_keys`, in
    portrait and landscape in turn). Labelled with no tile. A measure only (models/README.md,
    "Dominoes and number cards")."""
    os.makedirs(out, exist_ok=True)
    labels = {}
    n = 0

    def save(name: str, img: np.ndarray, kind: str) -> None:
        hc.save_photo(out, name, img)
        labels[name] = {"kind": kind, "tiles": [], "back": 0}

    for j in range(each):
        rng = np.random.default_rng([seed, j])
        for portrait in (True, False):
            size = (hc.H, hc.W) if portrait else (hc.W, hc.H)
            short, cx, cy = min(size), size[0] / 2, size[1] / 2
            img = hc.table(rng, FELTS[n % len(FELTS)], size=size)
            n += 1
            w = float(rng.uniform(0.55, 0.8)) * short * (1.0 if portrait else 0.7)
            hc.number_card(img, cx, cy, w, float(rng.uniform(-8, 8)), int(rng.integers(2, 11)), bool(rng.random() < 0.5))
            save(f"card_{j}_{int(portrait)}.jpg", img, "card")
            img = hc.table(rng, FELTS[n % len(FELTS)], size=size)
            n += 1
            w = float(rng.uniform(0.3, 0.45)) * min(max(size), 1.6 * short)
            hc.domino(img, cx, cy, w, 90.0 + float(rng.uniform(-6, 6)), int(rng.integers(0, 7)), int(rng.integers(0, 7)))
            save(f"domino_across_{j}_{int(portrait)}.jpg", img, "domino_across")
            img = hc.table(rng, FELTS[n % len(FELTS)], size=size)
            n += 1
            w = float(rng.uniform(0.25, 0.4)) * short
            hc.domino(img, cx, cy, w, float(rng.uniform(-6, 6)), int(rng.integers(0, 7)), int(rng.integers(0, 7)))
            save(f"domino_upright_{j}_{int(portrait)}.jpg", img, "domino_upright")
        save(f"keys_close_{j}.jpg", close_keys(rng, (hc.W, hc.H) if j % 2 else (hc.H, hc.W)), "keys_close")
    hc.save_labels(out, labels)
    return labels


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--lean", type=float, default=0.0)
    ap.add_argument("--crops", action="store_true", help="photographed tiles of another set instead (build_crops)")
    ap.add_argument("--stacked", action="store_true", help="photographed tiles two one above the other (build_stacks)")
    ap.add_argument("--things", action="store_true", help="things that are no tile filling the frame (build_things)")
    ap.add_argument("--each", type=int, default=12, help="with --things: how many of each kind")
    args = ap.parse_args(argv)
    if args.things:
        build_things(args.out, args.seed, args.each)
    elif args.stacked:
        build_stacks(args.out, args.seed)
    elif args.crops:
        build_crops(args.out, args.seed)
    else:
        build(args.out, args.seed, args.lean)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
