"""Things on a mahjong table that are not tiles, drawn procedurally: dice, point sticks, paper
and books, phones, hands, white cards, table edges, cups and glasses seen from above, coins.

Used while training, on the fly: `paste` puts some into a detector training crop where they touch
no labelled tile (so the detector learns them as background), and `crop` draws one as the
classifier sees a false alarm (a "none" crop). A blank shape that a tile could be (a small ivory
rectangle of a tile's proportions) is never drawn: a blank white tile is haku. The games (a domino's
half, a number card) have a tile's size, and always their marks.
"""
from __future__ import annotations

import cv2
import numpy as np

KINDS = ("die", "stick", "paper", "phone", "hand", "card", "edge", "cup", "coin")
# the artwork stage (issue 19) adds what players' photos showed being read as tiles: keyboard and
# calculator keys, dominoes, playing cards, printed text, a lit phone screen
KINDS_WIDE = KINDS + ("keys", "keys", "domino", "playing_card", "text", "screen")
# the out-of-focus stage adds a palm, fist or forearm with no finger drawn (a featureless skin
# blob, which a classifier that learnt soft faces could take for a blank haku) and more paper
KINDS_FOCUS = KINDS_WIDE + ("palm", "palm", "palm", "paper")
# the games a mahjong table also sees, as a detector's box frames them (issue 19: staged dominoes and
# number cards read as tiles): one half of a domino, its other half running out of the box, and a
# number card whole, its suit marks in columns. Only black pips and black suits: a domino's five in
# red pips is a red 5p drawn another way, and red marks in columns taught as no tile cost red fives
# drawn as no training draws them; nor is the half in the box ever blank, which a haku is
# (models/HISTORY.md, "Dominoes and cards taught as no tile")
KINDS_GAMES = KINDS_FOCUS + ("domino_half", "domino_half", "number_card", "number_card")
# where a domino's or a die's pips lie, in steps of a third of its side from the centre
DIE_PIPS = {0: [], 1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
            4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
            6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}
# a card's suit marks: columns (-1 left, 0 middle, 1 right) of ranks 2 to 10, as cards lay them out
CARD_COLUMNS = {2: (0, 0), 3: (0, 0, 0), 4: (-1, -1, 1, 1), 5: (-1, -1, 0, 1, 1), 6: (-1, -1, -1, 1, 1, 1),
                7: (-1, -1, -1, 0, 1, 1, 1), 8: (-1, -1, -1, 0, 0, 1, 1, 1), 9: (-1, -1, -1, -1, 0, 1, 1, 1, 1),
                10: (-1, -1, -1, -1, 0, 0, 1, 1, 1, 1)}


def _col(rng: np.random.Generator, base: tuple[int, int, int], jitter: int = 20) -> tuple[int, int, int]:
    c = np.clip(np.array(base) + rng.integers(-jitter, jitter + 1, 3), 0, 255)
    return int(c[0]), int(c[1]), int(c[2])


def _rotated_rect(cx: float, cy: float, w: float, h: float, ang: float) -> np.ndarray:
    pts = cv2.boxPoints(((float(cx), float(cy)), (float(w), float(h)), float(ang)))
    return pts.astype(np.int32)


