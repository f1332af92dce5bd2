"""Photo to hand: load -> detect -> classify -> lay out -> propose.

`Recognizer` holds the two ONNX sessions and nothing else; `recognize()` keeps all its state in
locals, so one recognizer serves every thread of a server. Build it once per process
(`Recognizer.from_directory()` or `get_recognizer()`).
"""
from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field, replace

import numpy as np

from recognition import detect, scales
from recognition.hand import Proposal, TileReading, propose
from recognition.image_io import LoadedImage, load_image
from recognition.postprocess import Detection, Layout, drop_duplicates, layout
from recognition.preprocess import CROP_CONTEXT, CROP_SIZE, fit_resize, square_crops, to_nchw
from recognition.session import OnnxModel
from scoring.errors import detail

NO_TILES = "no tiles found in the photo"

MODELS_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "models")


@dataclass(frozen=True)
class Settings:
    detector_long_side: int = 512
    detect_threshold: float = 0.35
    reject_threshold: float = 0.6  # drop a box when the classifier says "not a tile" this surely
    max_tiles: int = 120
    half_turn_tta: bool = False  # also read every crop turned half round, and average
    border_confidence: float = 0.9  # a tile cut by the photo's edge must be read at least this surely
    min_confidence: float = 0.5  # a box read less surely than this as one tile (given it is one) is dropped
    multi_scale: bool = True  # detect again where the tiles are the size the detector learned
    merge_fragments: bool = True  # parts of one tile's face (blank top, pip groups) are not tiles
    drop_misfits: bool = True  # boxes of no tile's shape (a strip of print, a point stick) are not tiles
    tall_faces: bool = True  # a face far taller than wide is read again from its lower part
    drop_unsure_groups: bool = True  # groups read unsurely, and unsure lone boxes beside a sure hand, are clutter
    scale_rule: scales.ScaleRule = scales.DEFAULT_RULE


@dataclass(frozen=True)
class Recognition:
    tiles: tuple[Detection, ...]
    rows: tuple[tuple[int, ...], ...]
    proposal: Proposal | None
    image_size: tuple[int, int]
    timing_ms: dict = field(default_factory=dict)
    message: str = ""

    def to_json(self) -> dict:
        out = {
            "tiles": [t.to_json() for t in self.tiles],
            "rows": [list(r) for r in self.rows],
            "proposal": self.proposal.to_json() if self.proposal else None,
            "image_size": list(self.image_size),
            "timing_ms": {k: round(v, 1) for k, v in self.timing_ms.items()},
        }
        if self.message:
            out["message"] = self.message
            if self.message == NO_TILES:
                out["detail"] = detail("photo_no_tiles")
        return out


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _box_list(boxes: np.ndarray) -> list[scales.Box]:
    """(n, 5) array -> the plain tuples recognition.scales works on."""
    return [(float(b[0]), float(b[1]), float(b[2]), float(b[3]), float(b[4])) for b in boxes]


