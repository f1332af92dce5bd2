"""Score the recogniser on folders of labelled photos.

    python -m training.evaluate DIR [DIR ...] [--split val] [--per-class] [--json OUT] [--repeat N]

Each DIR holds photos with a labels.json (dev-photos: per photo its "kind", the multiset of face-up
"tiles", the number of face-down tiles "back") or a labels.jsonl (real-photos: pixel boxes with mpsz
codes; see training.datasets). `--split val` keeps the validation scenes of the real photos
(split by scene, stratified by kind; nothing is tuned on them). Per photo the predicted multiset of
tiles is matched against the label (a multiset intersection), which gives tile precision, recall
and F1 per source folder, per kind of photo and overall, the share of photos read exactly, and
red-five recall, with the red fives read where the labels have none. Where a photo's labels are
known to be incomplete ("use": "detection": only the hand row is boxed), only predictions whose centre lies on a labelled tile count, so "read exactly"
there means every labelled tile read right and nothing invented on them. Predictions on tiles that are no riichi tile (flowers, boxed as
non_mpsz_boxes) are not counted. Latency is wall time from the file's bytes to the answer, after
one warm-up.

A development command, like bench/: it reads labelled folders through training.datasets, and the
app never imports it (tests/test_app_imports.py).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from training.datasets import LabelledPhoto, load_real

RED_FIVES = ("0m", "0p", "0s")


@dataclass
class PhotoResult:
    name: str
    kind: str
    truth: Counter
    predicted: Counter
    truth_back: int
    predicted_back: int | None  # None: the reader does not report face-down tiles
    latency_ms: list[float] = field(default_factory=list)
    source: str = ""
    complete: bool = True  # False: the labels box only some tiles; not counted in "read exactly"
    # the tiles judged that the reader flags for the player to check: (code read, codes offered on a tap);
    # None: the reader flags nothing
    offers: list[tuple[str, tuple[str, ...]]] | None = None

    @property
    def tp(self) -> int:
        return sum((self.truth & self.predicted).values())

    @property
    def exact(self) -> bool:
        return self.truth == self.predicted

    @property
    def exact_with_backs(self) -> bool:
        # where labels are incomplete the face-down tiles are not judged
        return self.exact and (not self.complete or self.predicted_back == self.truth_back)


@dataclass(frozen=True)
class Scores:
    precision: float
    recall: float
    f1: float
    photos: int
    exact: float
    exact_with_backs: float


def prf(results: list[PhotoResult]) -> Scores:
    tp = sum(r.tp for r in results)
    n_pred = sum(sum(r.predicted.values()) for r in results)
    n_true = sum(sum(r.truth.values()) for r in results)
    p = tp / n_pred if n_pred else 0.0
    rc = tp / n_true if n_true else 0.0
    f1 = 2 * p * rc / (p + rc) if p + rc else 0.0
    n = len(results)
    return Scores(p, rc, f1, n, sum(r.exact for r in results) / max(n, 1),
                  sum(r.exact_with_backs for r in results) / max(n, 1))


def red_five_recall(results: list[PhotoResult]) -> tuple[float, int]:
    hit = total = 0
    for r in results:
        for c in RED_FIVES:
            total += r.truth[c]
            hit += min(r.truth[c], r.predicted[c])
    return (hit / total if total else float("nan")), total


def red_fives_read(results: list[PhotoResult]) -> tuple[int, int]:
    """(red fives read, of them read where the photo's labels hold no more of that red five):
    a five read as red changes a hand's score as surely as one missed."""
    read = false = 0
    for r in results:
        for c in RED_FIVES:
            read += r.predicted[c]
            false += max(0, r.predicted[c] - r.truth[c])
    return read, false


def red_fives_offered(results: list[PhotoResult]) -> int | None:
    """Of the red fives missed, how many the player is steered to: a tile read wrong in the photo
    (one the labels hold fewer of) is flagged to check, and a tap on it offers that red five. Such a
    five costs two taps; one missed unflagged changes the score unseen. None when the reader flags
    nothing."""
    if any(r.offers is None for r in results):
        return None
    found = 0
    for r in results:
        extra = r.predicted - r.truth
        spare = []  # what the flagged tiles read wrong offer: no more tiles of a code than are wrong
        for code, offered in r.offers or []:
            if extra[code] > 0:
                extra[code] -= 1
                spare.append(offered)
        for c in RED_FIVES:
            for _ in range(max(0, r.truth[c] - r.predicted[c])):
                hit = next((i for i, offered in enumerate(spare) if c in offered), None)
                if hit is not None:
                    found += 1
                    del spare[hit]
    return found


def wrong_flagged(results: list[PhotoResult]) -> tuple[int, int] | None:
    """(tiles read beyond the labels, of them flagged for the player to check): a wrong tile shown
    unflagged is one the player has to find alone. None when the reader flags nothing."""
    if any(r.offers is None for r in results):
        return None
    wrong = told = 0
    for r in results:
        extra = r.predicted - r.truth
        shown = Counter(code for code, _ in r.offers or [])
        wrong += sum(extra.values())
        told += sum(min(n, shown[code]) for code, n in extra.items())
    return wrong, told


def per_class(results: list[PhotoResult]) -> dict[str, tuple[int, int, int]]:
    """code -> (tp, fp, fn)."""
    out: dict[str, list[int]] = {}
    for r in results:
        for c in set(r.truth) | set(r.predicted):
            tp = min(r.truth[c], r.predicted[c])
            row = out.setdefault(c, [0, 0, 0])
            row[0] += tp
            row[1] += r.predicted[c] - tp
            row[2] += r.truth[c] - tp
    return {c: tuple(v) for c, v in sorted(out.items())}


def load_labels(folder: str) -> dict:
    with open(os.path.join(folder, "labels.json")) as f:
        return json.load(f)


Box = tuple[float, float, float, float]
# bytes -> (face-up codes, face-down count or None, the codes' boxes in photo pixels or None), and
# optionally, per code, the codes a tap offers if the reader flags the tile for the player to check
# (None for a tile not flagged)
Reader = Callable[[bytes], "tuple[list[str], int | None, list[Box] | None] | "
                           "tuple[list[str], int | None, list[Box] | None, list[tuple[str, ...] | None]]"]


def _inside(cx: float, cy: float, boxes: Sequence[Box], grow: float = 0.0) -> bool:
    for x1, y1, x2, y2 in boxes:
        gx, gy = (x2 - x1) * grow, (y2 - y1) * grow
        if x1 - gx <= cx <= x2 + gx and y1 - gy <= cy <= y2 + gy:
            return True
    return False


def judged(photo: LabelledPhoto, codes: list[str], boxes: list[Box] | None) -> list[int]:
    """The indices of the predictions that can be judged against `photo`'s labels (see the module's doc)."""
    if boxes is None or not photo.has_boxes:
        return list(range(len(codes)))
    labelled = [b for _, b in photo.boxes or []]
    out = []
    for i, (x1, y1, x2, y2) in enumerate(boxes[:len(codes)]):
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        if photo.ignore and _inside(cx, cy, photo.ignore):
            continue
        if not photo.complete and not _inside(cx, cy, labelled, 0.15):
            continue
        out.append(i)
    return out


def counted(photo: LabelledPhoto, codes: list[str], boxes: list[Box] | None) -> Counter:
    """The predictions that can be judged against `photo`'s labels (see the module's doc)."""
    return Counter(codes[i] for i in judged(photo, codes, boxes))


def flagged(photo: LabelledPhoto, codes: list[str], boxes: list[Box] | None,
            offers: list[tuple[str, ...] | None] | None) -> list[tuple[str, tuple[str, ...]]] | None:
    """The judged tiles the reader flags for the player to check, each with the codes a tap offers
    (`offers[i]` is None for a tile not flagged); None when the reader flags nothing."""
    if offers is None:
        return None
    return [(codes[i], offers[i]) for i in judged(photo, codes, boxes) if offers[i] is not None]


def run(photos: list[LabelledPhoto], read: Reader, repeat: int = 1) -> list[PhotoResult]:
    """Read every labelled photo with `read`."""
    results = []
    warmed = False
    for ph in photos:
        if not os.path.exists(ph.path):
            continue
        with open(ph.path, "rb") as f:
            data = f.read()
        if not warmed:
            read(data)
            warmed = True
        lat = []
        for _ in range(repeat):
            t = time.perf_counter()
            answer = read(data)
            lat.append((time.perf_counter() - t) * 1e3)
        codes, backs, boxes = answer[:3]
        offers = answer[3] if len(answer) > 3 else None
        results.append(PhotoResult(ph.name, ph.kind, Counter(ph.tiles), counted(ph, codes, boxes),
                                   ph.back, backs if ph.complete else None, lat, ph.source, ph.complete,
                                   flagged(ph, codes, boxes, offers)))
    return results


def ours(models: str | None = None, draw: str | None = None, overrides: dict | None = None) -> Reader:
    import dataclasses

    from recognition.pipeline import MODELS_DIR, Recognizer, Settings

    settings = dataclasses.replace(Settings(), **(overrides or {}))
    rec = Recognizer.from_directory(models or MODELS_DIR, settings=settings)

    def read(data: bytes) -> tuple[list[str], int, list[Box], list[tuple[str, ...] | None]]:
        r = rec.recognize(data)
        if draw:
            _draw(data, r, draw)
        faces = [t for t in r.tiles if not t.face_down]
        # a flagged tile's sheet offers its alternatives first (static/js/photo/photo.js, correct())
        offers = [tuple(code for code, _ in t.alternatives) if t.unsure else None for t in faces]
        return [t.tile for t in faces], sum(t.face_down for t in r.tiles), [t.box for t in faces], offers

    return read


def under(condition: str, read: Reader) -> Reader:
    """`read` on photos taken under `condition` (training.perturb); the boxes it gives are
    mapped back to the labelled photo (as points: only their centres are judged)."""
    import hashlib

    from training import perturb

    def read_under(data: bytes):
        seed = int.from_bytes(hashlib.sha1(data).digest()[:4], "big")
        new, back = perturb.apply(condition, data, seed)
        answer = read(new)
        codes, backs, boxes = answer[:3]
        if boxes is None:
            return (codes, backs, None, *answer[3:])
        centres = np.array([((x1 + x2) / 2, (y1 + y2) / 2) for x1, y1, x2, y2 in boxes], np.float64).reshape(-1, 2)
        mapped = back(centres) if len(centres) else centres
        return (codes, backs, [(float(x), float(y), float(x), float(y)) for x, y in mapped], *answer[3:])

    return read_under


def _draw(data: bytes, result, folder: str) -> None:
    """Save the photo with boxes and readings (for looking at mistakes)."""
    import hashlib

    import cv2

    from recognition.image_io import load_image

    img = load_image(data, long_side=1600)
    out = np.ascontiguousarray(img.pixels[..., ::-1])
    for t in result.tiles:
        x1, y1, x2, y2 = (int(v * img.scale) for v in t.box)
        col = (0, 200, 0) if t.confidence >= 0.8 else (0, 160, 255)
        cv2.rectangle(out, (x1, y1), (x2, y2), col, 2)
        label = f"{t.tile}{'/' if t.sideways else ''} {t.confidence:.2f}"
        cv2.putText(out, label, (x1, max(12, y1 - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 3)
        cv2.putText(out, label, (x1, max(12, y1 - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.5, col, 1)
    os.makedirs(folder, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:10]
    cv2.imwrite(os.path.join(folder, f"{name}.png"), out)


def report(results: list[PhotoResult], title: str, show_classes: bool = False, out=sys.stdout,
           show_photos: bool = True) -> dict:
    kinds = sorted({r.kind for r in results})
    sources = sorted({r.source for r in results})
    print(f"== {title}: {len(results)} photos", file=out)
    print(f"{'':<36}{'photos':>7}{'P':>8}{'R':>8}{'F1':>8}{'exact':>8}{'exact+backs':>13}", file=out)
    summary: dict = {"kinds": {}, "sources": {}}
    groups = [("source", s) for s in sources] if len(sources) > 1 else []
    groups += [("kind", k) for k in kinds] + [("kind", "all")]
    for what, k in groups:
        rs = (results if k == "all" else
              [r for r in results if (r.kind if what == "kind" else r.source) == k])
        s = prf(rs)
        label = k if what == "kind" else f"[{k}]"
        print(f"{label[:35]:<36}{s.photos:>7}{s.precision:>8.3f}{s.recall:>8.3f}{s.f1:>8.3f}{s.exact:>8.2f}{s.exact_with_backs:>13.2f}", file=out)
        summary["kinds" if what == "kind" else "sources"][k] = s.__dict__
    rr, n_red = red_five_recall(results)
    lat = [statistics.median(r.latency_ms) for r in results]
    med = statistics.median(lat) if lat else float("nan")
    worst = max(lat) if lat else float("nan")
    n_read, n_false = red_fives_read(results)
    n_offered = red_fives_offered(results)
    missed = n_red - sum(min(r.truth[c], r.predicted[c]) for r in results for c in RED_FIVES)
    offered = (f"; of the {missed} missed, {n_offered} flagged with the red five offered"
               if n_offered is not None and missed else "")
    print(f"red-five recall {rr:.3f} ({n_red} red fives); {n_read} read as red fives, {n_false} where there is none"
          f"{offered}", file=out)
    told = wrong_flagged(results)
    if told is not None:
        print(f"tiles read beyond the labels: {told[0]}, of them flagged to check {told[1]}", file=out)
    print(f"latency ms: median {med:.1f}, worst {worst:.1f}", file=out)
    backs = [(r.truth_back, r.predicted_back) for r in results if r.predicted_back is not None]
    if backs:
        print(f"face-down count right on {sum(a == b for a, b in backs)}/{len(backs)} photos", file=out)
    width = max([16] + [len(r.name) + 1 for r in results])  # a long name keeps its own column
    for r in results if show_photos else []:
        missing = r.truth - r.predicted
        extra = r.predicted - r.truth
        print(f"  {r.name:<{width}}{r.kind:<10} tp {r.tp:>2}/{sum(r.truth.values()):<3} missing {''.join(sorted(missing.elements())) or '-':<24}"
              f" extra {''.join(sorted(extra.elements())) or '-':<24} backs {r.predicted_back}/{r.truth_back}"
              f"  {statistics.median(r.latency_ms):.0f} ms", file=out)
    if show_classes:
        print(f"{'tile':<6}{'tp':>4}{'fp':>4}{'fn':>4}{'P':>7}{'R':>7}{'F1':>7}", file=out)
        for c, (tp, fp, fn) in per_class(results).items():
            p = tp / (tp + fp) if tp + fp else 0.0
            rc = tp / (tp + fn) if tp + fn else 0.0
            f1 = 2 * p * rc / (p + rc) if p + rc else 0.0
            print(f"{c:<6}{tp:>4}{fp:>4}{fn:>4}{p:>7.2f}{rc:>7.2f}{f1:>7.2f}", file=out)
    summary.update({"red_five_recall": rr, "red_fives": n_red, "red_fives_read": n_read, "red_fives_false": n_false,
                    "red_fives_missed_offered": n_offered, "wrong_flagged": told,
                    "latency_median_ms": med, "latency_worst_ms": worst})
    return summary


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="+", metavar="DIR")
    ap.add_argument("--split", choices=("all", "train", "val"), default="all",
                    help="for box-labelled real photos: the scene split to evaluate (default all)")
    ap.add_argument("--quiet", action="store_true", help="no line per photo")
    ap.add_argument("--per-class", action="store_true")
    ap.add_argument("--json", help="also write the summary as JSON to this file")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per photo (median is kept)")
    ap.add_argument("--models", help="folder with detector.onnx and classifier.onnx (default: models/)")
    ap.add_argument("--draw", help="save each photo with its boxes and readings to this folder")
    ap.add_argument("--perturb", default="", metavar="NAMES",
                    help="also evaluate under photo conditions, comma-separated: dim, blur, glare, tilt45, 1mp, 12mp "
                         "(training.perturb)")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="override a recognition.pipeline.Settings field, e.g. --set detect_threshold=0.35")
    ap.add_argument("--staged-labels", action="store_true",
                    help="the real photos' labels as staged, without training/label_fixes.json")
    ap.add_argument("--no-added-labels", action="store_true",
                    help="the labels' corrections, without the tiles training/label_fixes.json adds (as measured before "
                         "2026-12-05)")
    args = ap.parse_args(argv)
    overrides = {}
    for item in args.set:
        name, _, value = item.partition("=")
        overrides[name] = json.loads(value.lower() if value.lower() in ("true", "false") else value)
    photos = load_real(args.folders, args.split, label_fixes=not args.staged_labels,
                       label_additions=not (args.staged_labels or args.no_added_labels))
    reader = ours(args.models, args.draw, overrides)
    results = run(photos, reader, 1 if args.draw else args.repeat)
    summary = report(results, "tenbou recognition", args.per_class, show_photos=not args.quiet)
    for name in filter(None, args.perturb.split(",")):
        summary.setdefault("conditions", {})[name] = report(
            run(photos, under(name, reader)), f"tenbou recognition, {name}", show_photos=False)["kinds"]["all"]
    if args.json:
        with open(args.json, "w") as f:
            json.dump(summary, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
