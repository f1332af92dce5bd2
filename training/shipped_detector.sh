#!/usr/bin/env bash
# Train the shipped detector's recipe again: stage 2 of training/train.sh as it was at commit
# 6b5edea (2026-11-23), which made models/detector.pt (8fb27bca...), fine-tuned from stage 1 as
# committed at 3f4425d (models/detector.pt e657e526...). Today's train.sh does not rebuild that
# detector: its scenes, non-tiles and nets have changed since, and its stage 1 is trained afresh
# (models/HISTORY.md, "The shipped detector's recipe, run again").
#
#     training/shipped_detector.sh OUT        # needs the repository's history (not a shallow clone)
#     python -m training.compare models OUT   # OUT: that detector beside the shipped classifier
#
# About 20 minutes on 2 cores: 2,000 scenes drawn by 6b5edea's code, the real photos' arrays with
# 3f4425d's stage 1 as the teacher, 800 detector steps on one thread. Deterministic on one machine;
# on another CPU the weights diverge in float rounding over the steps (not the same bytes). Run
# once on the machine of 2026-12-03, it read every suite within 0.007 F1 of the shipped detector.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=$(realpath -m "${1:?usage: training/shipped_detector.sh OUT}")
ROOT=$(pwd)
PY="$ROOT/.venv/bin/python"
SHARED=$(realpath "${TENBOU_SHARED:-$ROOT/../shared}")
WORK="${WORK:-$OUT.work}"
RECIPE=6b5edea
STAGE1=3f4425d
mkdir -p "$WORK/stage1" "$OUT"
if [ ! -d "$WORK/code" ]; then
  git worktree add --detach "$WORK/code" "$RECIPE"
fi
for f in detector.pt detector.onnx classifier.pt classifier.onnx; do
  git show "$STAGE1:models/$f" > "$WORK/stage1/$f"
done
cd "$WORK/code"
export TENBOU_SHARED="$SHARED"
REAL="$SHARED/data/real-photos"
if [ ! -f "$WORK/data_ft/cls_meta.npy" ]; then
  "$PY" -m training.build_data --scenes 2000 --out "$WORK/data_ft" --workers 2 > "$WORK/build_data_ft.log" 2>&1
fi
"$PY" -m training.real_data --teacher "$WORK/stage1" --out "$WORK/real" \
  "$REAL/alanchoi00__mahjong_detection" "$REAL/alanchoi00__mahjong_detection_train" > "$WORK/real_data.log" 2>&1
mkdir -p "$WORK/stage2"
"$PY" -m training.train_detector --data "$WORK/data_ft" --real "$WORK/real" --real-share 0.5 --distractors 0.3 --photometric 0.3 \
  --init "$WORK/stage1/detector.pt" --out "$WORK/stage2/detector.pt" --steps 800 --lr 1e-3 --warmup 50 --threads 1 --seed 12 \
  > "$WORK/stage2_detector.out" 2>&1
# exported by today's code, beside the shipped classifier
cd "$ROOT"
cp models/classifier.pt "$WORK/stage2/classifier.pt"
"$PY" -m training.export --work "$WORK/stage2" --models "$OUT"
