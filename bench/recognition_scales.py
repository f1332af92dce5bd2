"""What detecting at the tiles' scale (recognition.scales) costs, against one pass, in one run.

    python -m bench.recognition_scales [DIR ...] [--repeat 3]

Default folders: ../shared/data/dev-photos and tests/data/hard_cases. Each photo is read by two
recognisers over the same ONNX sessions: "one pass" (Settings with multi_scale, merge_fragments,
drop_misfits, drop_unsure_groups, tall_faces, set_apart_reject, faint_threshold and grow_unsure off: the reader
before issue 19) and "scales" (all of them on).
Printed per photo: the detector passes made, the median latency of each and their ratio; then
the median ratio over photos. A ratio, not a timing: the machine's load cancels out.
"""
from __future__ import annotations

import argparse
import dataclasses
import glob
import os
import statistics
import time

from recognition.pipeline import Recognizer, Settings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.environ.get("TENBOU_SHARED", os.path.join(ROOT, "..", "shared"))
ONE_PASS = dict(multi_scale=False, merge_fragments=False, drop_misfits=False, drop_unsure_groups=False,
                tall_faces=False, set_apart_reject=None, faint_threshold=None, grow_unsure=None)
ALL_ON = dict(multi_scale=True, merge_fragments=True, drop_misfits=True, drop_unsure_groups=True, tall_faces=True,
              set_apart_reject=0.8, faint_threshold=0.2, grow_unsure=0.35)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="*", default=[os.path.join(SHARED, "data", "dev-photos"),
                                                   os.path.join(ROOT, "tests", "data", "hard_cases")])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    new = Recognizer.from_directory(settings=dataclasses.replace(Settings(), **ALL_ON))
    old = Recognizer(new.detector, new.classifier, dataclasses.replace(Settings(), **ONE_PASS))
    passes = {"n": 0}
    run_detector = new._run_detector  # every detector pass, the first included

    def counting(pixels, long_side, shrunk=None):  # type: ignore[no-untyped-def]
        passes["n"] += 1
        return run_detector(pixels, long_side, shrunk)

    new._run_detector = counting  # type: ignore[method-assign]
    paths = sorted(p for d in args.folders for p in glob.glob(os.path.join(d, "*.jpg")))
    ratios = []
    print(f"{'photo':<24}{'passes':>7}{'one pass ms':>13}{'scales ms':>11}{'ratio':>7}")
    for path in paths:
        with open(path, "rb") as f:
            data = f.read()
        old.recognize(data)
        new.recognize(data)  # warm-up
        t_old, t_new = [], []
        for _ in range(args.repeat):  # interleaved, so a burst of load hits both
            t = time.perf_counter()
            old.recognize(data)
            t_old.append(time.perf_counter() - t)
            passes["n"] = 0
            t = time.perf_counter()
            new.recognize(data)
            t_new.append(time.perf_counter() - t)
        a, b = statistics.median(t_old) * 1e3, statistics.median(t_new) * 1e3
        ratios.append(b / a)
        print(f"{os.path.basename(path)[:23]:<24}{passes['n']:>7}{a:>13.1f}{b:>11.1f}{b / a:>7.2f}")
    print(f"median ratio scales / one pass: {statistics.median(ratios):.2f} over {len(ratios)} photos; "
          f"worst {max(ratios):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
