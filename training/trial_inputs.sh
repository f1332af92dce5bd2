# Sourced by the detector trials (veil_detector.sh, overexposed_detector.sh), after `cd` to the
# repository and with OUT set: what every trial fine-tunes from and on, made once in $WORK (by
# default $OUT.work). bfd43dd's models (the shipped detector, 8fb27bca...) in $WORK/start; 1,500
# scenes drawn by today's build_data (seed 20261203) in $WORK/data; the real photos' arrays taught
# by bfd43dd's models, labels corrected, in $WORK/real. Sets ROOT, PY, SHARED, WORK, START.
ROOT=$(pwd)
PY="$ROOT/.venv/bin/python"
SHARED=$(realpath "${TENBOU_SHARED:-$ROOT/../shared}")
WORK="${WORK:-$OUT.work}"
START=bfd43dd  # the commit whose models/ the fine-tunes start from and learn the real photos from
REAL="$SHARED/data/real-photos"
export TENBOU_SHARED="$SHARED"
mkdir -p "$WORK/start" "$OUT"
for f in detector.pt detector.onnx classifier.pt classifier.onnx; do
  git show "$START:models/$f" > "$WORK/start/$f"
done
if [ ! -f "$WORK/data/cls_meta.npy" ]; then
  "$PY" -m training.build_data --scenes 1500 --seed 20261203 --out "$WORK/data" --workers 2 > "$WORK/build_data.log" 2>&1
fi
if [ ! -f "$WORK/real/cls_meta.npy" ]; then
  "$PY" -m training.real_data --teacher "$WORK/start" --label-fixes --out "$WORK/real" \
    "$REAL/alanchoi00__mahjong_detection" "$REAL/alanchoi00__mahjong_detection_train" > "$WORK/real_data.log" 2>&1
fi
