"""Photo to hand: load -> detect -> classify -> lay out -> propose.

`Recognizer` holds the two ONNX sessions and nothing else; `recognize()` keeps all its state in
locals, so one recognizer serves every thread of a server. Build it once per process
(`Recognizer.from_directory()` or `get_recognizer()`).
"""
from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from recognition import detect, reading, scales
from recognition.hand import Proposal
from recognition.image_io import ImageError, LoadedImage, load_image
from recognition.preprocess import CROP_CONTEXT, CROP_SIZE, fit_resize, fitted, square_crops, to_nchw
from recognition.reading import DEFAULT_SETTINGS, NO_TILES, Detection, Layout, Settings
from recognition.session import OnnxModel, default_threads
from scoring.errors import detail

MODELS_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "models")


@dataclass(frozen=True)
class Recognition:
    tiles: tuple[Detection, ...]
    rows: tuple[tuple[int, ...], ...]
    proposal: Proposal | None
    image_size: tuple[int, int]
    timing_ms: dict = field(default_factory=dict)
    message: str = ""
    notes: tuple[dict, ...] = ()  # what the player should know about the photo ({id, params} details)

    def to_json(self) -> dict:
        out = {
            "tiles": [t.to_json() for t in self.tiles],
            "rows": [list(r) for r in self.rows],
            "proposal": self.proposal.to_json() if self.proposal else None,
            "image_size": list(self.image_size),
            "timing_ms": {k: round(v, 1) for k, v in self.timing_ms.items()},
            "notes": list(self.notes),
        }
        if self.message:
            out["message"] = self.message
            if self.message == NO_TILES:
                out["detail"] = detail("photo_no_tiles")
        return out


def _box_list(boxes: np.ndarray) -> list[scales.Box]:
    """(n, 5) array -> the plain tuples recognition.scales works on."""
    return [(float(b[0]), float(b[1]), float(b[2]), float(b[3]), float(b[4])) for b in boxes]


class Finer:
    """Finer copies of a photo decoded at the working size (`image`), made when a detector pass
    needs more pixels than it has: `pixels_for(long_side)` decodes the photo again at that long
    side (JPEGs at a reduced scale, as recognition.image_io does), at most once per photo; `pixels`
    is the finest made (None if none). `long_side` is the photo's own long side, as taken."""

    def __init__(self, data: bytes, image: LoadedImage) -> None:
        self.data = data
        self.base = max(image.pixels.shape[:2])
        self.long_side = max(self.base, max(image.original_size))
        self.pixels: np.ndarray | None = None
        self.table: np.ndarray | None = None  # a colour correction (`tint`), applied to every copy

    def tint(self, table: np.ndarray) -> None:
        """From now on, copies with the colours corrected by `table` (`tinted`), the one made too."""
        self.table = table
        if self.pixels is not None:
            self.pixels = tinted(self.pixels, table)

    def pixels_for(self, long_side: int) -> np.ndarray | None:
        want = min(int(long_side), self.long_side)
        if want <= self.base:
            return None
        if self.pixels is None or max(self.pixels.shape[:2]) < want:
            try:
                pixels = load_image(self.data, want).pixels
            except ImageError:  # over the decode budget at this size: read at the working size
                return self.pixels
            self.pixels = pixels if self.table is None else tinted(pixels, self.table)
        return self.pixels


class TurnedFiner:
    """A `Finer` for the working copy turned by `turn` (`turned`): its finer copies turned the same
    way, so a row aslant far across the table keeps the pixels it needs when read level."""

    def __init__(self, finer: Finer, turn: reading.Turn) -> None:
        self.finer = finer
        self.turn = turn
        self.grow = max(turn.turned) / max(turn.size)  # the turned canvas's long side per the frame's
        self.long_side = int(finer.long_side * self.grow)
        self._pixels: np.ndarray | None = None
        self._from: np.ndarray | None = None  # the finer copy `_pixels` was turned from

    def _turned(self, fine: np.ndarray) -> np.ndarray:
        if fine is not self._from:  # the same turn about the finer copy's middle
            self._pixels, self._from = turned(fine, reading.turn_frame(self.turn.angle, fine.shape[1], fine.shape[0])), fine
        assert self._pixels is not None
        return self._pixels

    @property
    def pixels(self) -> np.ndarray | None:
        """The finest copy made, turned (None if none)."""
        return None if self.finer.pixels is None else self._turned(self.finer.pixels)

    def pixels_for(self, long_side: int) -> np.ndarray | None:
        fine = self.finer.pixels_for(int(math.ceil(long_side / self.grow)))
        return None if fine is None else self._turned(fine)


