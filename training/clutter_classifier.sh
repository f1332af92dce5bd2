#!/usr/bin/env bash
# Train the classifier tried on 2026-12-06 and not shipped (models/HISTORY.md, "Dominoes and cards
# taught as no tile"): the shipped classifier (models/classifier.pt b72440e8..., as at commit bfd43dd)
# fine-tuned for half an epoch with 6% of each batch drawn clutter (--clutter games: a domino's half
# and a number card as a box frames them, beside the earlier kinds), those taught "none" alone and
# every other crop the shipped classifier's own reading alone (--teach-clutter); exported beside the
# shipped detector (models/detector.onnx).
#
#     training/clutter_classifier.sh OUT      # needs the repository's history (not a shallow clone)
#     python -m training.compare models OUT/clutter
#
# Most of the time is drawing the inputs training/trial_inputs.sh makes once (1,500 scenes, seed
# 20261203; the real photos' arrays taught by bfd43dd's models); with them made, under a minute
# of training on one thread. Deterministic on one machine; on another CPU the weights
# diverge in float rounding over the steps (not the same bytes).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=$(realpath -m "${1:?usage: training/clutter_classifier.sh OUT}")
source training/trial_inputs.sh  # $WORK/start, $WORK/data, $WORK/real
mkdir -p "$WORK/clutter"
"$PY" -m training.train_classifier --data "$WORK/data" --real "$WORK/real" --real-repeat 1 \
  --init "$WORK/start/classifier.pt" --teacher "$WORK/start/classifier.pt" --teach-clutter --clutter games \
  --distractors 0.06 --photometric 0.3 --defocus 0.2 --epochs 0.5 --lr 5e-4 --warmup 50 --threads 1 --seed 21 \
  --out "$WORK/clutter/classifier.pt" > "$WORK/clutter.out" 2>&1
cp "$WORK/start/detector.pt" "$WORK/clutter/detector.pt"
"$PY" -m training.export --work "$WORK/clutter" --models "$OUT/clutter"
cp models/detector.onnx "$OUT/clutter/detector.onnx"  # the shipped detector's own bytes
