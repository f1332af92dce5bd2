"""Conditions a phone photo is taken in, applied to a labelled photo for evaluation: dim light,
blur, glare, a shadow over part of the tiles, a tilted camera (perspective), very small or very large photos, tiles three or
four times farther from the same camera, the phone turned to the tiles (up to upside down: a hand
photographed from across the table), a shaken phone, a photo sent on through a chat app.

    python -m training.evaluate DIR... --split val --perturb dim,blur,glare,shadow,tilt45,1mp,12mp,far3,far4,turn20,turn35

Each condition turns the photo's bytes into new bytes and gives the map that takes a point of the
new photo back to the labelled one, so predictions are judged against the original labels.
"""
from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

PointMap = Callable[[np.ndarray], np.ndarray]  # (n, 2) points in the new photo -> in the labelled one


def _decode(data: bytes) -> np.ndarray:
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if img is None:
        raise ValueError("not an image")
    return img


def _encode(img: np.ndarray) -> bytes:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return buf.tobytes()


def _identity(p: np.ndarray) -> np.ndarray:
    return p


def dim(img: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, PointMap]:
    """A dim room: a third of the light, a warm cast, sensor noise."""
    out = img.astype(np.float32) * 0.33 * np.array([0.85, 0.95, 1.1], np.float32)
    out += rng.normal(0, 4, img.shape)
    return np.clip(out, 0, 255).astype(np.uint8), _identity


def blur(img: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, PointMap]:
    """Hand shake and missed focus: a Gaussian blur of about 0.4% of the photo's long side."""
    s = 0.004 * max(img.shape[:2])
    return cv2.GaussianBlur(img, (0, 0), s), _identity


def glare(img: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, PointMap]:
    """A ceiling light reflected on the tiles: a bright soft spot over a quarter of the photo."""
    h, w = img.shape[:2]
    cy, cx = rng.uniform(0.3, 0.7) * h, rng.uniform(0.3, 0.7) * w
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r = 0.25 * max(h, w)
    spot = np.exp(-(((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r)))[..., None]
    out = img.astype(np.float32) * (1 - 0.6 * spot) + 255 * 0.6 * spot
    return np.clip(out, 0, 255).astype(np.uint8), _identity


def shadow(img: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, PointMap]:
    """The phone's and the player's shadow across the tiles, as under a ceiling lamp: the photo beyond a
    soft line crossing it at a random angle, a third to a half of it, lit a third as brightly."""
    h, w = img.shape[:2]
    angle = rng.uniform(0, 2 * np.pi)
    nx, ny = np.cos(angle), np.sin(angle)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    d = (xx - w / 2) * nx + (yy - h / 2) * ny  # distance along the line's normal, from the middle
    reach = 0.5 * (abs(nx) * w + abs(ny) * h)
    edge = rng.uniform(0.0, 0.3) * reach  # the shadow covers a third to a half of the photo
    soft = 0.03 * max(h, w)
    inside = 1 / (1 + np.exp(-(d - edge) / soft))
    out = img.astype(np.float32) * (1 - 0.67 * inside[..., None])
    return np.clip(out, 0, 255).astype(np.uint8), _identity


def tilt45(img: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, PointMap]:
    """The camera tipped 45 degrees from straight down, towards the top of the photo: the far
    edge shrinks (a homography), as when the hand is photographed from the seat."""
    h, w = img.shape[:2]
    shrink = 1 - np.tan(np.deg2rad(45)) * 0.3  # the far edge at 70% of the near one
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[w * (1 - shrink) / 2, h * 0.15], [w * (1 + shrink) / 2, h * 0.15], [w, h], [0, h]])
    m = cv2.getPerspectiveTransform(src, dst)
    out = cv2.warpPerspective(img, m, (w, h), borderMode=cv2.BORDER_REPLICATE)
    inv = np.linalg.inv(m)

    def back(p: np.ndarray) -> np.ndarray:
        q = cv2.perspectiveTransform(p.reshape(-1, 1, 2).astype(np.float64), inv)
        return q.reshape(-1, 2)

    return out, back


def _resize_to(megapixels: float) -> Callable[[np.ndarray, np.random.Generator], tuple[np.ndarray, PointMap]]:
    def apply(img: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, PointMap]:
        h, w = img.shape[:2]
        s = float(np.sqrt(megapixels * 1e6 / (h * w)))
        out = cv2.resize(img, (max(8, round(w * s)), max(8, round(h * s))),
                         interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_CUBIC)
        sx, sy = w / out.shape[1], h / out.shape[0]
        return out, lambda p: p * np.array([sx, sy])

    apply.__doc__ = f"The photo at {megapixels:g} MP."
    return apply


FAR_CELLS = 4  # the table round a photo taken farther off: its light, in this many cells on the long side


