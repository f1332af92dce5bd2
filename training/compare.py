"""Two or more sets of models read every evaluation suite, side by side: what a retraining must be
judged on before it replaces models/ (models/README.md's tables come from these suites).

    python -m training.compare models /work/retrain/models [--json OUT] [--skip pins,fonts]

Suites, each read by every models folder with the same reader settings:
  val      the real photos' validation scenes (training.datasets, corrected labels): never trained on
  dev      ../shared/data/dev-photos: another riichi set, 8 photos (the reader was shaped on them)
  hard     tests/data/hard_cases: the staged hard cases (training.hard_cases)
  fonts    training.font_rows: 16 hand rows set in CJK fonts no training stage uses
  hands    training.font_rows --hands: 16 winning hands in those fonts (the hand proposal completes them)
  pins     training.pin_rows: hand rows of pinzu and souzu drawn in other ways
  reds     training.red_rows: hand rows with red fives drawn in those fonts and ways
  clutter  training.case_scenes: the hard cases' clutter drawn from other seeds (nothing to invent)
  cases    training.case_scenes --others: every other hard case drawn from other seeds
Per suite: tile F1, the share of photos read exactly (training.evaluate's), red fives found of
those labelled, red fives read where there is none; then each photo whose reading changed between the first folder and another, with
what each read that the labels do not say (+) and what it missed (-). A development command,
like training.evaluate: the app never imports it.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile

from training import case_scenes, font_rows, pin_rows, red_rows
from training.datasets import load_real
from training.evaluate import RED_FIVES, ours, prf, red_fives_offered, red_fives_read, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "data")
REAL = [os.path.join(SHARED, "real-photos", f) for f in
        ("alanchoi00__mahjong_detection", "alanchoi00__mahjong_detection_train")]
SUITES = ("val", "dev", "hard", "fonts", "hands", "pins", "reds", "clutter", "cases")
# the drawn suites' seeds: those of their own command lines, so the photos are those the card reports
DRAWN_SEEDS = {"fonts": 77, "pins": 78, "hands": 79, "reds": 80, "clutter": 81, "cases": 82}


def suites(tmp: str, skip: set[str]) -> dict[str, list]:
    """The labelled photos of each suite (the drawn ones rendered into `tmp` from their fixed seeds)."""
    out: dict[str, list] = {}
    if "val" not in skip:
        out["val"] = load_real(REAL, "val")
    if "dev" not in skip:
        out["dev"] = load_real([os.path.join(SHARED, "dev-photos")])
    if "hard" not in skip:
        out["hard"] = load_real([os.path.join(ROOT, "tests", "data", "hard_cases")])
    drawn = {"fonts": font_rows.build, "hands": lambda folder, seed: font_rows.build(folder, seed, hands=True),
             "pins": pin_rows.build, "reds": red_rows.build, "clutter": case_scenes.build,
             "cases": case_scenes.build_others}
    for name in SUITES:
        if name in drawn and name not in skip:
            folder = os.path.join(tmp, name)
            drawn[name](folder, DRAWN_SEEDS[name])
            out[name] = load_real([folder])
    return out


def line(results) -> dict:
    """One suite's row: tile F1, the share read exactly, red fives found of those labelled, red
    fives read where the labels have none, and of the red fives missed, those a tile flagged to
    check offers (a red five missed unflagged changes a score unseen)."""
    s = prf(results)
    labelled = sum(r.truth[c] for r in results for c in RED_FIVES)
    found = sum(min(r.truth[c], r.predicted[c]) for r in results for c in RED_FIVES)
    return {"photos": s.photos, "f1": round(s.f1, 3), "exact": round(s.exact, 2),
            "red_found": found, "red_labelled": labelled, "red_false": red_fives_read(results)[1],
            "red_offered": red_fives_offered(results)}


def diff(name: str, a, b) -> list[str]:
    """The photos `a` and `b` read differently, each with what each read beyond its labels and missed."""
    out = []
    for ra, rb in zip(a, b):
        if ra.predicted == rb.predicted:
            continue

        def said(r) -> str:
            extra, missing = r.predicted - r.truth, r.truth - r.predicted
            return " ".join(filter(None, ["+" + "".join(sorted(extra.elements())) if extra else "",
                                          "-" + "".join(sorted(missing.elements())) if missing else ""])) or "exact"
        out.append(f"  {name:<6}{ra.name:<40} {said(ra):<28} -> {said(rb)}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("models", nargs="+", metavar="DIR", help="folders with detector.onnx and classifier.onnx")
    ap.add_argument("--skip", default="", help=f"suites to leave out, comma-separated ({', '.join(SUITES)})")
    ap.add_argument("--json", help="also write the table as JSON to this file")
    args = ap.parse_args(argv)
    if len(args.models) < 2:
        ap.error("give at least two models folders to compare")
    skip = set(filter(None, args.skip.split(",")))
    unknown = skip - set(SUITES)
    if unknown:
        ap.error(f"no suite {', '.join(sorted(unknown))}: the suites are {', '.join(SUITES)}")
    with tempfile.TemporaryDirectory() as tmp:
        photos = suites(tmp, skip)
        # by position, not by folder: the same folder given twice is read twice (a check that the
        # reading is repeatable), not once and compared with itself
        results = [{name: run(ps, ours(m)) for name, ps in photos.items()} for m in args.models]
    table = [{name: line(rs) for name, rs in by_suite.items()} for by_suite in results]
    print("| suite | " + " | ".join(args.models) + " |")
    print("| --- |" + " --- |" * len(args.models))
    for name in photos:
        cells = []
        for t in (rows[name] for rows in table):
            cells.append(f"F1 {t['f1']:.3f}, exact {t['exact']:.2f} of {t['photos']}, red fives {t['red_found']} of "
                         f"{t['red_labelled']} ({t['red_false']} false"
                         + (f", {t['red_offered']} of the missed offered)" if t["red_found"] < t["red_labelled"] else ")"))
        print(f"| {name} | " + " | ".join(cells) + " |")
    for k in range(1, len(args.models)):
        changed = [text for name in photos for text in diff(name, results[0][name], results[k][name])]
        print(f"\nread differently, {args.models[0]} -> {args.models[k]}: {len(changed)} photos")
        print("\n".join(changed))
    if args.json:
        with open(args.json, "w") as f:
            json.dump([{"models": m, "suites": rows} for m, rows in zip(args.models, table)], f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
