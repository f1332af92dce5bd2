#!/usr/bin/env bash
# Train the detectors tried on 2026-12-05 and not shipped (models/HISTORY.md, "A detector taught
# overexposed photos"): the shipped detector (models/detector.pt 8fb27bca..., as at commit bfd43dd,
# which training/shipped_detector.sh trains again) fine-tuned with its batch norms' statistics kept
# and anchored to itself (train_detector's --freeze-bn --anchor), once with 30% of its crops
# overexposed (--overexpose 0.3) and once without, as the control; each exported beside the shipped
# classifier (models/classifier.onnx).
#
#     training/overexposed_detector.sh OUT      # needs the repository's history (not a shallow clone)
#     python -m training.compare models OUT/overexposed OUT/control
#
# About 20 minutes on 2 cores: 1,500 scenes drawn by today's build_data (seed 20261203), the real
# photos' arrays taught by bfd43dd's models (labels corrected), two runs of 600 steps on one thread
# each, side by side. Deterministic on one machine; on another CPU the weights diverge in float
# rounding over the steps (not the same bytes).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=$(realpath -m "${1:?usage: training/overexposed_detector.sh OUT}")
source training/trial_inputs.sh  # $WORK/start, $WORK/data, $WORK/real
pids=()
for run in overexposed control; do
  extra=()
  [ "$run" = overexposed ] && extra=(--overexpose 0.3)
  mkdir -p "$WORK/$run"
  "$PY" -m training.train_detector --data "$WORK/data" --real "$WORK/real" --real-share 0.5 --distractors 0.3 \
    --photometric 0.3 "${extra[@]}" --freeze-bn --anchor "$WORK/start/detector.pt" --anchor-weight 1 \
    --warmup 50 --init "$WORK/start/detector.pt" --steps 600 --lr 2e-4 --threads 1 \
    --seed 12 --out "$WORK/$run/detector.pt" > "$WORK/$run.out" 2>&1 &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done  # each run's failure stops the script
for run in overexposed control; do
  cp "$WORK/start/classifier.pt" "$WORK/$run/classifier.pt"
  "$PY" -m training.export --work "$WORK/$run" --models "$OUT/$run"
  cp models/classifier.onnx "$OUT/$run/classifier.onnx"  # the shipped classifier's own bytes
done