def _farther(k: int) -> Callable[[np.ndarray, np.random.Generator], tuple[np.ndarray, PointMap]]:
    def apply(img: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, PointMap]:
        h, w = img.shape[:2]
        sw, sh = max(8, w // k), max(8, h // k)
        # the table around: the photo's own colours, shrunk to FAR_CELLS cells on its long side and
        # spread out again, so that only their light remains. Shrunk by a fixed 64 instead, a
        # photo of large tiles (a dev row of 190 px tiles) left blurred blobs of its tiles around
        # it, three times their size, which the detector boxed as tiles (0.86) and the reader's
        # plan went by (models/HISTORY.md, "Tiles farther off without ghosts of themselves")
        cw, ch = (FAR_CELLS, max(1, round(FAR_CELLS * h / w))) if w >= h else (max(1, round(FAR_CELLS * w / h)), FAR_CELLS)
        out = cv2.resize(cv2.resize(img, (cw, ch), interpolation=cv2.INTER_AREA), (w, h), interpolation=cv2.INTER_CUBIC)
        x0, y0 = (w - sw) // 2, (h - sh) // 2
        out[y0:y0 + sh, x0:x0 + sw] = cv2.resize(img, (sw, sh), interpolation=cv2.INTER_AREA)
        return out, lambda p: (p - np.array([x0, y0])) * np.array([w / sw, h / sh])

    apply.__doc__ = (f"The tiles {k} times farther from the same camera: the photo shrunk {k} times in the middle "
                     "of a frame of its own size.")
    return apply


def _turned(degrees: float) -> Callable[[np.ndarray, np.random.Generator], tuple[np.ndarray, PointMap]]:
    def apply(img: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, PointMap]:
        h, w = img.shape[:2]
        m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
        c, s = abs(m[0, 0]), abs(m[0, 1])
        nw, nh = int(h * s + w * c), int(h * c + w * s)
        m[0, 2] += nw / 2 - w / 2
        m[1, 2] += nh / 2 - h / 2
        fill = tuple(int(v) for v in np.median(img.reshape(-1, 3), axis=0))  # the photo's own table, roughly
        out = cv2.warpAffine(img, m, (nw, nh), borderMode=cv2.BORDER_CONSTANT, borderValue=fill)
        inv = cv2.invertAffineTransform(m)
        return out, lambda p: np.asarray(p, np.float64).reshape(-1, 2) @ inv[:, :2].T + inv[:, 2]

    apply.__doc__ = (f"The phone turned {degrees:g} degrees to the tiles: the photo turned about its middle onto a "
                     "canvas holding all of it, the rest filled with the photo's median colour.")
    return apply


def shake(img: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, PointMap]:
    """The phone moved while the shutter was open: a blur along a horizontal line of 0.8% of the
    photo's long side (a dim room's long exposure, held in one hand)."""
    k = max(3, int(0.008 * max(img.shape[:2]))) | 1
    line = np.zeros((k, k), np.float32)
    line[k // 2, :] = 1.0 / k
    return cv2.filter2D(img, -1, line, borderType=cv2.BORDER_REPLICATE), _identity


def sent(img: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, PointMap]:
    """The photo passed on through a chat app: shrunk to 1600 px on its long side and saved again
    at JPEG quality 55."""
    h, w = img.shape[:2]
    s = min(1.0, 1600 / max(h, w))
    out = cv2.resize(img, (max(8, round(w * s)), max(8, round(h * s))), interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, 55])
    assert ok
    out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    sx, sy = w / out.shape[1], h / out.shape[0]
    return out, lambda p: p * np.array([sx, sy])


def _lit(gains: tuple[float, float, float], what: str) -> Callable[[np.ndarray, np.random.Generator], tuple[np.ndarray, PointMap]]:
    def apply(img: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, PointMap]:
        out = img.astype(np.float32) * np.array(gains[::-1], np.float32)  # the photo is BGR here
        return np.clip(out, 0, 255).astype(np.uint8), _identity

    apply.__doc__ = f"{what}: red, green and blue times {gains[0]:g}, {gains[1]:g} and {gains[2]:g}."
    return apply


def flash(img: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, PointMap]:
    """The phone's flash: the middle of the photo up to 1.9 times brighter, falling off towards the
    edges (to half as bright at the corners), clipped at white."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    gain = np.clip(1.9 - 2.2 * np.hypot((xx - w / 2) / w, (yy - h / 2) / h), 0.5, 1.9)
    return np.clip(img.astype(np.float32) * gain[..., None], 0, 255).astype(np.uint8), _identity


CONDITIONS: dict[str, Callable[[np.ndarray, np.random.Generator], tuple[np.ndarray, PointMap]]] = {
    "dim": dim, "blur": blur, "glare": glare, "shadow": shadow, "tilt45": tilt45, "1mp": _resize_to(1.0), "12mp": _resize_to(12.0),
    "far3": _farther(3), "far4": _farther(4), "turn10": _turned(10), "turn20": _turned(20), "turn35": _turned(35),
    # a quarter turn; a hand photographed from across the table (upside down)
    "turn90": _turned(90), "turn180": _turned(180), "shake": shake, "sent": sent,
    "warm": _lit((1.0, 0.86, 0.64), "A warm lamp the camera left some of its colour to"),
    "tungsten": _lit((1.0, 0.72, 0.42), "A bulb's orange light the camera kept"),
    "cool": _lit((0.7, 0.85, 1.0), "Cool light (a window's daylight in the shade, a cold LED)"),
    # the camera metering a dark mat, or the sun on the table: the faces' white clipped
    "bright": _lit((1.6, 1.6, 1.6), "Overexposed, the tiles' faces clipped at white"),
    "flash": flash,
}


def apply(name: str, data: bytes, seed: int = 0) -> tuple[bytes, PointMap]:
    """The photo `data` under condition `name`, as JPEG bytes, and the point map back."""
    img, back = CONDITIONS[name](_decode(data), np.random.default_rng(seed))
    return _encode(img), back
