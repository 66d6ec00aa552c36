#!/usr/bin/env bash
# The README's ladder in one timed run on a lent 16-core machine (benchmarks/ladder_device.py says how).
#
# The exact command, from the repository root (the device's $OUT receives the results):
#
#     bash benchmarks/ladder_device.sh
#
# with a run timeout of 560 s or more: 8 minutes of games, the summary, and a few seconds to start.
# Results in $OUT: <game>.jsonl (every finished game), summary.md (the README's tables), summary.json,
# errors.txt (only if a game failed). To continue an earlier run, put its files in a folder of the
# repository (say ladder-prev/) and run:  RESUME=ladder-prev MINUTES=2 bash benchmarks/ladder_device.sh
# TIERS=headline=0.3,multiplayer=0.7 gives the time to those tiers only (ladder_device.py --tiers);
# FINISH="random headline" plays those tiers' pairings nearest their target first (--finish).
#
# Needs Python >= 3.11 and cardtable's two pure-Python dependencies, typing_extensions and
# mypy_extensions (nothing else: no NumPy, no rich). If the machine lacks them, copy the two files
# into benchmarks/device-deps/ first; this script puts that folder on the path:
#     mkdir -p benchmarks/device-deps && cp "$(python -c 'import typing_extensions as t; print(t.__file__)')" \
#         "$(python -c 'import mypy_extensions as m; print(m.__file__)')" benchmarks/device-deps/
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:?set OUT to the folder for the results}"
MINUTES="${MINUTES:-8}"
WORKERS="${WORKERS:-$(nproc)}"
PY="${PYTHON:-}"
if [ -z "$PY" ]; then
    for candidate in python3.12 python3 python; do
        if "$candidate" -c 'import sys; assert sys.version_info >= (3, 11)' 2>/dev/null; then PY="$candidate"; break; fi
    done
fi
export PYTHONPATH="$PWD/src:$PWD/benchmarks/device-deps${PYTHONPATH:+:$PYTHONPATH}"
"$PY" -c 'import typing_extensions, mypy_extensions, cardtable, sys; print("python", sys.version.split()[0], "cardtable", cardtable.__file__)'
mkdir -p "$OUT"
args=(--out "$OUT" --workers "$WORKERS" --minutes "$MINUTES")
if [ -n "${RESUME:-}" ]; then args+=(--resume "$RESUME"); fi
if [ -n "${GAMES:-}" ]; then args+=(--games "$GAMES"); fi
if [ -n "${TIERS:-}" ]; then args+=(--tiers "$TIERS"); fi
for tier in ${FINISH:-}; do args+=(--finish "$tier"); done
exec "$PY" benchmarks/ladder_device.py "${args[@]}"
