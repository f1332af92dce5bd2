"""Hand rows with red fives drawn as no training stage draws them: a measure of the issue's "red
fives at least 0.9" on sets of other artwork (issue 19), which the font rows and pin rows cannot
give, since they hold no red five. Evaluation only, like training.font_rows and training.pin_rows
(whose drawings it uses).

    python -m training.red_rows /tmp/red_rows          # 16 photos and a labels.json
    python -m training.evaluate /tmp/red_rows          # red-five recall, and reds read where there is none

Four drawings, four rows each: the manzu set in one of the four held-out fonts of training.font_rows,
the pinzu and souzu drawn in one of training.pin_rows's pairs. A red five is drawn as real sets draw
it: its five's ink all red (the 五 as well as the 萬; every pip; every stick), where the plain five
keeps its one red pip or stick, or its red 萬 alone. Each row holds, per suit, a red five (four
times in five), a plain five (three times in four) and fourteen tiles in all, the rest manzu,
pinzu and souzu of other numbers, sorted as a player keeps them; on felt, tiles 46-60 px wide in a
1008 px photo.
"""
from __future__ import annotations

import os

import numpy as np

from training import hard_cases as hc
from training.font_rows import FELTS, FONTS, NUMERAL_INKS, SUIT_ORDER, row_photo, suite_command
from training.pin_rows import PIN_INKS, RED, STICK_INKS, pin_face, sou_face

# (font of training.font_rows, pins, sticks of training.pin_rows)
DRAWINGS = [("ukai", "wheel", "lozenge"), ("uming", "sun", "outline"), ("zenhei", "wheel", "outline"),
            ("bsmi", "sun", "lozenge")]


def red_row(rng: np.random.Generator) -> list[str]:
    """Fourteen codes: per suit a red five (0m, 0p, 0s) four times in five and a plain five three
    times in four, the rest other numbers of the three suits, no tile more than four times, sorted
    as a player sorts a hand (a red five where its five stands)."""
    while True:
        codes: list[str] = []
        for suit in "mps":
            if rng.random() < 0.8:
                codes.append(f"0{suit}")
            if rng.random() < 0.75:
                codes.append(f"5{suit}")
        if not any(c[0] == "0" for c in codes):
            continue
        others = [f"{n}{s}" for n in (1, 2, 3, 4, 6, 7, 8, 9) for s in "mps"]
        codes += rng.choice(others, 14 - len(codes)).tolist()
        if max(codes.count(c) for c in codes) <= 4:
            return sorted(codes, key=lambda c: (SUIT_ORDER[c[1]], 5 if c[0] == "0" else int(c[0]), c[0]))


def faces_for(codes: list[str], font: str, pins: str, sticks: str, k: int) -> dict[str, list[np.ndarray]]:
    """The face of each code in the row's drawings (`k` picks the inks)."""
    numeral = NUMERAL_INKS[k % len(NUMERAL_INKS)]
    pin_ink, stick_ink = PIN_INKS[pins][k % 2], STICK_INKS[sticks][k % 2]
    faces = {}
    for c in set(codes):
        red, n, suit = c[0] == "0", 5 if c[0] == "0" else int(c[0]), c[1]
        if suit == "m":
            faces[c] = [hc.brush_face(f"{n}m", font, RED if red else numeral)]
        elif suit == "p":
            faces[c] = [pin_face(n, pins, RED if red else pin_ink)]
        elif n > 1:
            faces[c] = [sou_face(n, sticks, RED if red else stick_ink)]
        else:  # the 1s is a bird, a drawing of its own: the usual artwork
            faces[c] = [hc.face(c)]
    return faces


def build(out: str, seed: int = 80, rows: int = 4) -> dict:
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(seed)
    labels = {}
    for name, pins, sticks in DRAWINGS:
        font = FONTS[name]
        if not os.path.exists(font):
            raise FileNotFoundError(f"{font}: install the Debian package (training/font_rows.py)")
        for k in range(rows):
            codes = red_row(rng)
            photo = f"{name}_{pins}_{sticks}_{k}.jpg"
            row_photo(out, photo, codes, faces_for(codes, font, pins, sticks, k), FELTS[k % len(FELTS)], rng)
            labels[photo] = {"kind": name, "tiles": codes, "back": 0}
    hc.save_labels(out, labels)
    return labels


def main(argv: list[str] | None = None) -> int:
    args = suite_command(__doc__, 80).parse_args(argv)
    build(args.out, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