class CropMemo:
    """The classifier's outputs for the crops of one copy of a photo (`source`) read so far, by
    crop box and whether turned half round. A photo read again with the passes planned by its
    tiles (recognition.reading.retile) keeps most of its boxes, and a crop read twice gives the
    same numbers, whatever the batch it is read in."""

    def __init__(self, source: np.ndarray | None = None) -> None:
        self.source = source
        self.read: dict[tuple[bool | float, ...], tuple[np.ndarray, float | None]] = {}


@dataclass
class CoarsePass:
    """The pass for one or two tiles filling a frame (`Recognizer.whole_tiles`), made at most once
    for the frame's pixels: its boxes, and the classifier's logits and sharpness for those of them
    read, by index."""

    boxes: np.ndarray | None = None
    read: dict[int, tuple[np.ndarray, float | None]] = field(default_factory=dict)
    # the frame as taken and its thumbnail, when the frame read was corrected for the light's colour
    # and not turned: that light was judged on the first boxes, which may be a face's pieces (pips,
    # strokes: ink, not ivory); the faces found are read in the light judged on them
    taken: tuple[np.ndarray, reading.Thumb] | None = None
    source: np.ndarray | None = None  # the frame the crops are cut from, once judged


@dataclass
class CropReading:
    """The classifier's first reading of a photo's boxes (`Recognizer.first_read`), before the
    rereads: class and orientation probabilities per box, each crop's sharpness (None from a
    classifier without that output), and what the rereads need: the crops read (`memo`) and the
    boxes in the pixels of the copy they are cut from (`cut`) and as given (`boxes`)."""

    probs: list[list[float]]
    orient: list[list[float]]
    sharp: np.ndarray | None
    memo: CropMemo
    cut: np.ndarray
    boxes: np.ndarray