def draw(img: np.ndarray, kind: str, cx: float, cy: float, s: float, rng: np.random.Generator) -> np.ndarray:
    """Draw one object of `kind` centred at (cx, cy) with size scale `s` (about a tile's height)
    into the RGB uint8 `img`, in place. Returns its corner points (k, 2)."""
    ang = float(rng.uniform(0, 180))
    if kind == "die":
        side = s * rng.uniform(0.35, 0.6)
        pts = _rotated_rect(cx, cy, side, side, ang)
        cv2.fillConvexPoly(img, pts, _col(rng, (240, 238, 230), 12), cv2.LINE_AA)
        n = int(rng.integers(1, 7))
        pip = (200, 30, 30) if n in (1, 4) and rng.random() < 0.7 else _col(rng, (25, 25, 25), 10)
        c, sn = np.cos(np.deg2rad(ang)), np.sin(np.deg2rad(ang))
        for ox, oy in DIE_PIPS[n]:
            x, y = ox * side * 0.27, oy * side * 0.27
            cv2.circle(img, (int(cx + c * x - sn * y), int(cy + sn * x + c * y)), max(1, int(side * (0.12 if n > 1 else 0.18))),
                       pip, -1, cv2.LINE_AA)
        return pts
    if kind == "keys":  # a block of keys, each about a tile's size, with a letter or digit
        n_x, n_y = int(rng.integers(2, 7)), int(rng.integers(1, 4))
        pitch = s * rng.uniform(0.6, 1.1)
        dark = rng.random() < 0.5
        key = _col(rng, (30, 30, 34) if dark else (235, 235, 232), 15)
        ink = (230, 230, 230) if dark else (40, 40, 45)
        c, sn = np.cos(np.deg2rad(ang)), np.sin(np.deg2rad(ang))
        for i in range(n_x):
            for j in range(n_y):
                ox, oy = (i - (n_x - 1) / 2) * pitch, (j - (n_y - 1) / 2) * pitch
                kx, ky = cx + c * ox - sn * oy, cy + sn * ox + c * oy
                cv2.fillConvexPoly(img, _rotated_rect(kx, ky, pitch * 0.85, pitch * 0.85, ang), key, cv2.LINE_AA)
                ch = "QWERTYUIOPASDFGHJKLZXCVBNM1234567890"[int(rng.integers(0, 36))]
                cv2.putText(img, ch, (int(kx - pitch * 0.2), int(ky + pitch * 0.2)), cv2.FONT_HERSHEY_SIMPLEX,
                            pitch / 45.0, ink, max(1, int(pitch / 25)), cv2.LINE_AA)
        half = pitch * (max(n_x, n_y) / 2 + 0.5)
        return np.array([[cx - half, cy - half], [cx + half, cy + half]], np.int32)
    if kind == "domino":  # twice as long as wide, a line across, pips on both halves
        w = s * rng.uniform(0.45, 0.7)
        pts = _rotated_rect(cx, cy, w, w * 2, ang)
        black = rng.random() < 0.4
        cv2.fillConvexPoly(img, pts, _col(rng, (25, 25, 25) if black else (240, 238, 228), 10), cv2.LINE_AA)
        pip = (240, 240, 240) if black else (20, 20, 20)
        c, sn = np.cos(np.deg2rad(ang)), np.sin(np.deg2rad(ang))
        p0 = (int(cx - c * w * 0.45), int(cy - sn * w * 0.45))
        p1 = (int(cx + c * w * 0.45), int(cy + sn * w * 0.45))
        cv2.line(img, p0, p1, pip, max(1, int(w * 0.05)), cv2.LINE_AA)
        for half in (-1, 1):
            for _ in range(int(rng.integers(0, 7))):
                ox, oy = rng.uniform(-0.3, 0.3) * w, half * rng.uniform(0.2, 0.8) * w
                cv2.circle(img, (int(cx + c * ox - sn * oy), int(cy + sn * ox + c * oy)), max(1, int(w * 0.09)), pip, -1,
                           cv2.LINE_AA)
        return pts
    if kind == "domino_half":  # one half square in the box, the other running out of it
        half = s * rng.uniform(0.7, 1.0)
        a = np.deg2rad(ang * 2 + rng.uniform(-12, 12))  # any way round
        c, sn = np.cos(a), np.sin(a)
        body, pip = _domino_colours(rng)
        ox, oy = cx + c * half / 2, cy + sn * half / 2  # the domino's centre: its line, half a side off
        pts = _rotated_rect(ox, oy, half * 2, half, float(np.rad2deg(a)))
        cv2.fillConvexPoly(img, pts, body, cv2.LINE_AA)
        rim = tuple(int(v * 0.8) for v in body)
        cv2.polylines(img, [pts], True, rim, max(1, int(half * 0.03)), cv2.LINE_AA)
        p0 = (int(ox - sn * half * 0.42), int(oy + c * half * 0.42))
        p1 = (int(ox + sn * half * 0.42), int(oy - c * half * 0.42))
        cv2.line(img, p0, p1, pip, max(1, int(half * rng.uniform(0.03, 0.07))), cv2.LINE_AA)
        radius = max(1, int(half * rng.uniform(0.07, 0.11)))
        for k, (hx, hy) in enumerate(((cx, cy), (cx + c * half, cy + sn * half))):  # the half in the box, then the other
            for px, py in DIE_PIPS[int(rng.integers(0 if k else 1, 7))]:  # the half in the box never blank
                x, y = px * half * 0.27, py * half * 0.27
                cv2.circle(img, (int(hx + c * x - sn * y), int(hy + sn * x + c * y)), radius, pip, -1, cv2.LINE_AA)
        return pts
    if kind == "number_card":  # a card of rank 2-10 whole in the box: suit marks in columns
        h = s * rng.uniform(0.8, 1.0)  # the box is the card's
        w = h / rng.uniform(1.35, 1.45)
        a = float(rng.uniform(-12, 12))
        pts = _rotated_rect(cx, cy, w, h, a)
        cv2.fillConvexPoly(img, pts, _col(rng, (246, 245, 240), 8), cv2.LINE_AA)
        suit = str(rng.choice(["club", "spade"]))
        ink = _col(rng, (25, 25, 25), 10)
        rank = int(rng.integers(2, 11))
        cols = CARD_COLUMNS[rank]
        c, sn = np.cos(np.deg2rad(a)), np.sin(np.deg2rad(a))
        mark = w * rng.uniform(0.09, 0.13)
        for col_x in set(cols):
            ys = [k for k, v in enumerate(cols) if v == col_x]
            for j in range(len(ys)):
                x = col_x * w * 0.25
                y = -h * 0.33 + h * 0.66 * (j + 0.5) / len(ys)
                _suit_mark(img, suit, cx + c * x - sn * y, cy + sn * x + c * y, mark, ink)
        label = "10" if rank == 10 else str(rank)
        for sx, sy, flip in ((-0.36, -0.38, 1), (0.36, 0.38, -1)):
            x, y = sx * w, sy * h
            size = w / 190.0
            (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_DUPLEX, size, 1)
            cv2.putText(img, label, (int(cx + c * x - sn * y - tw / 2), int(cy + sn * x + c * y + flip * th / 2)),
                        cv2.FONT_HERSHEY_DUPLEX, size, ink, max(1, int(w / 90)), cv2.LINE_AA)
        return pts
    if kind == "playing_card":  # larger than a tile, a rank in two corners and suit marks
        w = s * rng.uniform(1.4, 2.2)
        pts = _rotated_rect(cx, cy, w, w * 1.4, ang)
        cv2.fillConvexPoly(img, pts, _col(rng, (245, 245, 242), 8), cv2.LINE_AA)
        red = rng.random() < 0.5
        ink = (200, 25, 35) if red else (20, 20, 20)
        c, sn = np.cos(np.deg2rad(ang)), np.sin(np.deg2rad(ang))
        rank = "A23456789TJQK"[int(rng.integers(0, 13))]
        for sx, sy in ((-0.3, -0.3), (0.08, 0.5)):
            ox, oy = sx * w, sy * w
            cv2.putText(img, rank, (int(cx + c * ox - sn * oy), int(cy + sn * ox + c * oy)), cv2.FONT_HERSHEY_SIMPLEX,
                        w / 150.0, ink, max(1, int(w / 60)), cv2.LINE_AA)
        for _ in range(int(rng.integers(1, 8))):
            ox, oy = rng.uniform(-0.25, 0.25) * w, rng.uniform(-0.45, 0.45) * w
            cv2.circle(img, (int(cx + c * ox - sn * oy), int(cy + sn * ox + c * oy)), max(1, int(w * 0.07)), ink, -1, cv2.LINE_AA)
        return pts
    if kind == "text":  # a printed page corner: lines of letters
        w, h = s * rng.uniform(2.5, 5), s * rng.uniform(1.5, 4)
        pts = _rotated_rect(cx, cy, w, h, 0)
        cv2.fillConvexPoly(img, pts, _col(rng, (238, 236, 230), 15), cv2.LINE_AA)
        ink = _col(rng, (30, 30, 35), 20)
        size = s * rng.uniform(0.15, 0.4)
        y = cy - h / 2 + size * 1.3
        while y < cy + h / 2 - size * 0.3:
            line = "".join("ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789"[int(rng.integers(0, 37))] for _ in range(int(w / size)))
            cv2.putText(img, line, (int(cx - w / 2 + size * 0.3), int(y)), cv2.FONT_HERSHEY_SIMPLEX, size / 30.0, ink,
                        max(1, int(size / 12)), cv2.LINE_AA)
            y += size * 1.5
        return pts
    if kind == "screen":  # a lit phone screen with bars and icons
        w = s * rng.uniform(1.2, 1.8)
        pts = _rotated_rect(cx, cy, w, w * 2, ang)
        cv2.fillConvexPoly(img, pts, _col(rng, (20, 20, 24), 10), cv2.LINE_AA)
        inner = _rotated_rect(cx, cy, w * 0.9, w * 1.85, ang)
        cv2.fillConvexPoly(img, inner, _col(rng, (230, 230, 235) if rng.random() < 0.5 else (40, 60, 90), 25), cv2.LINE_AA)
        c, sn = np.cos(np.deg2rad(ang)), np.sin(np.deg2rad(ang))
        for _ in range(int(rng.integers(3, 9))):
            ox, oy = rng.uniform(-0.3, 0.3) * w, rng.uniform(-0.8, 0.8) * w
            cv2.fillConvexPoly(img, _rotated_rect(cx + c * ox - sn * oy, cy + sn * ox + c * oy, w * 0.18, w * 0.18, ang),
                               _col(rng, (120, 120, 120), 110), cv2.LINE_AA)
        return pts
    if kind == "stick":
        ln, th = s * rng.uniform(2.5, 5.0), s * rng.uniform(0.09, 0.16)
        pts = _rotated_rect(cx, cy, ln, th, ang)
        cv2.fillConvexPoly(img, pts, _col(rng, (245, 245, 240), 10), cv2.LINE_AA)
        c, sn = np.cos(np.deg2rad(ang)), np.sin(np.deg2rad(ang))
        dots = int(rng.choice([1, 2, 5, 8]))
        col = (200, 30, 30) if rng.random() < 0.5 else (20, 20, 20)
        for k in range(dots):
            t = (k - (dots - 1) / 2) * th * 0.9
            cv2.circle(img, (int(cx + c * t), int(cy + sn * t)), max(1, int(th * 0.3)), col, -1, cv2.LINE_AA)
        return pts
    if kind in ("paper", "phone", "card"):
        if kind == "paper":
            w, h = s * rng.uniform(3, 6), s * rng.uniform(3.5, 7)
            base = _col(rng, (240, 238, 232), 15)
        elif kind == "phone":
            w, h = s * rng.uniform(1.2, 1.8), s * rng.uniform(2.6, 3.6)
            base = _col(rng, (25, 25, 30), 15)
        else:  # a white card or box lid: much longer or much larger than a tile
            w = s * rng.uniform(0.5, 1.0)
            h = w * rng.uniform(2.6, 4.0) if rng.random() < 0.5 else s * rng.uniform(2.5, 4.0)
            base = _col(rng, (238, 236, 228), 15)
        pts = _rotated_rect(cx, cy, w, h, ang)
        cv2.fillConvexPoly(img, pts, base, cv2.LINE_AA)
        c, sn = np.cos(np.deg2rad(ang)), np.sin(np.deg2rad(ang))
        if kind == "paper":  # lines of text
            ink = _col(rng, (35, 35, 40), 20)
            for k in range(int(h / (s * 0.25))):
                y = -h / 2 + s * 0.3 + k * s * 0.25
                if y > h / 2 - s * 0.2:
                    break
                x0, x1 = -w / 2 + s * 0.3, -w / 2 + s * 0.3 + rng.uniform(0.4, 0.9) * (w - s * 0.6)
                p0 = (int(cx + c * x0 - sn * y), int(cy + sn * x0 + c * y))
                p1 = (int(cx + c * x1 - sn * y), int(cy + sn * x1 + c * y))
                cv2.line(img, p0, p1, ink, max(1, int(s * 0.05)), cv2.LINE_AA)
        elif kind == "phone":
            inner = _rotated_rect(cx, cy, w * 0.88, h * 0.9, ang)
            cv2.fillConvexPoly(img, inner, _col(rng, (70, 100, 150), 60), cv2.LINE_AA)
        return pts
    if kind == "cup":  # a cup, mug or glass seen from above: a rim around a darker or coloured inside
        r = s * rng.uniform(0.6, 1.3)
        rim = _col(rng, (235, 232, 225), 25) if rng.random() < 0.7 else _col(rng, (120, 120, 140), 100)
        inside = _col(rng, (90, 60, 40), 60) if rng.random() < 0.6 else _col(rng, (150, 150, 160), 90)
        c = (int(cx), int(cy))
        cv2.circle(img, c, int(r), rim, -1, cv2.LINE_AA)
        cv2.circle(img, c, int(r * rng.uniform(0.72, 0.9)), inside, -1, cv2.LINE_AA)
        if rng.random() < 0.5:  # the handle
            a = np.deg2rad(ang)
            h0 = (int(cx + np.cos(a) * r * 1.05), int(cy + np.sin(a) * r * 1.05))
            cv2.ellipse(img, h0, (int(r * 0.35), int(r * 0.2)), ang, 0, 360, rim, max(2, int(r * 0.1)), cv2.LINE_AA)
        return np.array([[cx - r * 1.5, cy - r * 1.5], [cx + r * 1.5, cy + r * 1.5]], np.int32)
    if kind == "coin":
        r = s * rng.uniform(0.15, 0.35)
        metal = _col(rng, (190, 160, 90), 50) if rng.random() < 0.5 else _col(rng, (175, 175, 180), 30)
        cv2.circle(img, (int(cx), int(cy)), int(r), metal, -1, cv2.LINE_AA)
        cv2.circle(img, (int(cx), int(cy)), max(1, int(r * 0.75)), _col(rng, metal, 25), max(1, int(r * 0.1)), cv2.LINE_AA)
        return np.array([[cx - r, cy - r], [cx + r, cy + r]], np.int32)
    if kind == "palm":  # a palm, a fist or a forearm: one or two skin blobs, no finger
        t = float(rng.uniform(0, 1))  # skin tones from dark to light
        skin = _col(rng, (int(95 + 140 * t), int(60 + 135 * t), int(45 + 125 * t)), 12)
        ax = (int(s * rng.uniform(0.5, 1.3)), int(s * rng.uniform(0.35, 0.8)))
        cv2.ellipse(img, (int(cx), int(cy)), ax, ang, 0, 360, skin, -1, cv2.LINE_AA)
        if rng.random() < 0.5:  # the forearm, or a sleeve, going off one way
            c, sn = np.cos(np.deg2rad(ang)), np.sin(np.deg2rad(ang))
            arm = skin if rng.random() < 0.5 else _col(rng, (120, 120, 120), 110)
            cv2.fillConvexPoly(img, _rotated_rect(cx - c * ax[0] * 1.5, cy - sn * ax[0] * 1.5, ax[0] * 2.2, ax[1] * 1.5, ang),
                               arm, cv2.LINE_AA)
        r = max(ax) * 3
        return np.array([[cx - r, cy - r], [cx + r, cy + r]], np.int32)
    if kind == "hand":
        skin = _col(rng, (205, 160, 130), 35)
        ax = (int(s * rng.uniform(1.0, 1.6)), int(s * rng.uniform(0.6, 0.9)))
        cv2.ellipse(img, (int(cx), int(cy)), ax, ang, 0, 360, skin, -1, cv2.LINE_AA)
        c, sn = np.cos(np.deg2rad(ang)), np.sin(np.deg2rad(ang))
        for k in range(4):  # fingers
            off = (k - 1.5) * ax[1] * 0.45
            bx, by = cx + c * ax[0] * 0.8 - sn * off, cy + sn * ax[0] * 0.8 + c * off
            ex, ey = bx + c * s * 0.9, by + sn * s * 0.9
            cv2.line(img, (int(bx), int(by)), (int(ex), int(ey)), skin, max(2, int(s * 0.22)), cv2.LINE_AA)
        return np.array([[cx - ax[0] - s, cy - ax[0] - s], [cx + ax[0] + s, cy + ax[0] + s]], np.int32)
    # a table edge: a straight rim band with a highlight, across the whole image
    h, w = img.shape[:2]
    rim = _col(rng, (120, 85, 55), 50)
    c, sn = np.cos(np.deg2rad(ang)), np.sin(np.deg2rad(ang))
    far = 4 * max(h, w)
    band = s * rng.uniform(0.3, 0.8)
    pts = np.array([[cx - c * far - sn * 0, cy - sn * far], [cx + c * far, cy + sn * far],
                    [cx + c * far - sn * band, cy + sn * far + c * band], [cx - c * far - sn * band, cy - sn * far + c * band]],
                   np.int32)
    cv2.fillConvexPoly(img, pts, rim, cv2.LINE_AA)
    cv2.line(img, tuple(pts[0]), tuple(pts[1]), _col(rng, (230, 220, 200), 20), max(1, int(s * 0.06)), cv2.LINE_AA)
    return pts


