#!/usr/bin/env bash
# Build the synthetic data, train both networks (in parallel, one thread each) and export them.
# Deterministic: the same script on the same machine gives the same models.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
WORK=training/work
mkdir -p "$WORK"
SCENES="${SCENES:-7000}"

if [ ! -f "$WORK/data/cls_meta.npy" ]; then
  $PY -m training.build_data --scenes "$SCENES" --out "$WORK/data" --workers 2 > "$WORK/build_data.log" 2>&1
fi
rm -f "$WORK/detector.pt.log" "$WORK/classifier.pt.log"
$PY -m training.train_detector --data "$WORK/data" --out "$WORK/detector.pt" --threads 1 > "$WORK/train_detector.out" 2>&1 &
det=$!
$PY -m training.train_classifier --data "$WORK/data" --out "$WORK/classifier.pt" --threads 1 > "$WORK/train_classifier.out" 2>&1 &
cls=$!
wait "$det"
wait "$cls"
$PY -m training.export --work "$WORK" --models models