class Recognizer:
    def __init__(self, detector: OnnxModel, classifier: OnnxModel, settings: Settings = DEFAULT_SETTINGS) -> None:
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
                       settings: Settings = DEFAULT_SETTINGS) -> Recognizer:
        # the classifier's batches of crops shared between single-thread sessions, one per thread,
        # and its rereads from the graph of its logits alone (session.OnnxModel); the detector's one
        # input keeps a session of them all
        logits = os.path.join(path, "classifier_logits.onnx")
        return cls(OnnxModel(os.path.join(path, "detector.onnx"), threads),
                   OnnxModel(os.path.join(path, "classifier.onnx"), lanes=threads or default_threads(),
                             first_only=logits if os.path.exists(logits) else None), settings)

    # -- stages, each usable alone -----------------------------------------------------------

    def detect(self, pixels: np.ndarray) -> np.ndarray:
        """The boxes of `detect_all`, without the faint ones."""
        return self.detect_all(pixels)[0]

    def detect_all(self, pixels: np.ndarray, finer: Finer | TurnedFiner | None = None,
                   shrunk: list[np.ndarray] | None = None,
                   again: reading.Retile | None = None,
                   made: list[tuple[np.ndarray, float]] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(n, 5) boxes [x1, y1, x2, y2, score] in the pixels of `pixels` (decoded by recognition.reading):
        one pass at the detector's long side, then the passes recognition.reading plans
        (Settings.multi_scale: again where the tiles have the size the detector learned; a pass
        larger than `pixels` runs on `finer`'s copy of the photo, when given; a pass finer than the
        first, on the part of `pixels` round the first pass's boxes: recognition.reading.pass_windows), merged there
        (with Settings.merge_fragments, parts of tiles merged or dropped; with Settings.snap_rows,
        the short boxes of a row grown to its height); and the first pass's faint
        peaks where a tile set apart would stand (recognition.reading.faint_boxes), (m, 5). The
        phone runs the same plan. `shrunk`, when given, is given the first pass's input (`pixels`
        shrunk to the detector's long side, unpadded): `thumbnail` shrinks it further. `again`, when
        given, gives the passes after the first instead of those planned, and where their boxes
        count (recognition.reading.retile). `made`: given empty, the first pass's map and scale are put
        in it; given them (from a call on the same `pixels`), that pass is not run again."""
        if made:
            out, scale = made[0]
        else:
            out, scale = self._run_detector(pixels, self.long_side, shrunk)
            if made is not None:
                made.append((out, scale))
        boxes = self._boxes(out, scale, pixels, self.settings)
        h, w = pixels.shape[:2]
        first = _box_list(boxes)
        passes: list[tuple[list[scales.Box], float]] = [(first, scale)]
        available = finer.long_side if finer else None
        sides = again.sides if again else reading.rescan_sides(first, scale, w, h, self.settings, available)
        windows = again.windows if again and again.windows else reading.pass_windows(first, scale, w, h, sides,
                                                                                      self.settings)
        for long_side, window in zip(sides, windows):
            if window is not None:  # the part of the frame round what the first pass boxed
                x1, y1, x2, y2 = window.window
                part, more_scale = self.detect_at(pixels[y1:y2, x1:x2], window.long_side)
                passes.append((reading.window_boxes(_box_list(part), window.window, w, h), more_scale))
                continue
            fine = finer.pixels_for(long_side) if finer and long_side > max(w, h) else None
            if fine is None:
                more, more_scale = self.detect_at(pixels, long_side)
            else:  # boxes back in the pixels of `pixels`
                more, more_scale = self.detect_at(fine, long_side)
                ratio = fine.shape[1] / w
                more[:, :4] /= ratio
                more_scale *= ratio
            passes.append((_box_list(more), more_scale))
        merged = reading.merge_detections(passes, self.settings, again.region if again else None,  # which to merge, grow or drop is reading.py's
                                          again.largest if again else None)
        if merged != first:
            boxes = np.array(merged, np.float32).reshape(-1, 5)
        low = self.settings.faint_threshold
        faint = reading.faint_boxes(flat(out), out.shape[1], out.shape[2], scale, w, h, _box_list(boxes),
                                    self.settings, self.stride, None if low is None else hot_cells(out, low))
        return boxes, np.array(faint, np.float32).reshape(-1, 5)

    def _run_detector(self, pixels: np.ndarray, long_side: int,
                      shrunk: list[np.ndarray] | None = None) -> tuple[np.ndarray, float]:
        """The detector's (5, gh, gw) map for `pixels` fitted to `long_side`, and the scale; the
        input, unpadded, appended to `shrunk` when given."""
        net_in, tf = fit_resize(pixels, long_side)
        if shrunk is not None:
            shrunk.append(net_in[:tf.content[1], :tf.content[0]])
        return self.detector.run(to_nchw(net_in[None]))[0], tf.scale

    def _boxes(self, out: np.ndarray, scale: float, pixels: np.ndarray, settings: Settings) -> np.ndarray:
        h, w = pixels.shape[:2]
        boxes = reading.detect_boxes(flat(out), out.shape[1], out.shape[2], scale, w, h, settings, self.stride,
                                     hot_cells(out, settings.detect_threshold))
        return np.array(boxes, np.float32).reshape(-1, 5)

    def detect_at(self, pixels: np.ndarray, long_side: int) -> tuple[np.ndarray, float]:
        """One detector pass with the image's long side at `long_side` (never enlarged): (n, 5)
        boxes in the pixels of `pixels`, and the scale (detector pixels per pixel of `pixels`)."""
        out, scale = self._run_detector(pixels, long_side)
        return self._boxes(out, scale, pixels, self.settings), scale

    def classify(self, pixels: np.ndarray, boxes: np.ndarray,
                 fine: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Class and orientation probabilities (`classify_all`)."""
        probs, orient, _ = self.classify_all(pixels, boxes, fine)
        return probs, orient

    def classify_all(self, pixels: np.ndarray, boxes: np.ndarray, fine: np.ndarray | None = None,
                     memo: CropMemo | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """Class probabilities (n, len(labels)), orientation probabilities (n, 4) and each crop's
        sharpness (n; None from a classifier without that output): `first_read`, then `read_again`,
        each box read as one (no box split in two)."""
        return self.read_again(self.first_read(pixels, boxes, fine, memo))[1:]

    def first_read(self, pixels: np.ndarray, boxes: np.ndarray, fine: np.ndarray | None = None,
                   memo: CropMemo | None = None) -> CropReading:
        """The classifier's reading of the crops of `boxes`, those read unsurely read again turned
        half round (recognition.reading.unsure_crops). The crops are cut from `fine` (a finer copy
        of `pixels`, boxes still in the pixels of `pixels`) when given: a tile 20 px wide in
        `pixels` keeps its pips. `memo`: the crops of this photo read already (by an earlier call on
        the same pixels), not read again."""
        if len(boxes) == 0:
            return CropReading([], [], np.zeros(0, np.float32), memo or CropMemo(), np.zeros((0, 4), np.float32), boxes)
        source, ratio = (pixels, 1.0) if fine is None else (fine, fine.shape[1] / pixels.shape[1])
        if memo is None:
            memo = CropMemo(source)
        elif memo.source is not source:  # another copy (turned, tinted, finer): its crops differ
            memo.source, memo.read = source, {}
        cut = boxes[:, :4] * ratio
        logits, sharp = self._crop_logits(memo, cut, False, sharpness=True)
        if self.settings.half_turn_tta:
            logits = np.concatenate([logits, self._crop_logits(memo, cut, True)[0]])
        probs, orient = reading.probabilities(logits.ravel().tolist(), len(boxes), self.n_classes,
                                              self.settings.half_turn_tta)
        unsure = reading.unsure_crops(probs, self.labels, self.reject_label, self.settings)
        if unsure:  # those crops read again turned half round
            logits = self._crop_logits(memo, cut[unsure], True)[0]
            probs, orient = reading.reread_half_turned(probs, orient, unsure, logits.ravel().tolist(), self.n_classes)
        return CropReading(probs, orient, sharp, memo, cut, boxes)

    def read_again(self, first: CropReading, faint: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                                 np.ndarray | None]:
        """`first_read`'s boxes and probabilities with tall faces read as blank read again from
        their lower part, boxes read unsurely from the box grown up and down and at two more sizes,
        and, when `faint` is given (the last `faint` boxes are faint peaks), a box whose halves read
        two tiles cut in two (recognition.reading.rereads, split_faces, read_again); with their
        orientation probabilities and sharpness."""
        if not first.probs:
            return first.boxes, np.zeros((0, self.n_classes), np.float32), np.zeros((0, 4), np.float32), first.sharp
        settings = self.settings if faint is not None else replace(self.settings, split_wide=None, split_unsure=None)
        read = self._read_again(first.memo, first.cut, first.boxes, first.probs, first.orient, settings, faint or 0)
        if len(read.origin) == len(first.probs):
            return first.boxes, np.array(read.probs, np.float32), np.array(first.orient, np.float32), first.sharp
        sharp = None if first.sharp is None else np.asarray(first.sharp)[read.origin]
        return (np.array(read.boxes, np.float32).reshape(-1, first.boxes.shape[1]), np.array(read.probs, np.float32),
                np.array(read.orient, np.float32), sharp)

    def _crop_logits(self, memo: CropMemo, boxes: np.ndarray, half_turned: bool,
                     sharpness: bool = False) -> tuple[np.ndarray, np.ndarray | None]:
        """The classifier's logits (n, outputs) for the crops of `boxes` (n, 4) in `memo.source`'s
        pixels, turned half round when `half_turned`, and, when `sharpness` is asked for, each
        crop's sharpness (None from a classifier without that output, or when not asked for: the
        rereads' crops need none, and the logits alone take a fifth less time): those in `memo`
        from there, the others read and kept."""
        keys = [(half_turned, *b) for b in boxes.tolist()]
        sharpness = sharpness and "sharpness" in self.classifier.output_names
        todo = [i for i, k in enumerate(keys) if k not in memo.read or (sharpness and memo.read[k][1] is None)]
        if todo:
            assert memo.source is not None  # classify_all sets it
            crops = square_crops(memo.source, boxes[todo], self.crop_size, self.crop_context)
            x = to_nchw(crops[:, ::-1, ::-1] if half_turned else crops)
            out = self.classifier.run_all(x) if sharpness else {self.classifier.output_names[0]: self.classifier.run(x)}
            logits, sharp = out[self.classifier.output_names[0]], out.get("sharpness")
            for n, i in enumerate(todo):
                memo.read[keys[i]] = (logits[n], None if sharp is None else float(np.asarray(sharp).reshape(-1)[n]))
        rows = [memo.read[k] for k in keys]
        logits = np.stack([r[0] for r in rows]) if rows else np.zeros((0, 0), np.float32)
        sharp = None if not sharpness or not rows else np.array([r[1] for r in rows], np.float32)
        return logits, sharp

    def _read_again(self, memo: CropMemo, cut: np.ndarray, boxes: np.ndarray, probs: list[list[float]],
                    orient: list[list[float]], settings: Settings, faint: int) -> reading.ReadAgain:
        """Tall faces read as blank read again from their lower part, unsure boxes from the box
        grown across the tiles' row and from the box shrunk and grown about its centre, boxes that
        may hold two faces by their halves (recognition.reading.rereads, read_again); `cut`: `boxes`
        in the pixels of `memo.source`."""
        plan = reading.rereads(cut.tolist(), probs, self.labels, self.reject_label, settings, orient, faint)
        again: list[list[float]] = []
        if plan.crops:
            logits = self._crop_logits(memo, np.array(plan.crops, np.float32), False)[0]
            again = reading.probabilities(logits.ravel().tolist(), len(plan.crops), self.n_classes)[0]
        return reading.read_again(boxes.tolist(), probs, orient, plan, again, self.labels, self.reject_label, settings)

    # -- the whole thing -----------------------------------------------------------------------

    def recognize(self, data: bytes | LoadedImage) -> Recognition:
        t0 = time.perf_counter()
        image = data if isinstance(data, LoadedImage) else load_image(data)
        t1 = time.perf_counter()
        copies = Finer(data, image) if isinstance(data, bytes) else None
        finer: Finer | TurnedFiner | None = copies
        pixels = image.pixels
        shrunk: list[np.ndarray] = []
        made: list[tuple[np.ndarray, float]] = []  # the first pass of the pixels read last: a retile reuses it
        found, faint = self.detect_all(pixels, finer, shrunk, made=made)
        tw, th = reading.thumb_size(pixels.shape[1], pixels.shape[0], self.settings)
        thumb = self.thumbnail(pixels, tw, th, shrunk[0])  # the light's colour and the faces' angle are judged on it
        table = self.cast_table(pixels, found, thumb=thumb)
        if table is not None:  # the light tints the tiles: the photo's colours corrected, read again
            pixels = tinted(pixels, table)
            if copies is not None:
                copies.tint(table)
            made, shrunk = [], []
            found, faint = self.detect_all(pixels, finer, shrunk, made=made)
        turn = reading.straighten(_box_list(found), pixels.shape[1], pixels.shape[0], self.settings,
                                  thumb.tobytes(), tw, th, lambda spans, step: thumb_edge_sums(thumb, spans, step))
        if turn is not None:  # a row aslant: the photo turned to level it, read again
            pixels = turned(pixels, turn)
            finer = TurnedFiner(copies, turn) if copies is not None else None
            made, shrunk = [], []
            found, faint = self.detect_all(pixels, finer, shrunk, made=made)
        boxes = np.concatenate([found, faint]) if len(faint) else found
        t2 = time.perf_counter()
        memo = CropMemo()  # the crops read, kept while the pixels they are cut from are the same
        # whether the frame lies turned a quarter is judged before the rereads, which a frame read
        # again turned would throw away (models/HISTORY.md, "A quarter turn judged before the rereads")
        first = self.first_read(pixels, boxes, finer.pixels if finer else None, memo)
        quarter = reading.quarter_turn(first.probs, first.orient, self.labels, self.reject_label,
                                       pixels.shape[1], pixels.shape[0], turn, self.settings)
        # the frame as taken, shrunk: a blank face lit less than the faces round it is no face (reading.unlit_blanks)
        light = reading.Thumb(thumb.tobytes(), (tw, th), (image.pixels.shape[1], image.pixels.shape[0]))
        if quarter is None:
            boxes, probs, orient, sharp = self.read_again(first, len(faint))
        else:  # the tiles' tops point left or right: read again turned tops up
            turn, pixels = quarter[0], turned(pixels, quarter[1])
            finer = TurnedFiner(copies, turn) if copies is not None else None
            made, shrunk = [], []
            found, faint = self.detect_all(pixels, finer, shrunk, made=made)
            boxes = np.concatenate([found, faint]) if len(faint) else found
            boxes, probs, orient, sharp = self.read_again(self.first_read(pixels, boxes, finer.pixels if finer else None,
                                                                          memo), len(faint))
        h, w = pixels.shape[:2]
        rows = boxes.tolist()
        read = reading.unlit_blanks(rows, probs.tolist(), self.labels, self.reject_label, light, self.settings, turn)
        kept: list[int] = reading.kept_tiles(rows, read, self.labels, self.reject_label, (w, h), self.settings,
                                             len(faint))
        # one or two tiles filling the frame, boxed whole only at a coarse scale: looked for before a
        # retile, whose finer passes (up to 1536 px when nothing is read) such a close-up does not need
        coarse = CoarsePass()
        if table is not None and turn is None and self.settings.whole_light:  # a light judged on what may be pieces
            coarse.taken = (image.pixels, light)
        whole = self.whole_tiles(pixels, [rows[i] for i in kept], [read[i] for i in kept], shrunk[0], coarse)
        again = None if whole is not None else reading.retile(
            rows, read, self.labels, self.reject_label, fitted(w, h, self.long_side)[0] / w, w, h,
            self.settings, finer.long_side if finer else None, len(faint), kept)
        if again is not None:  # the tiles measure smaller than the boxes the passes were planned by: planned again by the tiles
            found, faint = self.detect_all(pixels, finer, again=again, made=made)
            boxes = np.concatenate([found, faint]) if len(faint) else found
            boxes, probs, orient, sharp = self.read_again(self.first_read(pixels, boxes, finer.pixels if finer else None,
                                                                          memo), len(faint))
            h, w = pixels.shape[:2]
            rows = boxes.tolist()
            read = reading.unlit_blanks(rows, probs.tolist(), self.labels, self.reject_label, light, self.settings, turn)
            kept = reading.believed(reading.kept_tiles(rows, read, self.labels, self.reject_label, (w, h),
                                                       self.settings, len(faint)),
                                    read, self.labels, self.reject_label, self.settings, again.largest is not None)
            whole = self.whole_tiles(pixels, [rows[i] for i in kept], [read[i] for i in kept], shrunk[0], coarse)
        faint_n = len(faint)
        if whole is not None:
            boxes, read, orient, sharp = whole
            probs, kept, faint_n = np.asarray(read, np.float32), list(range(len(boxes))), 0
        t3 = time.perf_counter()
        result = self.assemble(image, boxes, np.array(read, np.float32).reshape(probs.shape), orient, faint_n, sharp,
                               turn, kept)
        t4 = time.perf_counter()
        timing = {"decode": (t1 - t0) * 1e3, "detect": (t2 - t1) * 1e3, "classify": (t3 - t2) * 1e3,
                  "postprocess": (t4 - t3) * 1e3, "total": (t4 - t0) * 1e3}
        return Recognition(result[0].tiles, result[0].rows, result[1], image.original_size, timing, result[2], result[3])

    def whole_tiles(self, pixels: np.ndarray, tiles: list[list[float]], probs: list[list[float]], shrunk: np.ndarray,
                    made: CoarsePass | None = None) -> tuple[np.ndarray, list[list[float]], np.ndarray,
                                                             np.ndarray | None] | None:
        """One or two tiles filling `pixels`, read whole where `tiles` (the boxes of the tiles read,
        read as `probs`) are their pieces: the boxes, class and orientation probabilities and sharpness that replace
        the reading, or None (recognition.reading.whole_side, whole_tiles). The pass is detected on
        `shrunk` (the first pass's input, `pixels` fitted to the detector's long side) shrunk
        further, as the phone makes it (recognize-worker.js, `detect` with `shrunk`): a shrink of a
        shrink, a whole factor for most photos, where a shrink of `pixels` took 3 ms. `made`, when
        given (new, or from a call on the same pixels), keeps that pass and the crops read from it;
        given the frame as taken (`CoarsePass.taken`), the faces are read there, in the light judged
        on them (Settings.whole_light)."""
        side = reading.whole_side(probs, self.labels, self.reject_label, self.settings)
        if side is None:
            return None
        h, w = pixels.shape[:2]
        made = CoarsePass() if made is None else made
        if made.boxes is None:
            out, scale = self._run_detector(shrunk, side)
            made.boxes = self._boxes(out, scale * shrunk.shape[1] / w, pixels, self.settings)
        coarse = made.boxes
        pick = reading.whole_tiles(coarse.tolist(), tiles, (w, h), self.settings)
        if pick is None:
            return None
        if made.source is None:  # the frame the faces' crops are cut from
            made.source = pixels
            if made.taken is not None:
                taken, light = made.taken
                gains = reading.colour_cast(light.pixels, *light.size, _box_list(coarse[pick]), w, h, self.settings,
                                            fewest=1)
                made.source = taken if gains is None else tinted(taken, _lut(gains))
        todo = [i for i in pick if i not in made.read]
        if todo:
            read = self.classifier.run_all(to_nchw(square_crops(made.source, coarse[todo, :4], self.crop_size,
                                                                self.crop_context)))
            sharpness = read.get("sharpness")
            for n, i in enumerate(todo):
                made.read[i] = (read[self.classifier.output_names[0]][n],
                                None if sharpness is None else float(np.asarray(sharpness).reshape(-1)[n]))
        logits = np.stack([made.read[i][0] for i in pick])
        sharps = [made.read[i][1] for i in pick]
        sharp = None if any(v is None for v in sharps) else np.array(sharps, np.float32)
        probs, orient = reading.probabilities(logits.ravel().tolist(), len(pick), self.n_classes)
        if not reading.whole_read(probs, self.labels, self.reject_label):
            return None
        return coarse[pick], probs, np.array(orient, np.float32), sharp

    def cast_table(self, pixels: np.ndarray, boxes: np.ndarray, shrunk: np.ndarray | None = None,
                   thumb: np.ndarray | None = None) -> np.ndarray | None:
        """The lookup table (for `tinted`) that takes the light's colour off `pixels`, judged on the
        tiles' faces in `boxes` (recognition.reading.colour_cast, on a copy shrunk as the phone
        shrinks it: `thumb`, or made from `shrunk`, the first detector pass's input, when given), or
        None when the photo is read as it is."""
        if self.settings.colour_cast is None or not len(boxes):
            return None
        h, w = pixels.shape[:2]
        tw, th = reading.thumb_size(w, h, self.settings)
        if thumb is None:
            thumb = self.thumbnail(pixels, tw, th, shrunk)
        gains = reading.colour_cast(thumb.tobytes(), tw, th, _box_list(boxes), w, h, self.settings)
        return None if gains is None else _lut(gains)

    def thumbnail(self, pixels: np.ndarray, tw: int, th: int, shrunk: np.ndarray | None = None) -> np.ndarray:
        """`pixels` shrunk to tw x th by area, from the detector's input (fit_resize at its long
        side, before padding; `shrunk`, when the first pass has made it), as the phone makes it
        from its own (recognize-worker.js, `detect`): a shrink of a shrink, cheap on both sides."""
        if shrunk is None:
            net_in, tf = fit_resize(pixels, self.long_side)
            shrunk = net_in[:tf.content[1], :tf.content[0]]
        small = shrunk
        ch, cw = small.shape[:2]
        if (tw, th) != (cw, ch):
            small = cv2.resize(small, (tw, th), interpolation=cv2.INTER_AREA)
        return np.ascontiguousarray(small)

    def assemble(self, image: LoadedImage, boxes: np.ndarray, probs: np.ndarray, orient: np.ndarray, faint: int = 0,
                 sharp: np.ndarray | None = None, turn: reading.Turn | None = None,
                 kept: list[int] | None = None) -> tuple[Layout, Proposal | None, str, tuple[dict, ...]]:
        """Drop non-tiles and duplicates, lay the tiles out, propose a hand, say what the player
        should know of the photo: recognition.reading, the code the phone runs too. The last
        `faint` boxes are faint ones (`detect_all`); `sharp`, each crop's sharpness; with `turn`,
        the boxes are in the pixels of the image turned by it (`turned`); `kept`, the tiles kept
        (recognition.reading.kept_tiles), when known already."""
        w, h = turn.turned if turn is not None else image.pixels.shape[1::-1]
        read = reading.assemble(boxes.tolist(), probs.tolist(), orient.tolist(), self.labels, self.reject_label,
                                (w, h), self.settings, image.scale, image.original_size, faint,
                                None if sharp is None else sharp.tolist(), turn, kept)
        return Layout(read.tiles, read.rows), read.proposal, read.message, read.notes


def flat(out: np.ndarray) -> memoryview:
    """The detector's map as recognition.reading reads it: flat float32, as the phone hands it over
    (Pyodide gives a Float32Array as a memoryview). Its values are read one at a time, and only
    the few that need it: `tolist` made a Python float of every value of the five planes, where
    decoding scans only the first (a 1280 px pass's map: 26 ms to list and scan, 4 ms to scan,
    timed while the tests ran)."""
    return np.ascontiguousarray(out, np.float32).reshape(-1).data


def hot_cells(out: np.ndarray, threshold: float) -> list[int]:
    """The cells of the detector's (5, gh, gw) map whose heat reaches `threshold` and that none of
    their eight neighbours exceeds (the peaks decode boxes), by their index in its first plane:
    recognition.reading.decode's `cells`, found here with numpy. Decoding then looks at these few
    (12-51 on a riichi-mat photo), not at every cell in Python (most of the 0.75 ms a 512 px pass
    took to decode), nor at every cell reaching the threshold (63-631: 1.2 ms a photo). The
    threshold is compared in float64, as decode compares each float32 value; the neighbours, as
    float32 values both, in either."""
    heat = np.asarray(out[0], np.float32)
    gh, gw = heat.shape
    around = np.full((gh + 2, gw + 2), -np.inf, np.float32)
    around[1:-1, 1:-1] = heat
    most = np.full((gh, gw), -np.inf, np.float32)  # the greatest of each cell's neighbours
    for dy in (0, 1, 2):
        for dx in (0, 1, 2):
            if dy != 1 or dx != 1:
                np.maximum(most, around[dy:dy + gh, dx:dx + gw], out=most)
    peaks = (heat.astype(np.float64) >= reading.heat_cut(threshold)) & (heat >= most)
    return np.flatnonzero(peaks.reshape(-1)).tolist()


def thumb_edge_sums(thumb: np.ndarray, spans: Sequence[reading.Span], step: int) -> list[tuple[complex, float]]:
    """recognition.reading.edge_sums for the (th, tw, 3) RGB thumbnail, with numpy: the Sobel
    gradients of the whole thumbnail's luma at once (whole numbers, so exact), then each span's
    terms in the operations Python's complex numbers make (g * g as (x*x - y*y, x*y + y*x), |g|
    by hypot, a complex divided by a float part by part), summed one after another as the loop
    sums them (np.add.accumulate, not np.sum's pairwise sums): the same numbers to the bit. A
    riichi-mat photo with no row to go by spent 4-6 ms here, pixel by pixel."""
    kr, kg, kb = reading.LUMA
    rgb = np.asarray(thumb, np.int32)
    luma = kr * rgb[..., 0] + kg * rgb[..., 1] + kb * rgb[..., 2]
    across = luma[:-2] + 2 * luma[1:-1] + luma[2:]  # rows y - 1, y, y + 1 weighted, for y = 1 .. th - 2
    down = luma[:, :-2] + 2 * luma[:, 1:-1] + luma[:, 2:]  # columns likewise, for x = 1 .. tw - 2
    gx, gy = across[:, 2:] - across[:, :-2], down[2:] - down[:-2]  # at pixel (y, x): [y - 1, x - 1]
    picks = [(slice(r1 - 1, r2 - 1, step), slice(c1 - 1, c2 - 1, step)) for c1, r1, c2, r2 in spans]
    x = np.concatenate([gx[p].ravel() for p in picks]).astype(np.float64)
    y = np.concatenate([gy[p].ravel() for p in picks]).astype(np.float64)
    moved = (x != 0) | (y != 0)  # a pixel with no gradient adds nothing
    ends = np.cumsum(moved)[np.cumsum([gx[p].size for p in picks]) - 1].tolist() if len(x) else [0] * len(spans)
    x, y = x[moved], y[moved]
    m = np.hypot(x, y)
    a, b = x * x - y * y, x * y + y * x  # g * g
    m3 = m * m * m
    real, imag = (a * a - b * b) / m3, (a * b + b * a) / m3  # (g * g) * (g * g) / m**3

    def total(v: np.ndarray) -> float:
        return float(np.add.accumulate(v)[-1]) if len(v) else 0.0

    out, start = [], 0
    for end in ends:
        out.append((complex(total(real[start:end]), total(imag[start:end])), total(m[start:end])))
        start = end
    return out


def _lut(gains: Sequence[float]) -> np.ndarray:
    """reading.cast_table's table for `gains`, as cv2.LUT takes it (256, 1, 3)."""
    return np.array(reading.cast_table(gains), np.uint8).reshape(3, 256).T.reshape(256, 1, 3).copy()


def tinted(pixels: np.ndarray, table: np.ndarray) -> np.ndarray:
    """`pixels` (h, w, 3 RGB uint8) through `table` (256, 1, 3; Recognizer.cast_table): what
    recognize-worker.js `tint` does on the phone."""
    return cv2.LUT(pixels, table)


# quarter turns anticlockwise as seen (reading.Turn's sign) -> cv2.rotate's codes
_ROTATE = {1: cv2.ROTATE_90_COUNTERCLOCKWISE, 2: cv2.ROTATE_180, 3: cv2.ROTATE_90_CLOCKWISE}


def turned(pixels: np.ndarray, turn: reading.Turn) -> np.ndarray:
    """`pixels` (h, w, 3) turned by `turn` onto its canvas (bilinear; outside the photo, grey):
    what frame-tensors.js turnFrame does on the phone. A whole number of quarter turns (turn_frame's,
    about the frame's middle pixel) moves whole pixels: those are moved by cv2.rotate, the same
    pixels as warpAffine gives, in an eighth of the time (a 640 px frame: 0.19 against 1.5 ms)."""
    h, w = pixels.shape[:2]
    quarters = round(turn.angle / 90.0) % 4
    if quarters and turn.size == (w, h) and turn.matrix == reading.turn_frame(90.0 * quarters, w, h).matrix:
        return cv2.rotate(pixels, _ROTATE[quarters])
    return cv2.warpAffine(pixels, np.array(turn.matrix, np.float64), turn.turned, flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=(turn.FILL,) * 3)


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


__all__ = ["Detection", "NO_TILES", "Recognizer", "Recognition", "Settings", "get_recognizer"]
