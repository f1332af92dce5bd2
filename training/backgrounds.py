"""Procedural table tops (cloth, wood, planks, granite, felt, plain) seen in perspective.

The texture is made in table coordinates and warped by the camera's homography of the table
plane, so its grain shrinks with distance as in a photo. What lies beyond the table (a wall, a
cupboard, a screen) is a second, flat texture.
"""
from __future__ import annotations

import cv2
import numpy as np

TEX = 640


def _noise(rng: np.random.Generator, size: int, scale: float) -> np.ndarray:
    """Smooth noise in [0, 1] with features about `scale` pixels wide."""
    n = max(2, int(size / max(scale, 1)))
    small = rng.random((n, n)).astype(np.float32)
    big = cv2.resize(small, (size, size), interpolation=cv2.INTER_CUBIC)
    return np.clip(big, 0, 1)


def _mix(a: np.ndarray, b: np.ndarray, t: np.ndarray) -> np.ndarray:
    return a[None, None, :] * (1 - t[..., None]) + b[None, None, :] * t[..., None]


def _colour(rng: np.random.Generator, lo: float = 0.1, hi: float = 0.9) -> np.ndarray:
    return rng.uniform(lo, hi, 3).astype(np.float32)


def cloth(rng: np.random.Generator) -> np.ndarray:
    base = _colour(rng, 0.25, 0.85)
    other = np.clip(base + rng.uniform(-0.3, 0.3, 3), 0, 1).astype(np.float32)
    t = _noise(rng, TEX, rng.uniform(40, 200))
    img = _mix(base, other, t * rng.uniform(0.3, 1))
    yy, xx = np.mgrid[0:TEX, 0:TEX].astype(np.float32)
    period = rng.uniform(2, 6)
    weave = 0.5 + 0.5 * np.sin(xx * 2 * np.pi / period) * np.sin(yy * 2 * np.pi / period)
    img *= (1 - rng.uniform(0.02, 0.12) * weave)[..., None]
    if rng.random() < 0.6:  # printed strokes or stripes, like patterned table cloths
        stripes = np.zeros((TEX, TEX), np.float32)
        for _ in range(int(rng.integers(5, 60))):
            y0 = rng.uniform(0, TEX)
            x0, x1 = sorted(rng.uniform(0, TEX, 2))
            cv2.line(stripes, (int(x0), int(y0)), (int(x1), int(y0 + rng.normal(0, 10))), 1.0,
                     int(rng.integers(1, 4)), cv2.LINE_AA)
        col = _colour(rng, 0.5, 1.0)
        img = img * (1 - stripes[..., None]) + col * stripes[..., None]
    folds = _noise(rng, TEX, rng.uniform(60, 260))
    img *= (0.8 + 0.3 * folds)[..., None]
    return img


def wood(rng: np.random.Generator, planks: bool = False) -> np.ndarray:
    light = np.array([0.75, 0.5, 0.3], np.float32) + rng.uniform(-0.15, 0.2, 3).astype(np.float32)
    dark = light * rng.uniform(0.45, 0.8)
    yy, xx = np.mgrid[0:TEX, 0:TEX].astype(np.float32)
    warp = _noise(rng, TEX, 200) * rng.uniform(20, 120)
    grain = 0.5 + 0.5 * np.sin((yy + warp) * 2 * np.pi / rng.uniform(8, 40) + _noise(rng, TEX, 30) * 3)
    img = _mix(light, dark, grain ** rng.uniform(1, 3) * rng.uniform(0.3, 0.9))
    if planks:
        width = rng.uniform(80, 250)
        seam = (np.mod(yy, width) < rng.uniform(2, 5)).astype(np.float32)
        img *= (1 - 0.5 * seam)[..., None]
    return np.clip(img, 0, 1)


def granite(rng: np.random.Generator) -> np.ndarray:
    base = np.full(3, rng.uniform(0.4, 0.75), np.float32) + rng.uniform(-0.05, 0.05, 3).astype(np.float32)
    img = np.broadcast_to(base, (TEX, TEX, 3)).copy()
    for scale, amount in ((3, 0.5), (8, 0.4), (20, 0.3)):
        n = _noise(rng, TEX, scale)
        spots = (n > rng.uniform(0.6, 0.8)).astype(np.float32)
        col = _colour(rng, 0.05, 0.6)
        img = img * (1 - amount * spots[..., None]) + col * amount * spots[..., None]
    return img