def _domino_colours(rng: np.random.Generator) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """A domino's body and pips: ivory with black pips, or black with white."""
    if rng.random() < 0.3:
        return _col(rng, (28, 28, 30), 10), _col(rng, (240, 240, 236), 10)
    return _col(rng, (242, 238, 226), 12), _col(rng, (20, 20, 20), 12)


def _suit_mark(img: np.ndarray, suit: str, x: float, y: float, r: float, ink: tuple[int, int, int]) -> None:
    """One suit mark of half-height `r` centred at (x, y): a club (three lobes) or a spade (two
    lobes below a point), each on its stem."""
    lobe = max(1, int(r * 0.5))
    if suit == "club":
        for dx, dy in ((0, -0.45), (-0.48, 0.1), (0.48, 0.1)):
            cv2.circle(img, (int(x + dx * r), int(y + dy * r)), lobe, ink, -1, cv2.LINE_AA)
    else:
        for dx in (-0.45, 0.45):
            cv2.circle(img, (int(x + dx * r), int(y + 0.3 * r)), lobe, ink, -1, cv2.LINE_AA)
        cv2.fillConvexPoly(img, np.array([[x - r * 0.95, y + 0.4 * r], [x + r * 0.95, y + 0.4 * r], [x, y - r]], np.int32),
                           ink, cv2.LINE_AA)
    cv2.fillConvexPoly(img, np.array([[x, y + 0.2 * r], [x + r * 0.35, y + r], [x - r * 0.35, y + r]], np.int32),
                       ink, cv2.LINE_AA)


