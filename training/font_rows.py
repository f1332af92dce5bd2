"""Hand rows whose manzu and honours are set in CJK fonts no training stage uses: a measure of how
the classifier reads sets drawn by other hands (issue 19), wider than the hard-case suite's three
font rows. Evaluation only, like training.hard_cases (whose drawing code it uses).

    python -m training.font_rows /tmp/font_rows        # 16 photos and a labels.json
    python -m training.evaluate /tmp/font_rows          # tile F1 per font

Four fonts, four rows each: AR PL UKai (brush kai), AR PL UMing (Ming, thin strokes), WenQuanYi
Zen Hei (sans), AR PL Mingti2L Big5 (another Ming); Debian's fonts-arphic-ukai,
fonts-arphic-uming, fonts-wqy-zenhei, fonts-arphic-bsmi00lp. Each row: eight manzu, four honours
(winds and dragons) and two pinzu or souzu in the usual artwork, drawn at random from a fixed
seed, on felt of four colours, tiles 46-60 px wide in a 1008 px photo.

With `--hands`, each row is a winning hand instead (`winning_hand`: four sets and a pair, mostly
manzu and honours), in the order a player keeps it: what the reader's hand proposal
(recognition.hand) can complete, as it does for a photo of a real hand, where a random row gives it
nothing to go on.

    python -m training.font_rows /tmp/font_hands --hands
"""
from __future__ import annotations

import argparse
import os

import numpy as np

from training import hard_cases as hc

FONTS = {
    "ukai": hc.BRUSH_FONT,
    "uming": hc.MING_FONT,
    "zenhei": hc.SANS_FONT,
    "bsmi": "/usr/share/fonts/truetype/arphic-bsmi00lp/bsmi00lp.ttf",
}
FELTS = [(95, 70, 50), (35, 95, 60), (30, 60, 120), (150, 140, 125)]
NUMERAL_INKS = [(25, 35, 90), (20, 20, 25)]
HONOURS = ["1z", "2z", "3z", "4z", "6z", "7z"]


SUIT_ORDER = {"m": 0, "p": 1, "s": 2, "z": 3}


def winning_hand(rng: np.random.Generator) -> list[str]:
    """Fourteen tiles that win: four sets and a pair, no tile more than four times, sorted as a
    player sorts a hand (manzu, pinzu, souzu, honours). Each set is a manzu run (55%), a manzu
    triplet (20%), an honour triplet (15%) or a run of pinzu or souzu (10%); the pair is of manzu or
    honours."""
    while True:
        codes: list[str] = []
        for _ in range(4):
            u = rng.random()
            if u < 0.55:
                n = int(rng.integers(1, 8))
                codes += [f"{n}m", f"{n + 1}m", f"{n + 2}m"]
            elif u < 0.75:
                codes += [f"{int(rng.integers(1, 10))}m"] * 3
            elif u < 0.9:
                codes += [str(rng.choice(HONOURS))] * 3
            else:
                n, suit = int(rng.integers(1, 8)), str(rng.choice(["p", "s"]))
                codes += [f"{n}{suit}", f"{n + 1}{suit}", f"{n + 2}{suit}"]
        codes += [f"{int(rng.integers(1, 10))}m" if rng.random() < 0.5 else str(rng.choice(HONOURS))] * 2
        if max(codes.count(c) for c in codes) <= 4:
            return sorted(codes, key=lambda c: (SUIT_ORDER[c[1]], c[0]))


def row_photo(out: str, photo: str, codes: list[str], faces: dict[str, list[np.ndarray]],
              felt: tuple[int, int, int], rng: np.random.Generator) -> None:
    """One hand row of `faces` lying on `felt`, tiles 46-60 px wide in a 1008 px photo, saved as `photo`."""
    img = hc.table(rng, felt)
    w = float(rng.uniform(46, 60))
    hc._row(img, codes, 60, 300, w, w * 1.33, (200, 140, 40), faces, rng)
    hc.save_photo(out, photo, img)


def build(out: str, seed: int = 77, rows: int = 4, hands: bool = False) -> dict:
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(seed)
    labels = {}
    for name, font in FONTS.items():
        if not os.path.exists(font):
            raise FileNotFoundError(f"{font}: install the Debian package (training/font_rows.py)")
        for k in range(rows):
            codes = winning_hand(rng) if hands else (
                sorted(rng.choice([f"{n}m" for n in range(1, 10)], 8).tolist())
                + sorted(rng.choice(HONOURS, 4).tolist())
                + sorted(rng.choice([f"{n}{s}" for n in range(1, 10) for s in "ps"], 2).tolist()))
            ink = NUMERAL_INKS[k % len(NUMERAL_INKS)]
            faces = {c: [hc.brush_face(c, font, ink) if c[1] in "mz" else hc.face(c)] for c in set(codes)}
            photo = f"{name}_{k}.jpg"
            row_photo(out, photo, codes, faces, FELTS[k % len(FELTS)], rng)
            labels[photo] = {"kind": name, "tiles": codes, "back": 0}
    hc.save_labels(out, labels)
    return labels


def suite_command(doc: str | None, seed: int) -> argparse.ArgumentParser:
    """The command line of a drawn suite (this one, training.pin_rows, training.red_rows): the
    folder to draw into and the seed."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=seed)
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = suite_command(__doc__, 77)
    ap.add_argument("--hands", action="store_true", help="winning hands, not random rows")
    args = ap.parse_args(argv)
    build(args.out, args.seed, hands=args.hands)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
