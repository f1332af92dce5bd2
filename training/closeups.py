"""Close-ups: one tile or two side by side filling much of the photo, drawn by training.hard_cases'
own code (issue 19: "a close-up of one or two tiles ... must both work"). Evaluation only: the
numbers of models/HISTORY.md's "Reading at the tiles' scale" (recognition.scales: ScaleRule.closeup_few,
pieces_cover, blob_sure) come from these photos.

    python -m training.closeups /tmp/closeups                      # seeds from 0, upright
    python -m training.closeups /tmp/closeups --seed 300 --lean 0.02
    python -m training.evaluate /tmp/closeups                      # exact share per kind

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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--lean", type=float, default=0.0)
    args = ap.parse_args(argv)
    build(args.out, args.seed, args.lean)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
