#!/usr/bin/env bash
# Export the same 10,000 strokes with Quire and with Xournal++ (Debian package xournalpp) and
# print the wall times (each includes starting the program). Needs a release build of quire.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v xournalpp >/dev/null || apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends xournalpp >/dev/null
bin=$PWD/.build/release/quire
[ -x "$bin" ] || swift build -c release --product quire >/dev/null
work=$(mktemp -d)
trap 'kill -9 ${xpid:-0} 2>/dev/null || true; rm -rf "$work"' EXIT
"$bin" new "$work/d.iink" --part-type Drawing --fill-strokes 10000 >/dev/null
"$bin" export "$work/d.iink" --format json -o "$work/d.json"
python3 tools/bench/to_xopp.py "$work/d.json" "$work/d.xopp"
exec 3>"$work/disp"
Xvfb -displayfd 3 -screen 0 1024x768x24 -nolisten tcp -noreset 2>/dev/null & xpid=$!
exec 3>&-
for _ in $(seq 100); do [ -s "$work/disp" ] && break; sleep 0.1; done
export DISPLAY=":$(head -1 "$work/disp")" HOME="$work"
t() { local s; s=$(date +%s%N); "$@" >/dev/null 2>&1; echo "$(( ($(date +%s%N) - s) / 1000000 ))"; }
for round in 1 2; do
  echo "round $round: quire pdf $(t "$bin" export "$work/d.iink" --format pdf -o "$work/q.pdf") ms," \
       "xournalpp pdf $(t xournalpp --create-pdf="$work/x.pdf" "$work/d.xopp") ms;" \
       "quire png@50dpi $(t "$bin" export "$work/d.iink" --format png --dpi 50 -o "$work/q.png") ms," \
       "xournalpp png@50dpi $(t xournalpp --create-img="$work/x.png" --export-png-dpi=50 "$work/d.xopp") ms"
done