class Recognizer:
    def __init__(self, detector: OnnxModel, classifier: OnnxModel, settings: Settings = Settings()) -> None:
        self.detector = detector
        self.classifier = classifier
        self.settings = settings
        self.labels: list[str] = list(classifier.meta("labels"))
        self.reject_label: str = classifier.meta("reject_label", "none")
        self.crop_size = int(classifier.meta("crop_size", CROP_SIZE))
        self.crop_context = float(classifier.meta("crop_context", CROP_CONTEXT))
        self.stride = int(detector.meta("stride", detect.STRIDE))
        self.long_side = int(detector.meta("long_side", settings.detector_long_side))
        self.n_classes = len(self.labels)

    @classmethod
    def from_directory(cls, path: str = MODELS_DIR, threads: int | None = None,
                       settings: Settings = Settings()) -> Recognizer:
        return cls(OnnxModel(os.path.join(path, "detector.onnx"), threads),
                   OnnxModel(os.path.join(path, "classifier.onnx"), threads), settings)

    # -- stages, each usable alone -----------------------------------------------------------

    def detect(self, pixels: np.ndarray) -> np.ndarray:
        """(n, 5) boxes [x1, y1, x2, y2, score] in the pixels of `pixels`: one pass at the
        detector's long side, then (Settings.multi_scale) again where the tiles have the size it
        learned, the passes merged, and (Settings.merge_fragments) parts of tiles merged or dropped."""
        boxes, scale = self.detect_at(pixels, self.long_side)
        if not (self.settings.multi_scale or self.settings.merge_fragments):
            return boxes
        rule = self.settings.scale_rule
        first = _box_list(boxes)
        size = scales.tile_size(first, rule)
        work_side = max(pixels.shape[:2])
        passes: list[tuple[list[scales.Box], float]] = [(first, scale)]
        if self.settings.multi_scale:
            net_side = round(work_side * scale)
            for long_side in scales.rescan_sides(size * scale if size else None, net_side, work_side, rule):
                more, more_scale = self.detect_at(pixels, long_side)
                passes.append((_box_list(more), more_scale))
        merged = scales.merge_passes(passes, rule) if len(passes) > 1 else first
        if self.settings.merge_fragments:
            merged = scales.merge_fragments(merged)
        if merged == first:
            return boxes
        out = np.array(merged, np.float32).reshape(-1, 5)
        return out[np.argsort(-out[:, 4], kind="stable")]

    def detect_at(self, pixels: np.ndarray, long_side: int) -> tuple[np.ndarray, float]:
        """One detector pass with the image's long side at `long_side` (never enlarged): (n, 5)
        boxes in the pixels of `pixels`, and the scale (detector pixels per pixel of `pixels`)."""
        net_in, tf = fit_resize(pixels, long_side)
        out = self.detector.run(to_nchw(net_in[None]))[0]
        boxes = detect.decode(out, self.settings.detect_threshold, self.settings.max_tiles, self.stride)
        if len(boxes):
            boxes[:, :4] = tf.to_source(boxes[:, :4])
            h, w = pixels.shape[:2]
            boxes[:, [0, 2]] = np.clip(boxes[:, [0, 2]], 0, w)
            boxes[:, [1, 3]] = np.clip(boxes[:, [1, 3]], 0, h)
        return boxes, tf.scale

    def classify(self, pixels: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Class probabilities (n, len(labels)) and orientation probabilities (n, 4)."""
        if len(boxes) == 0:
            return np.zeros((0, self.n_classes), np.float32), np.zeros((0, 4), np.float32)
        crops = square_crops(pixels, boxes[:, :4], self.crop_size, self.crop_context)
        n = len(crops)
        if self.settings.half_turn_tta:
            crops = np.concatenate([crops, crops[:, ::-1, ::-1]])
        logits = self.classifier.run(to_nchw(crops))
        probs, orient = _softmax(logits[:, :self.n_classes]), _softmax(logits[:, self.n_classes:])
        if self.settings.half_turn_tta:  # turned half round, "up" reads as "down": turn it back
            probs = (probs[:n] + probs[n:]) / 2
            orient = (orient[:n] + np.roll(orient[n:], 2, axis=1)) / 2
        if self.settings.tall_faces:
            probs = self._read_tall_faces(pixels, boxes, probs)
        return probs, orient

    def _read_tall_faces(self, pixels: np.ndarray, boxes: np.ndarray, probs: np.ndarray) -> np.ndarray:
        """A standing tile close to a low camera has a face far taller than wide, its engraving
        low and its upper part blank, and read whole it looks like haku. Such boxes read whole
        as haku (or as no tile) are read again from their lower part (a tile's proportions,
        from the bottom up); the surer reading of a tile wins."""
        w, h = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
        blank = [self.labels.index(c) for c in ("5z", self.reject_label) if c in self.labels]
        tall = np.nonzero((h > scales.TALL * w) & np.isin(probs.argmax(1), blank))[0]
        if len(tall) == 0:
            return probs
        lower = boxes[tall, :4].copy()
        lower[:, 1] = lower[:, 3] - w[tall] * scales.FACE_ASPECT
        logits = self.classifier.run(to_nchw(square_crops(pixels, lower, self.crop_size, self.crop_context)))
        again = _softmax(logits[:, :self.n_classes])
        reject = self.labels.index(self.reject_label) if self.reject_label in self.labels else -1
        out = probs.copy()
        for k, i in enumerate(tall):
            a, b = probs[i].copy(), again[k].copy()
            if reject >= 0:
                a[reject] = b[reject] = 0
            if b.max() > a.max():
                out[i] = again[k]
        return out

    # -- the whole thing -----------------------------------------------------------------------

    def recognize(self, data: bytes | LoadedImage) -> Recognition:
        t0 = time.perf_counter()
        image = data if isinstance(data, LoadedImage) else load_image(data)
        t1 = time.perf_counter()
        boxes = self.detect(image.pixels)
        t2 = time.perf_counter()
        probs, orient = self.classify(image.pixels, boxes)
        t3 = time.perf_counter()
        result = self.assemble(image, boxes, probs, orient)
        t4 = time.perf_counter()
        timing = {"decode": (t1 - t0) * 1e3, "detect": (t2 - t1) * 1e3, "classify": (t3 - t2) * 1e3,
                  "postprocess": (t4 - t3) * 1e3, "total": (t4 - t0) * 1e3}
        return Recognition(result[0].tiles, result[0].rows, result[1], image.original_size, timing, result[2])

    def assemble(self, image: LoadedImage, boxes: np.ndarray, probs: np.ndarray,
                 orient: np.ndarray) -> tuple[Layout, Proposal | None, str]:
        """Drop non-tiles and duplicates, lay the tiles out, propose a hand."""
        reject = self.labels.index(self.reject_label) if self.reject_label in self.labels else -1
        keep = np.ones(len(boxes), bool)
        if reject >= 0 and len(boxes):
            keep &= probs[:, reject] < self.settings.reject_threshold
        if len(boxes):  # tiles cut by the edge of the photo are counted only when clearly read
            h, w = image.pixels.shape[:2]
            m = 0.004 * max(h, w)
            at_edge = (boxes[:, 0] <= m) | (boxes[:, 1] <= m) | (boxes[:, 2] >= w - m) | (boxes[:, 3] >= h - m)
            # how surely it is this tile rather than another, given that it is a tile
            tile_conf = (np.delete(probs, reject, axis=1).max(1) / np.maximum(1 - probs[:, reject], 1e-6)
                         if reject >= 0 else probs.max(1))
            keep &= ~at_edge | (tile_conf >= self.settings.border_confidence)
            keep &= tile_conf >= self.settings.min_confidence
            idx = np.nonzero(keep)[0]
            if len(idx) and (self.settings.drop_misfits or self.settings.drop_unsure_groups):
                # shapes no tile has, and clutter judged by the company it keeps
                kept = scales.keep_tiles(_box_list(boxes[idx]), [float(c) for c in tile_conf[idx]],
                                         self.settings.drop_misfits, self.settings.drop_unsure_groups)
                keep[:] = False
                keep[idx[kept]] = True
        idx = np.nonzero(keep)[0]
        if len(idx):
            tile_p = probs[idx].copy()
            if reject >= 0:
                tile_p[:, reject] = 0
            conf = tile_p.max(1)
            idx = idx[drop_duplicates(boxes[idx, :4], conf * boxes[idx, 4])]
        labels = self.labels
        dets: list[Detection] = []
        orients = []
        orig = image.to_original(boxes[idx, :4]) if len(idx) else np.zeros((0, 4))
        for k, i in enumerate(idx):
            p = probs[i].copy()
            if reject >= 0:
                p[reject] = 0
            p /= max(p.sum(), 1e-9)
            order = np.argsort(-p, kind="stable")
            alts = tuple((labels[j], float(p[j])) for j in order[1:4] if p[j] >= 0.005)
            x1, y1, x2, y2 = (float(v) for v in orig[k])
            dets.append(Detection((x1, y1, x2, y2), labels[order[0]], float(p[order[0]]), alts,
                                  int(np.argmax(orient[i])), float(orient[i].max()), False, float(boxes[i, 4])))
            orients.append(orient[i])
        if not dets:
            return Layout((), (), 0, ()), None, NO_TILES
        lay = layout(dets, np.array(orients))
        proposal = self._propose(lay)
        if proposal is not None and proposal.changed:
            # the tiles say what the proposal reads; the classifier's first choice stays an alternative
            tiles = list(lay.tiles)
            for changed in proposal.changed:
                d = tiles[changed]
                cands = dict(((d.tile, d.confidence),) + d.alternatives)
                new = proposal.readings[changed]
                alts = tuple(sorted(((c, p) for c, p in cands.items() if c != new), key=lambda cp: -cp[1]))
                tiles[changed] = replace(d, tile=new, confidence=cands.get(new, 0.0), alternatives=alts)
            lay = replace(lay, tiles=tuple(tiles))
        return lay, proposal, ""

    def _propose(self, lay: Layout) -> Proposal | None:
        readings = [TileReading(((d.tile, d.confidence),) + d.alternatives, d.sideways) for d in lay.tiles]
        return propose(readings, [list(r) for r in lay.rows])


_lock = threading.Lock()
_shared: Recognizer | None = None


def get_recognizer() -> Recognizer:
    """The process-wide recognizer, built on first use (thread-safe)."""
    global _shared
    if _shared is None:
        with _lock:
            if _shared is None:
                _shared = Recognizer.from_directory()
    return _shared


__all__ = ["Recognizer", "Recognition", "Settings", "get_recognizer"]
