"""Hand rows whose pinzu and souzu are drawn in ways no training stage draws: a measure of how the
classifier reads the circles and bamboos of other sets (issue 19: "5p read as 7p, 7p and 9p as 8p,
9s as 6s"), as training.font_rows is for manzu and honours. Evaluation only.

    python -m training.pin_rows /tmp/pin_rows          # 16 photos and a labels.json
    python -m training.evaluate /tmp/pin_rows          # tile F1 per drawing

Pins are drawn as wheels (a ring, eight spokes, a dark hub: many Chinese sets) or suns (a disc
with a ring of short rays); sticks as lozenges (pointed, with a band across the middle) or as
outlines (hollow, jointed). The training renderer draws pins as rings with a dot, concentric rings,
white-petalled flowers or discs (training.artwork) and sticks as round-capped strokes, besides
FluffyStuff's artwork. Where the pips and sticks sit is the usual layout (training.artwork's), as
every set shares it. Each row: six pinzu, six souzu (1s in the usual artwork, as its bird is a
drawing of its own) and two manzu in the usual artwork, from a fixed seed, on felt, tiles 46-60 px
wide in a 1008 px photo. Four pairs of drawings, four rows each.
"""
from __future__ import annotations

import os

import cv2
import numpy as np

from training import hard_cases as hc
from training.artwork import _PIN, _PIN_RED, _SOU, _SOU_RED
from training.font_rows import FELTS, row_photo, suite_command

SS = 2  # drawn at twice the face size, then shrunk (antialiasing)
RED = (195, 35, 40)
PIN_INKS = {"wheel": [(25, 25, 30), (30, 45, 120)], "sun": [(30, 60, 150), (35, 120, 70)]}
STICK_INKS = {"lozenge": [(25, 95, 110), (30, 50, 130)], "outline": [(30, 110, 55), (20, 20, 25)]}
PAIRS = [("wheel", "lozenge"), ("wheel", "outline"), ("sun", "lozenge"), ("sun", "outline")]


def _canvas() -> np.ndarray:
    out = np.empty((hc.FACE_H * SS, hc.FACE_W * SS, 3), np.uint8)
    out[:] = hc.IVORY
    return out


def _done(c: np.ndarray) -> np.ndarray:
    return cv2.resize(c, (hc.FACE_W, hc.FACE_H), interpolation=cv2.INTER_AREA)


