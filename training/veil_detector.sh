#!/usr/bin/env bash
# Train the detector tried on 2026-12-04 and not shipped (models/HISTORY.md, "Tiles under a lamp's
# reflection"): the shipped detector (models/detector.pt 8fb27bca... at commit bfd43dd, which
# training/shipped_detector.sh trains again) fine-tuned twice with 30% of its crops under a soft
# spot of a lamp's light (training.train_detector's --veil), seeds 12 and 13, and the three
# averaged (training.soup), exported beside the shipped classifier. It reads a lamp's reflection
# better and close-ups worse.
#
#     training/veil_detector.sh OUT           # needs the repository's history (not a shallow clone)
#     python -m training.compare models OUT    # OUT: that detector beside the shipped classifier
#
# About 25 minutes on 2 cores: 1,500 scenes drawn by today's build_data (seed 20261203), the real
# photos' arrays taught by bfd43dd's models (labels corrected), two runs of 600 steps on one thread
# each, side by side. Deterministic on one machine; on another CPU the weights diverge in float
# rounding over the steps (not the same bytes).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=$(realpath -m "${1:?usage: training/veil_detector.sh OUT}")
source training/trial_inputs.sh  # $WORK/start, $WORK/data, $WORK/real
pids=()
for seed in 12 13; do
  mkdir -p "$WORK/veil$seed"
  "$PY" -m training.train_detector --data "$WORK/data" --real "$WORK/real" --real-share 0.5 --distractors 0.3 \
    --photometric 0.3 --veil 0.3 --warmup 50 --init "$WORK/start/detector.pt" --steps 600 --lr 2e-4 --threads 1 \
    --seed "$seed" --out "$WORK/veil$seed/detector.pt" > "$WORK/veil$seed.out" 2>&1 &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done  # each run's failure stops the script
mkdir -p "$WORK/soup"
"$PY" -m training.soup --out "$WORK/soup/detector.pt" "$WORK/start/detector.pt" "$WORK/veil12/detector.pt" "$WORK/veil13/detector.pt"
cp "$WORK/start/classifier.pt" "$WORK/soup/classifier.pt"
"$PY" -m training.export --work "$WORK/soup" --models "$OUT"
cp "$WORK/start/classifier.onnx" "$OUT/classifier.onnx"  # the shipped classifier's own bytes