def _hits(pts: np.ndarray, boxes: np.ndarray, margin: float) -> bool:
    if len(boxes) == 0:
        return False
    x1, y1 = pts.min(0) - margin
    x2, y2 = pts.max(0) + margin
    return bool(((boxes[:, 0] < x2) & (boxes[:, 2] > x1) & (boxes[:, 1] < y2) & (boxes[:, 3] > y1)).any())


def paste(img: np.ndarray, boxes: np.ndarray, rng: np.random.Generator, count: int = 2,
          kinds: tuple[str, ...] = KINDS) -> np.ndarray:
    """Draw up to `count` distractors into a copy of `img` where they touch none of `boxes`
    (n, >=4, in pixels; every box, tile or ignore). Size scale: the median box height, or a
    random tile-like size when there is no box."""
    out = img.copy()
    h, w = img.shape[:2]
    b = np.asarray(boxes, np.float32).reshape(-1, 5)[:, :4] if len(boxes) else np.zeros((0, 4), np.float32)
    s0 = float(np.median(np.maximum(b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]))) if len(b) else float(rng.uniform(18, 70))
    for _ in range(count):
        kind = kinds[int(rng.integers(0, len(kinds)))]
        s = s0 * float(np.exp(rng.uniform(-0.3, 0.3)))
        cx, cy = float(rng.uniform(0, w)), float(rng.uniform(0, h))
        trial = np.zeros_like(out)
        pts = draw(trial, kind, cx, cy, s, rng)
        if kind == "edge":
            mask = trial.any(2)
            if len(b) and mask[np.clip(((b[:, 1] + b[:, 3]) / 2).astype(int), 0, h - 1),
                                np.clip(((b[:, 0] + b[:, 2]) / 2).astype(int), 0, w - 1)].any():
                continue
            # the edge must not cut any box either
            ok = True
            for x1, y1, x2, y2 in b:
                xa, ya = int(np.clip(x1, 0, w - 1)), int(np.clip(y1, 0, h - 1))
                xb, yb = int(np.clip(x2, 0, w - 1)), int(np.clip(y2, 0, h - 1))
                if mask[ya:yb + 1, xa:xb + 1].any():
                    ok = False
                    break
            if not ok:
                continue
        elif _hits(pts.reshape(-1, 2).astype(np.float32), b, s0 * 0.15):
            continue
        mask = trial.any(2)
        out[mask] = trial[mask]
    return out


def crop(rng: np.random.Generator, background: np.ndarray | None = None, size: int = 64,
         kinds: tuple[str, ...] = KINDS) -> np.ndarray:
    """A classifier-sized crop showing (part of) one distractor on `background` (size x size RGB)
    or on a plain noisy surface, as a detector false alarm would be cropped."""
    if background is None:
        base = np.array(_col(rng, (90, 110, 90), 80), np.float32)
        background = np.clip(base + rng.normal(0, 8, (size, size, 3)), 0, 255).astype(np.uint8)
    img = background.copy()
    kind = kinds[int(rng.integers(0, len(kinds)))]
    s = size / 1.2 * float(rng.uniform(0.6, 1.2))  # the crop is 1.2x the supposed box
    cx, cy = size / 2 + rng.normal(0, size * 0.15), size / 2 + rng.normal(0, size * 0.15)
    draw(img, kind, cx, cy, s, rng)
    return img