def _pin(c: np.ndarray, x: float, y: float, r: float, ink: tuple[int, int, int], style: str) -> None:
    h, w = c.shape[:2]
    cx, cy, rr = int(x * w), int(y * h), max(6, int(r * w))
    if style == "wheel":
        cv2.circle(c, (cx, cy), rr, ink, max(2, rr // 5), cv2.LINE_AA)
        for a in range(0, 180, 45):
            dx, dy = np.cos(np.deg2rad(a)) * rr * 0.85, np.sin(np.deg2rad(a)) * rr * 0.85
            cv2.line(c, (int(cx - dx), int(cy - dy)), (int(cx + dx), int(cy + dy)), ink, max(1, rr // 9), cv2.LINE_AA)
        cv2.circle(c, (cx, cy), max(2, rr // 3), ink, -1, cv2.LINE_AA)
    else:  # a sun: a disc, a light ring inside it, short rays around it
        for a in range(0, 360, 30):
            dx, dy = np.cos(np.deg2rad(a)), np.sin(np.deg2rad(a))
            cv2.line(c, (int(cx + dx * rr * 0.9), int(cy + dy * rr * 0.9)), (int(cx + dx * rr * 1.15), int(cy + dy * rr * 1.15)),
                     ink, max(1, rr // 8), cv2.LINE_AA)
        cv2.circle(c, (cx, cy), int(rr * 0.85), ink, -1, cv2.LINE_AA)
        cv2.circle(c, (cx, cy), int(rr * 0.55), hc.IVORY, max(1, rr // 8), cv2.LINE_AA)


def pin_face(n: int, style: str, ink: tuple[int, int, int]) -> np.ndarray:
    c = _canvas()
    if n == 1:
        _pin(c, 0.5, 0.5, 0.34, ink, style)
        cv2.circle(c, (c.shape[1] // 2, c.shape[0] // 2), int(0.1 * c.shape[1]), RED, -1, cv2.LINE_AA)
        return _done(c)
    r = {2: 0.17, 3: 0.14, 4: 0.15, 5: 0.13, 6: 0.12, 7: 0.105, 8: 0.105, 9: 0.105}[n]
    for i, (x, y) in enumerate(_PIN[n]):
        _pin(c, x, y, r, RED if i in _PIN_RED.get(n, set()) else ink, style)
    return _done(c)


def _stick(c: np.ndarray, x: float, y: float, length: float, width: float, angle: float,
           ink: tuple[int, int, int], style: str) -> None:
    h, w = c.shape[:2]
    ux, uy = np.sin(np.deg2rad(angle)), np.cos(np.deg2rad(angle))  # along the stick
    half_l, half_w = length * h / 2, width * w / 2
    cx, cy = x * w, y * h
    if style == "lozenge":
        pts = np.array([(cx - ux * half_l, cy - uy * half_l), (cx + uy * half_w, cy - ux * half_w),
                        (cx + ux * half_l, cy + uy * half_l), (cx - uy * half_w, cy + ux * half_w)], np.int32)
        cv2.fillPoly(c, [pts], ink, cv2.LINE_AA)
        band = np.array([(cx - uy * half_w * 0.9, cy + ux * half_w * 0.9), (cx + uy * half_w * 0.9, cy - ux * half_w * 0.9)], np.int32)
        cv2.line(c, tuple(band[0]), tuple(band[1]), hc.IVORY, max(1, int(half_w * 0.25)), cv2.LINE_AA)
    else:  # a hollow stick with two joints
        pts = np.array([(cx - ux * half_l - uy * half_w, cy - uy * half_l + ux * half_w),
                        (cx - ux * half_l + uy * half_w, cy - uy * half_l - ux * half_w),
                        (cx + ux * half_l + uy * half_w, cy + uy * half_l - ux * half_w),
                        (cx + ux * half_l - uy * half_w, cy + uy * half_l + ux * half_w)], np.int32)
        cv2.polylines(c, [pts], True, ink, max(2, int(half_w * 0.35)), cv2.LINE_AA)
        for t in (-0.3, 0.3):
            jx, jy = cx + ux * half_l * 2 * t, cy + uy * half_l * 2 * t
            cv2.line(c, (int(jx - uy * half_w), int(jy + ux * half_w)), (int(jx + uy * half_w), int(jy - ux * half_w)),
                     ink, max(2, int(half_w * 0.3)), cv2.LINE_AA)


def sou_face(n: int, style: str, ink: tuple[int, int, int]) -> np.ndarray:
    c = _canvas()
    rows = 3 if n in (7, 9) else 2
    length = {2: 0.36, 3: 0.36}.get(n, 0.33 if rows == 2 else 0.24)
    width = {8: 0.1}.get(n, 0.13 if n < 6 else 0.11)
    for i, (x, y) in enumerate(_SOU[n]):
        angle = 0.0
        if n == 8:  # the M and W of the 8s
            angle = (18.0 if i % 2 == 0 else -18.0) * (-1 if i >= 4 else 1)
        _stick(c, x, y, length, width, angle, RED if i in _SOU_RED.get(n, set()) else ink, style)
    return _done(c)


def build(out: str, seed: int = 78, rows: int = 4) -> dict:
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(seed)
    labels = {}
    for pins, sticks in PAIRS:
        for k in range(rows):
            codes = (sorted(rng.choice([f"{n}p" for n in range(1, 10)], 6).tolist())
                     + sorted(rng.choice([f"{n}s" for n in range(2, 10)], 5).tolist() + ["1s"])
                     + sorted(rng.choice([f"{n}m" for n in range(1, 10)], 2).tolist()))
            pin_ink = PIN_INKS[pins][k % 2]
            stick_ink = STICK_INKS[sticks][k % 2]
            faces = {}
            for c in set(codes):
                n = int(c[0])
                if c[1] == "p":
                    faces[c] = [pin_face(n, pins, pin_ink)]
                elif c[1] == "s" and n > 1:
                    faces[c] = [sou_face(n, sticks, stick_ink)]
                else:
                    faces[c] = [hc.face(c)]
            photo = f"{pins}_{sticks}_{k}.jpg"
            row_photo(out, photo, codes, faces, FELTS[k % len(FELTS)], rng)
            labels[photo] = {"kind": f"{pins}_{sticks}", "tiles": codes, "back": 0}
    hc.save_labels(out, labels)
    return labels


def main(argv: list[str] | None = None) -> int:
    args = suite_command(__doc__, 78).parse_args(argv)
    build(args.out, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
