"""Tenbou's recogniser against the public baseline, on the same photos, in the same process.

    python -m bench.recognition_vs_baseline [DIR] [--repeat 5]

The baseline is the PyPI package mahjong-detector (MIT; a YOLOv8 ONNX model with 34 classes and
no red fives, so its red-five recall is 0 by construction and it reports no face-down tiles).
Install it with `pip install -r requirements-bench.txt`. Both readers get the photo's bytes;
each photo is timed for both alternately after a warm-up, so both see the same machine load.
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

from recognition.evaluate import PhotoResult, load_labels, ours, prf, red_five_recall, report

DEFAULT_DIR = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data", "dev-photos")
BASELINE_NAMES = {"tou": "1z", "nan": "2z", "sha": "3z", "pe": "4z", "haku": "5z", "hatsu": "6z", "chun": "7z"}


def baseline():
    from mahjong_detector import detect_tiles

    def read(data: bytes) -> tuple[list[str], None]:
        names = detect_tiles(io.BytesIO(data))
        return [BASELINE_NAMES.get(n, n) for n in names], None

    return read


def twelve_mp(data: bytes) -> bytes:
    im = Image.open(io.BytesIO(data)).convert("RGB")
    w, h = im.size
    big = im.resize((3024, 4032) if h >= w else (4032, 3024), Image.Resampling.BICUBIC)
    out = io.BytesIO()
    big.save(out, "JPEG", quality=92)
    return out.getvalue()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", nargs="?", default=DEFAULT_DIR)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    labels = load_labels(args.folder)
    readers = {"tenbou": ours(), "baseline": baseline()}
    results: dict[str, list[PhotoResult]] = {k: [] for k in readers}
    names = [n for n in sorted(labels) if os.path.exists(os.path.join(args.folder, n))]
    photos = {n: open(os.path.join(args.folder, n), "rb").read() for n in names}
    for read in readers.values():  # warm-up: sessions built, caches filled
        read(photos[names[0]])
    for n in names:
        lab = labels[n]
        answers = {}
        lat: dict[str, list[float]] = {k: [] for k in readers}
        for _ in range(args.repeat):
            for k, read in readers.items():
                t = time.perf_counter()
                answers[k] = read(photos[n])
                lat[k].append((time.perf_counter() - t) * 1e3)
        for k in readers:
            codes, backs = answers[k]
            results[k].append(PhotoResult(n, lab.get("kind", "unknown"), Counter(lab["tiles"]), Counter(codes),
                                          int(lab.get("back", 0)), backs, lat[k]))
    summaries = {k: report(results[k], k) for k in readers}

    big = twelve_mp(photos[names[0]])
    big_lat: dict[str, list[float]] = {k: [] for k in readers}
    for k, read in readers.items():
        read(big)
    for _ in range(args.repeat):
        for k, read in readers.items():
            t = time.perf_counter()
            read(big)
            big_lat[k].append((time.perf_counter() - t) * 1e3)

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
    b12 = {k: statistics.median(v) for k, v in big_lat.items()}
    print(f"{'12 MP photo latency ms':<28}{b12['tenbou']:>10.1f}{b12['baseline']:>10.1f}   ratio {b12['tenbou'] / b12['baseline']:.2f}")
    print(f"(cores: {os.cpu_count()}, repeat {args.repeat}, numpy {np.__version__})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
