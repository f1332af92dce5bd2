#!/usr/bin/env bash
# Build the data, train both networks and export them. Two stages:
#  1. synthetic only: render scenes, train the detector and the classifier from scratch (in
#     parallel, one thread each), export them to $WORK/stage1 (the "teacher");
#  2. real photos: build arrays from the train scenes of ../shared/data/real-photos (and any
#     folders in EXTRA_REAL, e.g. exported player corrections: `python -m training.corrections
#     export DIR`), the teacher marking unlabelled tiles as "ignore"; fine-tune both networks on
#     real and synthetic data together, with drawn non-tiles (dice, sticks, paper...) as negatives.
# The validation scenes of the real photos (training.datasets) are never trained on.
# Deterministic: the same script on the same machine gives the same models.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
WORK="${WORK:-training/work}"
MODELS="${MODELS:-models}"
mkdir -p "$WORK"
SCENES="${SCENES:-7000}"
FT_SCENES="${FT_SCENES:-2000}"
REAL_DIR="${REAL_DIR:-../shared/data/real-photos}"
REAL_FOLDERS=("$REAL_DIR/alanchoi00__mahjong_detection" "$REAL_DIR/alanchoi00__mahjong_detection_train")
# shellcheck disable=SC2206
EXTRA=(${EXTRA_REAL:-})

# -- stage 1: synthetic ---------------------------------------------------------------------------
if [ ! -f "$WORK/stage1/classifier.onnx" ]; then
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
  # one more epoch at a lower rate where a share of tiles lose their red (sets differ in which
  # parts are red; red fives keep theirs)
  $PY -m training.train_classifier --data "$WORK/data" --init "$WORK/classifier_base.pt" --out "$WORK/classifier.pt" \
    --threads 2 --epochs 1 --lr 0.001 --warmup 50 --unredden 0.35 --seed 8 > "$WORK/finetune_classifier.out" 2>&1
  $PY -m training.export --work "$WORK" --models "$WORK/stage1"
fi

# -- stage 2: real photos -------------------------------------------------------------------------
if [ ! -f "$WORK/data_ft/cls_meta.npy" ]; then  # the first FT_SCENES scenes of the same generator
  $PY -m training.build_data --scenes "$FT_SCENES" --out "$WORK/data_ft" --workers 2 > "$WORK/build_data_ft.log" 2>&1
fi
$PY -m training.real_data --teacher "$WORK/stage1" --out "$WORK/real" "${REAL_FOLDERS[@]}" "${EXTRA[@]}" > "$WORK/real_data.log" 2>&1
mkdir -p "$WORK/stage2"
$PY -m training.train_detector --data "$WORK/data_ft" --real "$WORK/real" --real-share 0.5 --distractors 0.3 --photometric 0.3 \
  --init "$WORK/stage1/detector.pt" --out "$WORK/stage2/detector.pt" --steps 800 --lr 1e-3 --warmup 50 --threads 1 --seed 12 \
  > "$WORK/stage2_detector.out" 2>&1 &
det=$!
$PY -m training.train_classifier --data "$WORK/data_ft" --real "$WORK/real" --real-repeat 2 --distractors 0.06 --photometric 0.3 \
  --init "$WORK/stage1/classifier.pt" --out "$WORK/stage2/classifier.pt" --epochs 1 --lr 1e-3 --warmup 50 \
  --unredden 0.2 --threads 1 --seed 9 > "$WORK/stage2_classifier.out" 2>&1 &
cls=$!
wait "$det"
wait "$cls"
$PY -m training.export --work "$WORK/stage2" --models "$MODELS"
