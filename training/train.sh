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
rm -f "$WORK/detector.pt.log" "$WORK/classifier_base.pt.log" "$WORK/classifier.pt.log"
$PY -m training.train_detector --data "$WORK/data" --out "$WORK/detector.pt" --threads 1 > "$WORK/train_detector.out" 2>&1 &
det=$!
$PY -m training.train_classifier --data "$WORK/data" --out "$WORK/classifier_base.pt" --threads 1 --epochs 6 > "$WORK/train_classifier.out" 2>&1 &
cls=$!
wait "$det"
wait "$cls"
# phase 2: one more epoch at a lower rate where a share of tiles lose their red (sets differ in
# which parts are red; red fives keep theirs)
$PY -m training.train_classifier --data "$WORK/data" --init "$WORK/classifier_base.pt" --out "$WORK/classifier.pt" \
  --threads 2 --epochs 1 --lr 0.001 --warmup 50 --unredden 0.35 --seed 8 > "$WORK/finetune_classifier.out" 2>&1
$PY -m training.export --work "$WORK" --models models
