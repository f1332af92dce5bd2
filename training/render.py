"""Synthetic photos of riichi tiles: boxes with thickness seen through a phone-like camera.

A scene is a list of tiles (3D boxes on a table) and a camera. Rendering draws the table texture
with the tiles' shadows, then every visible side of every tile from far to near (painter's
algorithm), keeps an id buffer to know how much of each tile's readable face is visible, and
finishes with what a phone adds: white balance, exposure, glare, blur, noise and JPEG.

Everything random comes from the numpy Generator passed in, so a seed gives one image.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from training import backgrounds
from training.labels import BACK, TILE_CODES
from training.textures import TEX_H, InkScheme, TextureBank, back_texture, face_texture, random_scheme, side_texture

TW, TH, TD = 0.76, 1.0, 0.62  # tile width, height, thickness (units of tile height)


@dataclass
class Tile:
    code: str  # mpsz code (0 = red five) of the face
    axes: np.ndarray  # 3x3, columns: world directions of the tile's width, height (glyph up), face normal
    center: np.ndarray  # world position of the box centre


@dataclass
class Camera:
    rot: np.ndarray  # rows: camera x (right), y (down), z (forward) in world coordinates
    pos: np.ndarray
    f: float
    cx: float
    cy: float

    def project(self, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        pc = (pts - self.pos) @ self.rot.T
        z = pc[:, 2]
        zs = np.where(z > 1e-6, z, 1e-6)
        return np.stack([self.f * pc[:, 0] / zs + self.cx, self.f * pc[:, 1] / zs + self.cy], 1), z


@dataclass(frozen=True)
class Label:
    code: str  # tile code or "back"
    box: tuple[float, float, float, float]  # x1, y1, x2, y2 of the readable face, image pixels
    quad: np.ndarray  # 4x2 face corners: top-left, top-right, bottom-right, bottom-left of the glyph
    visible: float  # share of the face's pixels that are seen (occlusion and image border)
    facing: float  # cosine between the face normal and the direction to the camera
    up_angle: float  # direction the glyph's top points in the image, degrees (0 = up, 90 = right)
    sideways: bool  # lying turned a quarter from its row (set by the scene for called tiles)

    @property
    def status(self) -> str:
        """positive: the detector must find it; ignore: no loss either way; negative: background."""
        if self.visible >= 0.7 and self.facing >= 0.3:
            return "positive"
        if self.visible < 0.3 or self.facing < 0.12:
            return "negative"
        return "ignore"


def _axes_flat(phi: float, face_up: bool) -> np.ndarray:
    x = np.array([np.cos(phi), np.sin(phi), 0.0])
    y = np.array([-np.sin(phi), np.cos(phi), 0.0])
    z = np.array([0.0, 0.0, 1.0])
    if not face_up:
        x, z = -x, -z
    return np.stack([x, y, z], 1)


def _axes_standing(psi: float) -> np.ndarray:
    z = np.array([np.cos(psi), np.sin(psi), 0.0])
    y = np.array([0.0, 0.0, 1.0])
    x = np.cross(y, z)
    return np.stack([x, y, z], 1)


def _axes_on_edge(phi: float) -> np.ndarray:
    x = np.array([0.0, 0.0, 1.0])
    y = np.array([-np.sin(phi), np.cos(phi), 0.0])
    z = np.cross(x, y)
    return np.stack([x, y, z], 1)


def _tilt(axes: np.ndarray, rng: np.random.Generator, deg: float) -> np.ndarray:
    a = np.deg2rad(rng.normal(0, deg, 3))
    rx = cv2.Rodrigues(a)[0]
    return rx @ axes


def flat_tile(code: str, x: float, y: float, phi: float, face_up: bool = True, layer: int = 0) -> Tile:
    return Tile(code, _axes_flat(phi, face_up), np.array([x, y, TD / 2 + layer * TD]))


def standing_tile(code: str, x: float, y: float, psi: float) -> Tile:
    return Tile(code, _axes_standing(psi), np.array([x, y, TH / 2]))


def edge_tile(code: str, x: float, y: float, phi: float) -> Tile:
    return Tile(code, _axes_on_edge(phi), np.array([x, y, TW / 2]))


def make_camera(target: np.ndarray, elevation: float, azimuth: float, roll: float, dist: float,
                f: float, size: tuple[int, int]) -> Camera:
    t = np.deg2rad(90.0 - elevation)
    xc = np.array([1.0, 0.0, 0.0])
    yc = np.array([0.0, -np.cos(t), -np.sin(t)])
    zc = np.array([0.0, np.sin(t), -np.cos(t)])
    a = np.deg2rad(azimuth)
    rz = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1.0]])
    xc, yc, zc = rz @ xc, rz @ yc, rz @ zc
    r = np.deg2rad(roll)
    xc, yc = np.cos(r) * xc + np.sin(r) * yc, -np.sin(r) * xc + np.cos(r) * yc
    pos = target - dist * zc
    w, h = size
    return Camera(np.stack([xc, yc, zc]), pos, f, w / 2.0, h / 2.0)


def _box_faces(tile: Tile) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """(name, 4 world corners in texture order TL, TR, BR, BL, outward normal) of the 6 sides."""
    ax, ay, az = tile.axes[:, 0] * TW / 2, tile.axes[:, 1] * TH / 2, tile.axes[:, 2] * TD / 2
    c = tile.center
    face = np.stack([c + az - ax + ay, c + az + ax + ay, c + az + ax - ay, c + az - ax - ay])
    back = np.stack([c - az + ax + ay, c - az - ax + ay, c - az - ax - ay, c - az + ax - ay])
    # sides: texture columns run from the face (left) to the back (right), rows along the edge
    right = np.stack([c + ax + ay + az, c + ax + ay - az, c + ax - ay - az, c + ax - ay + az])
    left = np.stack([c - ax - ay + az, c - ax - ay - az, c - ax + ay - az, c - ax + ay + az])
    top = np.stack([c - ax + ay + az, c - ax + ay - az, c + ax + ay - az, c + ax + ay + az])
    bottom = np.stack([c + ax - ay + az, c + ax - ay - az, c - ax - ay - az, c - ax - ay + az])
    n = tile.axes
    return [("face", face, n[:, 2]), ("back", back, -n[:, 2]), ("right", right, n[:, 0]),
            ("left", left, -n[:, 0]), ("top", top, n[:, 1]), ("bottom", bottom, -n[:, 1])]


def _shoelace(q: np.ndarray) -> float:
    x, y = q[:, 0], q[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


def _resize_tex(tex: np.ndarray, target_px: float) -> np.ndarray:
    """Shrink a texture to about twice the size it will be drawn at (no aliasing when warping)."""
    h, w = tex.shape[:2]
    s = min(1.0, 2.0 * target_px / max(h, w))
    if s < 0.95:
        return cv2.resize(tex, (max(2, int(w * s)), max(2, int(h * s))), interpolation=cv2.INTER_AREA)
    return tex


def _draw_quad(canvas: np.ndarray, tex: np.ndarray, quad: np.ndarray, shade: float,
               idbuf: np.ndarray, tid: int, write_id: bool) -> None:
    hgt, wid = canvas.shape[:2]
    x0, y0 = np.floor(quad.min(0)).astype(int) - 1
    x1, y1 = np.ceil(quad.max(0)).astype(int) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, wid), min(y1, hgt)
    if x1 - x0 < 1 or y1 - y0 < 1:
        return
    size = float(np.linalg.norm(quad[0] - quad[2]))
    tex = _resize_tex(tex, size)
    th, tw = tex.shape[:2]
    # pad with a transparent ring so the edges come out anti-aliased
    tex = cv2.copyMakeBorder(tex, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=(0, 0, 0, 0))
    src = np.array([[1, 1], [tw + 1, 1], [tw + 1, th + 1], [1, th + 1]], np.float32)
    dst = (quad - np.array([x0, y0])).astype(np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    warped = cv2.warpPerspective(tex, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    a = warped[..., 3:4]
    roi = canvas[y0:y1, x0:x1]
    roi[:] = roi * (1 - a) + warped[..., :3] * shade * a
    ids = idbuf[y0:y1, x0:x1]
    solid = a[..., 0] > 0.5
    ids[solid] = tid if write_id else -1


@dataclass
class Scene:
    tiles: list[Tile]
    camera: Camera
    size: tuple[int, int]  # w, h
    scheme: InkScheme
    sideways: set[int]  # indices of tiles turned a quarter from their row


def _readable_face(tile: Tile, cam: Camera) -> tuple[str, np.ndarray, float]:
    """The face or the back, whichever looks at the camera, its corners and the cosine."""
    faces = _box_faces(tile)
    best = None
    for name, corners, normal in faces[:2]:
        to_cam = cam.pos - corners.mean(0)
        cos = float(np.dot(normal, to_cam) / np.linalg.norm(to_cam))
        if best is None or cos > best[2]:
            best = (name, corners, cos)
    return best


def render(scene: Scene, bank: TextureBank, rng: np.random.Generator) -> tuple[np.ndarray, list[Label]]:
    """RGB uint8 image and one Label per tile."""
    w, h = scene.size
    cam = scene.camera
    light = np.array([rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6), -1.0])
    light /= np.linalg.norm(light)
    canvas = backgrounds.table(cam, scene.size, rng, wide=bank.art is not None)
    _draw_shadows(canvas, scene, light, rng)

    order = sorted(range(len(scene.tiles)), key=lambda i: -np.linalg.norm(scene.tiles[i].center - cam.pos))
    idbuf = np.full((h, w), -1, np.int32)
    ambient = rng.uniform(0.55, 0.8)
    face_info: dict[int, tuple[str, np.ndarray, float]] = {}
    back_tex = back_texture(scene.scheme, rng)
    for i in order:
        tile = scene.tiles[i]
        corners_all = np.concatenate([c for _, c, _ in _box_faces(tile)])
        _, z = cam.project(corners_all)
        if (z < 0.2).any():
            continue
        readable = _readable_face(tile, cam)
        face_info[i] = readable
        for name, corners, normal in _box_faces(tile):
            to_cam = cam.pos - corners.mean(0)
            if np.dot(normal, to_cam) <= 0:
                continue
            quad, _ = cam.project(corners)
            lam = max(0.0, float(-np.dot(normal, light)))
            shade = min(1.08, ambient + (1 - ambient) * lam + rng.uniform(-0.03, 0.03))
            if name == "face":
                tex = face_texture(bank, tile.code, scene.scheme, rng)
            elif name == "back":
                tex = back_tex
            else:
                length = TH if name in ("right", "left") else TW
                tex = side_texture(scene.scheme, int(TEX_H * length), int(TEX_H * TD))
            _draw_quad(canvas, tex, quad, shade, idbuf, i, write_id=(name == readable[0]))

    labels = []
    for i, tile in enumerate(scene.tiles):
        if i not in face_info:
            labels.append(Label(tile.code, (0, 0, 0, 0), np.zeros((4, 2)), 0.0, 0.0, 0.0, False))
            continue
        name, corners, cos = face_info[i]
        quad, _ = cam.project(corners)
        area = max(_shoelace(quad), 1.0)
        visible = float((idbuf == i).sum()) / area
        if name == "back":
            # the back's corners run mirrored; reorder to TL, TR, BR, BL as seen with the glyph side up
            quad = quad[[1, 0, 3, 2]]
        top_mid = (quad[0] + quad[1]) / 2
        bot_mid = (quad[3] + quad[2]) / 2
        v = top_mid - bot_mid
        up_angle = float(np.degrees(np.arctan2(v[0], -v[1])))
        x1, y1 = quad.min(0)
        x2, y2 = quad.max(0)
        box = (float(max(x1, 0)), float(max(y1, 0)), float(min(x2, w)), float(min(y2, h)))
        code = tile.code if name == "face" else BACK
        labels.append(Label(code, box, quad, min(visible, 1.0), cos, up_angle, i in scene.sideways))
    img = _camera_effects(canvas, idbuf, rng)
    return img, labels


def _draw_shadows(canvas: np.ndarray, scene: Scene, light: np.ndarray, rng: np.random.Generator) -> None:
    h, w = canvas.shape[:2]
    mask = np.zeros((h, w), np.float32)
    for tile in scene.tiles:
        pts = np.concatenate([c for _, c, _ in _box_faces(tile)[:2]])
        shadow = pts - (pts[:, 2:3] / light[2]) * light
        shadow[:, 2] = 0
        both = np.concatenate([shadow, pts * np.array([1, 1, 0])])
        img_pts, z = scene.camera.project(both)
        if (z < 0.2).any():
            continue
        hull = cv2.convexHull(img_pts.astype(np.float32)).astype(np.int32)
        cv2.fillConvexPoly(mask, hull, 1.0, lineType=cv2.LINE_AA)
    k = int(max(3, rng.uniform(0.004, 0.02) * max(h, w))) | 1
    mask = cv2.GaussianBlur(mask, (k, k), 0)
    canvas *= (1 - rng.uniform(0.2, 0.55) * mask)[..., None]


def _camera_effects(img: np.ndarray, idbuf: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    h, w = img.shape[:2]
    # glare: bright soft blobs, often on the glossy faces
    for _ in range(rng.poisson(0.8)):
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        ax, ay = rng.uniform(0.02, 0.15) * w, rng.uniform(0.02, 0.1) * h
        x0, x1 = int(max(cx - 3 * ax, 0)), int(min(cx + 3 * ax, w))
        y0, y1 = int(max(cy - 3 * ay, 0)), int(min(cy + 3 * ay, h))
        if x1 <= x0 or y1 <= y0:
            continue
        yy, xx = np.ogrid[y0:y1, x0:x1]
        blob = np.exp(-(((xx - cx) / ax) ** 2 + ((yy - cy) / ay) ** 2)).astype(np.float32)
        if rng.random() < 0.6:
            blob = blob * (idbuf[y0:y1, x0:x1] >= 0)
        img[y0:y1, x0:x1] += rng.uniform(0.1, 0.5) * blob[..., None]
    # vignetting and uneven light
    yy, xx = np.ogrid[0:h, 0:w]
    yy, xx = yy.astype(np.float32) / h - 0.5, xx.astype(np.float32) / w - 0.5
    gx, gy = rng.uniform(-0.25, 0.25, 2)
    light = (1 - rng.uniform(0, 0.5) * (xx ** 2 + yy ** 2)) * (1 + gx * xx + gy * yy)
    img *= light[..., None]
    # white balance and exposure (gamma as a table on 8 bits, later)
    img *= rng.uniform(0.82, 1.15, 3).astype(np.float32) * np.float32(rng.uniform(0.75, 1.2))
    gamma = rng.uniform(0.8, 1.25)
    # blur: defocus or a little motion
    r = rng.random()
    if r < 0.35:
        s = rng.uniform(0.3, 1.6) * max(h, w) / 1024
        img = cv2.GaussianBlur(img, (0, 0), s)
    elif r < 0.5:
        n = int(rng.integers(3, 9))
        k = np.zeros((n, n), np.float32)
        ang = rng.uniform(0, np.pi)
        c = (n - 1) / 2
        cv2.line(k, (int(c - c * np.cos(ang)), int(c - c * np.sin(ang))),
                 (int(c + c * np.cos(ang)), int(c + c * np.sin(ang))), 1.0, 1)
        img = cv2.filter2D(img, -1, k / max(k.sum(), 1))
    # noise, then 8 bits with the gamma, then JPEG
    sigma = np.float32(rng.uniform(0, 0.035))
    img += rng.standard_normal(img.shape, dtype=np.float32) * sigma
    out = (np.clip(img, 0, 1) * 255 + 0.5).astype(np.uint8)
    lut = (np.clip((np.arange(256) / 255.0) ** gamma, 0, 1) * 255 + 0.5).astype(np.uint8)
    out = cv2.LUT(out, lut)
    q = int(rng.integers(45, 96))
    ok, enc = cv2.imencode(".jpg", out[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, q])
    return cv2.imdecode(enc, cv2.IMREAD_COLOR)[..., ::-1].copy()


# ---------------------------------------------------------------- scene layouts

def random_code(rng: np.random.Generator, red_rate: float = 0.35) -> str:
    code = TILE_CODES[rng.integers(len(TILE_CODES))]
    if code[0] == "5" and code[1] != "z" and rng.random() < red_rate:
        return "0" + code[1]
    return code


def _random_hand(rng: np.random.Generator, n: int) -> list[str]:
    """n tiles with at most four of a kind and one red five per suit, in the usual sorted order,
    with runs and triplets as in real hands."""
    counts: dict[str, int] = {}
    reds: set[str] = set()
    out: list[str] = []
    while len(out) < n:
        kind = rng.random()
        base = TILE_CODES[rng.integers(len(TILE_CODES))]
        if kind < 0.45 and base[1] != "z" and int(base[0]) <= 7:
            group = [f"{int(base[0]) + k}{base[1]}" for k in range(3)]
        elif kind < 0.7:
            group = [base] * 3
        elif kind < 0.85:
            group = [base] * 2
        else:
            group = [base]
        for g in group:
            key = g
            if counts.get(key, 0) >= 4 or len(out) >= n:
                continue
            counts[key] = counts.get(key, 0) + 1
            if g[0] == "5" and g[1] != "z" and g[1] not in reds and rng.random() < 0.45:
                reds.add(g[1])
                g = "0" + g[1]
            out.append(g)
    if rng.random() < 0.8:
        out.sort(key=lambda c: ("mpsz".index(c[1]), 5 if c[0] == "0" else int(c[0])))
    return out


def hand_scene(rng: np.random.Generator, size: tuple[int, int]) -> Scene:
    """A winning hand on the table: the concealed row, called groups beside it, maybe a drawn
    tile set apart, and sometimes a few stray tiles."""
    n_calls = int(rng.choice([0, 0, 1, 1, 2, 3, 4], p=[0.2, 0.15, 0.2, 0.15, 0.15, 0.1, 0.05]))
    kans = [rng.random() < 0.2 for _ in range(n_calls)]
    n_conc = 14 - 3 * n_calls
    if rng.random() < 0.2:
        n_conc = int(rng.integers(1, n_conc + 1))
    tiles: list[Tile] = []
    sideways: set[int] = set()
    gap = rng.uniform(0.0, 0.05)
    jitter = rng.uniform(0, 2.5)
    standing = rng.random() < 0.12
    x = 0.0
    codes = _random_hand(rng, n_conc)
    win_gap_at = n_conc - 1 if rng.random() < 0.4 else -1
    for k, code in enumerate(codes):
        if k == win_gap_at:
            x += rng.uniform(0.2, 0.8) * TW
        phi = np.deg2rad(rng.normal(0, jitter))
        if standing:
            t = standing_tile(code, x + TW / 2, 0.0, np.deg2rad(-90 + rng.normal(0, jitter)))
        else:
            face_up = rng.random() > 0.03
            t = flat_tile(code if face_up else code, x + TW / 2, rng.normal(0, 0.02), phi, face_up)
        tiles.append(t)
        x += TW + gap + abs(rng.normal(0, 0.02))
    # called groups: to the right on the same line, or on a second line
    second_line = rng.random() < 0.35
    gx = x + rng.uniform(0.3, 1.5) * TW if not second_line else rng.uniform(-1, 3)
    gy = 0.0 if not second_line else -rng.uniform(1.3, 1.8) * TH
    for is_kan in kans:
        base = random_code(rng, 0.0)
        if base[1] != "z" and int(base[0]) <= 7 and not is_kan and rng.random() < 0.5:
            group = [f"{int(base[0]) + k}{base[1]}" for k in range(3)]
        else:
            group = [base] * (4 if is_kan else 3)
        group = [("0" + g[1]) if g[0] == "5" and g[1] != "z" and rng.random() < 0.3 and j == 0 else g
                 for j, g in enumerate(group)]
        closed_kan = is_kan and rng.random() < 0.5
        turned = -1 if closed_kan else int(rng.integers(len(group)))
        for j, code in enumerate(group):
            face_up = not (closed_kan and j in (0, len(group) - 1))
            if j == turned:
                t = flat_tile(code, gx + TH / 2, gy - (TH - TW) / 2 + rng.normal(0, 0.02),
                              np.deg2rad(rng.choice([90.0, -90.0]) + rng.normal(0, jitter)), True)
                sideways.add(len(tiles))
                gx += TH + gap
            else:
                t = flat_tile(code, gx + TW / 2, gy + rng.normal(0, 0.02), np.deg2rad(rng.normal(0, jitter)), face_up)
                gx += TW + gap
            tiles.append(t)
        gx += rng.uniform(0.15, 0.8)
    extent = max(x, gx)
    for _ in range(int(rng.choice([0, 0, 0, 1, 3, 6]))):
        tiles.append(_stray(rng, extent))
    _drop_overlaps(tiles, keep=len(tiles) - 0)
    # camera: from the player's side of the row, mostly
    target = np.array([extent / 2 + rng.normal(0, 1), rng.normal(-0.3, 0.8), 0.0])
    az = rng.normal(0, 12) if rng.random() < 0.85 else rng.uniform(-180, 180)
    elev = rng.uniform(40, 90) if not standing else rng.uniform(20, 55)
    w, h = size
    fov = np.deg2rad(rng.uniform(55, 72))
    f = (max(w, h) / 2) / np.tan(fov / 2)
    tile_px = rng.uniform(32, 110) * max(w, h) / 1024
    dist = f * TH / tile_px
    roll = rng.normal(0, 6) + (rng.choice([0, 90, -90, 180], p=[0.85, 0.06, 0.06, 0.03]))
    cam = make_camera(target, elev, az, roll, dist, f, size)
    return Scene(tiles, cam, size, random_scheme(rng), sideways)


def _stray(rng: np.random.Generator, extent: float) -> Tile:
    x = rng.uniform(-3, extent + 3)
    y = rng.choice([-1, 1]) * rng.uniform(1.5, 4)
    r = rng.random()
    code = random_code(rng)
    if r < 0.7:
        return flat_tile(code, x, y, rng.uniform(0, 2 * np.pi), rng.random() < 0.8)
    if r < 0.85:
        return standing_tile(code, x, y, rng.uniform(0, 2 * np.pi))
    return edge_tile(code, x, y, rng.uniform(0, 2 * np.pi))


def _footprint(t: Tile) -> np.ndarray:
    pts = np.concatenate([c for _, c, _ in _box_faces(t)[:2]])[:, :2]
    return cv2.convexHull(pts.astype(np.float32))


def _drop_overlaps(tiles: list[Tile], keep: int) -> None:
    """Remove later tiles whose footprint cuts an earlier one on the same layer."""
    kept: list[Tile] = []
    for t in tiles:
        fp = _footprint(t)
        ok = True
        for k in kept:
            if abs(k.center[2] - t.center[2]) > TD * 0.9:
                continue
            inter, _ = cv2.intersectConvexConvex(fp, _footprint(k))
            if inter > 0.02:
                ok = False
                break
        if ok:
            kept.append(t)
    tiles[:] = kept


def scattered_scene(rng: np.random.Generator, size: tuple[int, int]) -> Scene:
    n = int(rng.integers(3, 45))
    spread = np.sqrt(n) * rng.uniform(0.9, 2.2)
    tiles = []
    for _ in range(n):
        x, y = rng.normal(0, spread / 2, 2)
        r = rng.random()
        code = random_code(rng)
        if r < 0.55:
            t = flat_tile(code, x, y, rng.uniform(0, 2 * np.pi), True)
        elif r < 0.72:
            t = flat_tile(code, x, y, rng.uniform(0, 2 * np.pi), False)
        elif r < 0.9:
            t = standing_tile(code, x, y, rng.uniform(0, 2 * np.pi))
        else:
            t = edge_tile(code, x, y, rng.uniform(0, 2 * np.pi))
        if rng.random() < 0.15:
            t.axes = _tilt(t.axes, rng, 8)
        tiles.append(t)
    _drop_overlaps(tiles, len(tiles))
    # a few tiles resting on others
    for base in list(tiles):
        if rng.random() < 0.06 and base.center[2] < TD:
            tiles.append(flat_tile(random_code(rng), base.center[0] + rng.normal(0, 0.2),
                                   base.center[1] + rng.normal(0, 0.2), rng.uniform(0, 2 * np.pi),
                                   rng.random() < 0.8, layer=1))
    w, h = size
    fov = np.deg2rad(rng.uniform(55, 72))
    f = (max(w, h) / 2) / np.tan(fov / 2)
    tile_px = rng.uniform(28, 130) * max(w, h) / 1024
    dist = f * TH / tile_px
    cam = make_camera(np.array([rng.normal(0, 1), rng.normal(0, 1), 0.0]), rng.uniform(30, 90),
                      rng.uniform(-180, 180), rng.normal(0, 10), dist, f, size)
    return Scene(tiles, cam, size, random_scheme(rng), set())


def closeup_scene(rng: np.random.Generator, size: tuple[int, int]) -> Scene:
    """Few big tiles: a tight grid of flat tiles, or a small wall of standing tiles in layers."""
    tiles = []
    if rng.random() < 0.5:
        cols, rows = int(rng.integers(2, 6)), int(rng.integers(1, 5))
        for r in range(rows):
            for c in range(cols):
                if rng.random() < 0.1:
                    continue
                turn = rng.choice([0.0, 90.0, 180.0, -90.0], p=[0.55, 0.15, 0.15, 0.15])
                tiles.append(flat_tile(random_code(rng), c * (TW + 0.06) + rng.normal(0, 0.04),
                                       -r * (TH + 0.06) + rng.normal(0, 0.04),
                                       np.deg2rad(turn + rng.normal(0, 4)), rng.random() > 0.1))
        target = np.array([cols * TW / 2, -rows * TH / 2, 0.0])
        elev = rng.uniform(45, 90)
    else:
        cols = int(rng.integers(2, 6))
        for c in range(cols):
            tiles.append(standing_tile(random_code(rng), c * (TW + 0.02), 0.0, np.deg2rad(-90 + rng.normal(0, 3))))
        for c in range(int(rng.integers(0, cols))):
            if rng.random() < 0.5:
                t = Tile(random_code(rng), _axes_standing(np.deg2rad(-90)), np.array([0.3 + c * (TW + 0.05), -0.1, TH * 1.5]))
            else:  # lying sideways on top, face to the camera
                ax = _axes_standing(np.deg2rad(-90))
                ax = np.stack([ax[:, 1], -ax[:, 0], ax[:, 2]], 1)
                t = Tile(random_code(rng), ax, np.array([0.3 + c * (TH + 0.05), -0.1, TH + TW / 2]))
            tiles.append(t)
        target = np.array([cols * TW / 2, 0.0, TH * 0.8])
        elev = rng.uniform(5, 35)
    w, h = size
    fov = np.deg2rad(rng.uniform(55, 72))
    f = (max(w, h) / 2) / np.tan(fov / 2)
    tile_px = rng.uniform(90, 260) * max(w, h) / 1024
    cam = make_camera(target, elev, rng.normal(0, 15), rng.normal(0, 5), f * TH / tile_px, f, size)
    return Scene(tiles, cam, size, random_scheme(rng), set())


def random_scene(rng: np.random.Generator, size: tuple[int, int]) -> Scene:
    r = rng.random()
    if r < 0.5:
        return hand_scene(rng, size)
    if r < 0.82:
        return scattered_scene(rng, size)
    return closeup_scene(rng, size)
