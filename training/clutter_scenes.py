"""The hard cases' clutter drawn again from other seeds: a measure of the issue's "nothing invented
on clutter" beyond the one scene of each that tests/data/hard_cases fixes. Evaluation only, like
training.font_rows.

    python -m training.clutter_scenes /tmp/clutter      # 48 photos and a labels.json
    python -m training.evaluate /tmp/clutter            # per kind: what is read beyond the labels

Each of the hard-case suite's clutter cases (training.hard_cases: keyboards, dice and cards beside
a hand, a line of print, dominoes, number cards, a calculator) drawn six times, each from a seed
of its own: the dominoes' pips and angles, the cards' ranks and angles, whether the keys are dark
or light, and the tables' shading differ from the fixture's; the hands beside them are the cases'
own. A case alone holds no tile, so a photo of it read exactly is one where nothing was invented.
"""
from __future__ import annotations

import os

import numpy as np

from training import hard_cases as hc
from training.font_rows import suite_command

CASES = [name for name, (kind, _) in hc.CASES.items() if kind == "clutter"]


def build(out: str, seed: int = 81, per_case: int = 6) -> dict:
    os.makedirs(out, exist_ok=True)
    labels = {}
    for k, name in enumerate(CASES):
        make = hc.CASES[name][1]
        for j in range(per_case):
            img, codes = make(np.random.default_rng([seed, k, j]))
            photo = f"{name}_{j}.jpg"
            hc.save_photo(out, photo, img)
            labels[photo] = {"kind": name, "tiles": codes, "back": 0}
    hc.save_labels(out, labels)
    return labels


def main(argv: list[str] | None = None) -> int:
    args = suite_command(__doc__, 81).parse_args(argv)
    build(args.out, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
