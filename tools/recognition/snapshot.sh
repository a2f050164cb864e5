#!/bin/sh
# Copy the running training state into the repo and export the shipped weights.
#   tools/recognition/snapshot.sh [RUN_DIR] [--commit]
# Commits (with --commit) only the recognition paths.
set -eu
cd "$(dirname "$0")/../.."
RUN=/work/state/quire-train
COMMIT=0
for a in "$@"; do
  case "$a" in --commit) COMMIT=1 ;; *) RUN="$a" ;; esac
done
mkdir -p tools/recognition/checkpoints
cp "$RUN/ckpt.pt" tools/recognition/checkpoints/latest.pt.tmp
mv tools/recognition/checkpoints/latest.pt.tmp tools/recognition/checkpoints/latest.pt
cp "$RUN/log.tsv" tools/recognition/train-log.tsv
OMP_NUM_THREADS=1 python3 tools/recognition/export.py
ls -l tools/recognition/checkpoints/latest.pt Resources/recognition/
if [ "$COMMIT" = 1 ]; then
  STEP=$(tail -n 1 tools/recognition/train-log.tsv | cut -f1)
  P="tools/recognition/checkpoints/latest.pt tools/recognition/train-log.tsv Resources/recognition/quire-rec.bin Resources/recognition/parity.json"
  git add $P
  for i in 1 2 3 4 5; do
    git commit -m "recognition: snapshot checkpoint at step $STEP" -- $P && break
    sleep 3
  done
fi
