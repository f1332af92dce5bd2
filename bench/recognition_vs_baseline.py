"""Tenbou's recogniser against the public baseline, on the same photos, in the same process.

    python -m bench.recognition_vs_baseline [DIR ...] [--split val] [--repeat 5] [--rounds 3] [--models DIR]

DIR: labelled photo folders in either format (training.datasets), by default the dev photos;
`--split val` keeps the validation scenes of box-labelled real photos, e.g.

    python -m bench.recognition_vs_baseline ../shared/data/real-photos/alanchoi00__mahjong_detection \
        ../shared/data/real-photos/alanchoi00__mahjong_detection_train --split val --repeat 1

The baseline is the PyPI package mahjong-detector (MIT; a YOLOv8 ONNX model with 34 classes and
no red fives, so its red-five recall is 0 by construction and it reports no face-down tiles).
Install it with `pip install -r requirements-bench.txt`. Both readers get the photo's bytes;
each photo is timed for one reader then the other, `--repeat` times back to back after a run not
timed, so both see the same machine load and neither is timed with the other's threads still
spinning; that is done `--rounds` times, and each reader's time for the photo is the median of all
its timed runs. (A machine whose speed moves by a fifth from minute to minute made one round's
ratio for one photo anywhere from 0.75 to 1.36; the rounds take the drift out of the ratio.)
Also times a 12 MP JPEG made by enlarging the first photo.
"""
from __future__ import annotations

import argparse
import io
import os
import statistics
import time
from collections import Counter

import numpy as np
from PIL import Image

from training.datasets import load_real
from training.evaluate import PhotoResult, counted, flagged, ours, prf, red_five_recall, report

DEFAULT_DIR = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data", "dev-photos")
BASELINE_NAMES = {"tou": "1z", "nan": "2z", "sha": "3z", "pe": "4z", "haku": "5z", "hatsu": "6z", "chun": "7z"}


def baseline():
    from mahjong_detector import detect_tiles

    def read(data: bytes) -> tuple[list[str], None, None]:
        names = detect_tiles(io.BytesIO(data))
        return [BASELINE_NAMES.get(n, n) for n in names], None, None

    return read


def twelve_mp(data: bytes) -> bytes:
    im = Image.open(io.BytesIO(data)).convert("RGB")
    w, h = im.size
    big = im.resize((3024, 4032) if h >= w else (4032, 3024), Image.Resampling.BICUBIC)
    out = io.BytesIO()
    big.save(out, "JPEG", quality=92)
    return out.getvalue()


def timed(read, data: bytes, repeat: int) -> tuple[list[float], tuple]:
    """`repeat` timings (ms) of `read(data)` back to back, after one run not timed, and its answer.
    The untimed run takes the hit of the threads the other reader's session may leave spinning
    after its own run (onnxruntime's default): timed right after the other reader, it was counted
    as this one's time."""
    answer = read(data)
    lat = []
    for _ in range(repeat):
        t = time.perf_counter()
        answer = read(data)
        lat.append((time.perf_counter() - t) * 1e3)
    return lat, answer


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="*", default=[DEFAULT_DIR], metavar="DIR")
    ap.add_argument("--split", choices=("all", "train", "val"), default="all")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--models", help="folder with detector.onnx and classifier.onnx (default: models/)")
    args = ap.parse_args()
    # only completely labelled photos: the baseline gives no boxes, so its predictions on tiles
    # that a hand-row-only label leaves out could not be set aside as ours are
    labelled = [p for p in load_real(args.folders, args.split) if os.path.exists(p.path) and p.complete]
    readers = {"tenbou": ours(args.models), "baseline": baseline()}
    results: dict[str, list[PhotoResult]] = {k: [] for k in readers}
    photos = {p.path: open(p.path, "rb").read() for p in labelled}
    for read in readers.values():  # warm-up: sessions built, caches filled
        read(photos[labelled[0].path])
    for ph in labelled:
        answers = {}
        lat: dict[str, list[float]] = {k: [] for k in readers}
        for _ in range(args.rounds):
            for k, read in readers.items():
                runs, answers[k] = timed(read, photos[ph.path], args.repeat)
                lat[k] += runs
        for k in readers:
            codes, backs, boxes = answers[k][:3]
            offers = answers[k][3] if len(answers[k]) > 3 else None
            results[k].append(PhotoResult(ph.name, ph.kind, Counter(ph.tiles), counted(ph, codes, boxes),
                                          ph.back, backs if ph.complete else None, lat[k], ph.source, ph.complete,
                                          flagged(ph, codes, boxes, offers)))
    summaries = {k: report(results[k], k, show_photos=len(labelled) <= 20) for k in readers}

    big = twelve_mp(photos[labelled[0].path])
    big_lat: dict[str, list[float]] = {k: [] for k in readers}
    for _ in range(args.rounds):
        for k, read in readers.items():
            big_lat[k] += timed(read, big, args.repeat)[0]

    print("\n== side by side")
    kinds = sorted({r.kind for r in results["tenbou"]}) + ["all"]
    print(f"{'':<28}{'tenbou':>10}{'baseline':>10}")
    for kind in kinds:
        f = {k: prf(results[k] if kind == "all" else [r for r in results[k] if r.kind == kind]).f1 for k in readers}
        print(f"{'tile F1 ' + kind:<28}{f['tenbou']:>10.3f}{f['baseline']:>10.3f}")
    ex = {k: prf(results[k]).exact for k in readers}
    print(f"{'photos read exactly':<28}{ex['tenbou']:>10.2f}{ex['baseline']:>10.2f}")
    rr = {k: red_five_recall(results[k])[0] for k in readers}
    print(f"{'red-five recall':<28}{rr['tenbou']:>10.3f}{rr['baseline']:>10.3f}")
    med = {k: summaries[k]["latency_median_ms"] for k in readers}
    worst = {k: summaries[k]["latency_worst_ms"] for k in readers}
    print(f"{'median latency ms':<28}{med['tenbou']:>10.1f}{med['baseline']:>10.1f}")
    print(f"{'worst latency ms':<28}{worst['tenbou']:>10.1f}{worst['baseline']:>10.1f}")
    ratios = [statistics.median(a.latency_ms) / statistics.median(b.latency_ms)
              for a, b in zip(results["tenbou"], results["baseline"])]
    print(f"latency ratio tenbou/baseline: {statistics.median(ratios):.2f} (median over photos), "
          f"{med['tenbou'] / med['baseline']:.2f} (ratio of the medians)")
    # issue 19: ahead of the baseline on every kind of photo, not only overall
    by_kind = {kind: statistics.median(q for q, r in zip(ratios, results["tenbou"]) if r.kind == kind)
               for kind in kinds if kind != "all"}
    print("latency ratio by kind (median over photos): "
          + ", ".join(f"{kind} {q:.2f}" for kind, q in by_kind.items()))
    b12 = {k: statistics.median(v) for k, v in big_lat.items()}
    print(f"{'12 MP photo latency ms':<28}{b12['tenbou']:>10.1f}{b12['baseline']:>10.1f}   ratio {b12['tenbou'] / b12['baseline']:.2f}")
    print(f"(cores: {os.cpu_count()}, repeat {args.repeat}, rounds {args.rounds}, numpy {np.__version__})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