def felt(rng: np.random.Generator) -> np.ndarray:
    base = np.array([[0.1, 0.4, 0.2], [0.1, 0.25, 0.5], [0.3, 0.3, 0.32], [0.45, 0.1, 0.12]][rng.integers(4)],
                    np.float32) * rng.uniform(0.7, 1.3)
    n = rng.normal(0, 0.04, (TEX, TEX, 1)).astype(np.float32)
    return np.clip(base + n + 0.1 * (_noise(rng, TEX, 200)[..., None] - 0.5), 0, 1)


def plain(rng: np.random.Generator) -> np.ndarray:
    base = _colour(rng, 0.05, 0.95)
    return np.clip(np.broadcast_to(base, (TEX, TEX, 3)) * (0.85 + 0.3 * _noise(rng, TEX, 500)[..., None]), 0, 1)


def clutter(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Things that are not tiles: cards, coins, pens, scoring sticks, printed text."""
    for _ in range(int(rng.poisson(3))):
        col = tuple(float(c) for c in _colour(rng, 0.0, 1.0))
        r = rng.random()
        c = (int(rng.uniform(0, TEX)), int(rng.uniform(0, TEX)))
        if r < 0.3:
            cv2.circle(img, c, int(rng.uniform(5, 60)), col, -1, cv2.LINE_AA)
        elif r < 0.6:  # scoring stick
            ang = rng.uniform(0, np.pi)
            ln = rng.uniform(60, 250)
            p2 = (int(c[0] + ln * np.cos(ang)), int(c[1] + ln * np.sin(ang)))
            cv2.line(img, c, p2, col, int(rng.uniform(4, 14)), cv2.LINE_AA)
        elif r < 0.8:
            pts = (np.array(c) + rng.normal(0, 60, (int(rng.integers(3, 7)), 2))).astype(np.int32)
            cv2.fillPoly(img, [cv2.convexHull(pts)], col, cv2.LINE_AA)
        else:
            txt = np.zeros((TEX, TEX), np.uint8)
            cv2.putText(txt, "".join(chr(int(rng.integers(65, 90))) for _ in range(5)), c,
                        cv2.FONT_HERSHEY_SIMPLEX, rng.uniform(0.5, 2.5), 255, int(rng.integers(1, 4)), cv2.LINE_AA)
            a = (txt.astype(np.float32) / 255.0)[..., None]
            img[:] = img * (1 - a) + np.array(col, np.float32) * a
    return img


def keys(rng: np.random.Generator) -> np.ndarray:
    """A keyboard, calculator or keypad filling the table texture: rows of square-ish keys, light
    or dark, each with a letter, digit or sign (a hand laid on a laptop, issue 19). No key is
    left blank: a blank ivory square is haku, and the detector must not learn it as table."""
    dark = rng.random() < 0.5
    deck = _colour(rng, 0.05, 0.25) if dark else _colour(rng, 0.6, 0.9)
    shade = 0.9 + 0.2 * _noise(rng, TEX, 300)[..., None]
    img = np.ascontiguousarray(np.clip(deck * shade * 255, 0, 255).astype(np.uint8))
    per_row = int(rng.integers(9, 22))  # keys smaller than the tiles of a close-up
    pitch = TEX / per_row
    gap = pitch * rng.uniform(0.08, 0.25)
    aspect = rng.uniform(0.75, 1.25)
    key = _colour(rng, 0.02, 0.2) if dark else _colour(rng, 0.85, 1.0)
    if rng.random() < 0.2:  # coloured keys (a calculator, a gaming keyboard)
        key = _colour(rng, 0.1, 0.9)
    key_c = tuple(int(v * 255) for v in key)
    rim_c = tuple(int(v * 150) for v in key)
    ink = (230, 230, 230) if float(np.mean(key)) < 0.5 else (25, 25, 30)
    y, row = gap, 0
    while y < TEX:
        h = pitch * aspect - gap
        x = gap - (row * pitch * rng.uniform(0.2, 0.5)) % pitch
        while x < TEX:
            w = pitch - gap
            if rng.random() < 0.08:  # a wide key (shift, space, enter)
                w = pitch * rng.uniform(1.5, 6) - gap
            cv2.rectangle(img, (int(x), int(y)), (int(x + w), int(y + h)), key_c, -1, cv2.LINE_AA)
            cv2.line(img, (int(x), int(y + h)), (int(x + w), int(y + h)), rim_c, max(1, int(gap * 0.4)), cv2.LINE_AA)
            if w < pitch * 1.2:  # every key carries its legend: a blank ivory key is what haku looks like
                ch = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-=%#"[int(rng.integers(0, 41))]
                scale = h / 40.0 * rng.uniform(0.5, 1.0)
                org = (int(x + w * rng.uniform(0.1, 0.45)), int(y + h * rng.uniform(0.45, 0.8)))
                cv2.putText(img, ch, org, cv2.FONT_HERSHEY_SIMPLEX, scale, ink, max(1, int(scale * 2)), cv2.LINE_AA)
            x += w + gap
        y += pitch * aspect
        row += 1
    return img.astype(np.float32) / 255.0


KEYBOARD_SHARE = 0.12  # of the tables in the artwork stage (training.build_data --keyboards)


def random_texture(rng: np.random.Generator, wide: bool = False) -> np.ndarray:
    if wide and rng.random() < KEYBOARD_SHARE:
        return keys(rng)
    r = rng.random()
    if r < 0.3:
        t = cloth(rng)
    elif r < 0.5:
        t = wood(rng)
    elif r < 0.6:
        t = wood(rng, planks=True)
    elif r < 0.72:
        t = granite(rng)
    elif r < 0.87:
        t = felt(rng)
    else:
        t = plain(rng)
    if rng.random() < 0.4:
        t = clutter(np.ascontiguousarray(t), rng)
    return np.ascontiguousarray(t, dtype=np.float32)


def table(cam, size: tuple[int, int], rng: np.random.Generator, wide: bool = False) -> np.ndarray:
    """Float RGB image of the table plane (z = 0) as the camera sees it, and a wall beyond.
    `wide` (the artwork stage) lets the table be a keyboard or keypad now and then."""
    w, h = size
    far = random_texture(rng, wide)
    canvas = cv2.resize(far, (w, h), interpolation=cv2.INTER_AREA) * rng.uniform(0.4, 1.0)
    # where do the image corners (and the middle of its edges) meet the table?
    us = np.array([0, w / 2, w, w, w, w / 2, 0, 0], np.float64)
    vs = np.array([0, 0, 0, h / 2, h, h, h, h / 2], np.float64)
    d_cam = np.stack([(us - cam.cx) / cam.f, (vs - cam.cy) / cam.f, np.ones_like(us)], 1)
    d_world = d_cam @ cam.rot
    centre_ray = cam.rot[2]
    dist = cam.pos[2] / max(-centre_ray[2], 0.05)
    lim = 6 * dist * max(w, h) / cam.f
    ctr = cam.pos[:2] + centre_ray[:2] * min(dist, lim)
    hits = []
    for d in d_world:
        if d[2] < -1e-3 and (-cam.pos[2] / d[2]) * np.linalg.norm(d[:2]) < lim:
            hits.append(cam.pos[:2] + (-cam.pos[2] / d[2]) * d[:2])
        else:  # the ray misses the table (or meets it very far): stop at the limit
            hits.append(cam.pos[:2] + d[:2] / max(np.linalg.norm(d[:2]), 1e-6) * lim)
    hits = np.array(hits)
    x0, y0 = hits.min(0) - 0.5
    x1, y1 = hits.max(0) + 0.5
    tex = random_texture(rng, wide)
    for _ in range(40):
        corners = np.array([[x0, y1, 0], [x1, y1, 0], [x1, y0, 0], [x0, y0, 0]])
        img_pts, z = cam.project(corners)
        if (z > 0.05 * dist).all():
            break
        x0, x1 = ctr[0] + 0.85 * (x0 - ctr[0]), ctr[0] + 0.85 * (x1 - ctr[0])
        y0, y1 = ctr[1] + 0.85 * (y0 - ctr[1]), ctr[1] + 0.85 * (y1 - ctr[1])
    else:
        return np.ascontiguousarray(canvas, dtype=np.float32)
    src = np.array([[0, 0], [TEX, 0], [TEX, TEX], [0, TEX]], np.float32)
    m = cv2.getPerspectiveTransform(src, img_pts.astype(np.float32))
    tex4 = np.dstack([tex, np.ones((TEX, TEX), np.float32)])
    warped = cv2.warpPerspective(tex4, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    a = warped[..., 3:4]
    return np.ascontiguousarray(canvas * (1 - a) + warped[..., :3] * a, dtype=np.float32)
