"""The hard cases drawn again from other seeds: a measure of each case beyond the one scene that
tests/data/hard_cases fixes (the reader's rules were shaped partly on those scenes). Evaluation
only, like training.font_rows.

    python -m training.case_scenes /tmp/clutter              # the clutter: 48 photos, seed 81
    python -m training.case_scenes /tmp/cases --others       # every other case: 132 photos, seed 82
    python -m training.evaluate /tmp/cases                   # per case: F1, exactly

Each case (training.hard_cases) drawn six times, each from a seed of its own. What a seed changes
is what the case draws at random: the tables' shading and grain everywhere; the dominoes' pips
and angles, the cards' ranks and angles, whether the keys are dark or light; where tiles standing
on their own stand, the granite's grains. The tiles are the case's own. A clutter case alone holds
no tile, so a photo of it read exactly is one where nothing was invented.
"""
from __future__ import annotations

import argparse
import os

import numpy as np

from training import hard_cases as hc

CLUTTER = [name for name, (kind, _) in hc.CASES.items() if kind == "clutter"]
OTHERS = [name for name, (kind, _) in hc.CASES.items() if kind != "clutter"]


def build(out: str, seed: int = 81, per_case: int = 6, cases: list[str] | None = None) -> dict:
    """`per_case` photos of each of `cases` (the clutter by default) and their labels in `out`;
    photo j of the k-th case is drawn from the seed (seed, k, j)."""
    os.makedirs(out, exist_ok=True)
    labels = {}
    for k, name in enumerate(CLUTTER if cases is None else cases):
        make = hc.CASES[name][1]
        for j in range(per_case):
            img, codes = make(np.random.default_rng([seed, k, j]))
            photo = f"{name}_{j}.jpg"
            hc.save_photo(out, photo, img)
            labels[photo] = {"kind": name, "tiles": codes, "back": hc.BACKS.get(name, 0)}
    hc.save_labels(out, labels)
    return labels


def build_others(out: str, seed: int = 82, per_case: int = 6) -> dict:
    """Every case that is not clutter, as `build` draws them."""
    return build(out, seed, per_case, OTHERS)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--others", action="store_true", help="every case but the clutter")
    ap.add_argument("--seed", type=int, help="81 for the clutter, 82 for the others unless given")
    args = ap.parse_args(argv)
    if args.others:
        build_others(args.out, 82 if args.seed is None else args.seed)
    else:
        build(args.out, 81 if args.seed is None else args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
