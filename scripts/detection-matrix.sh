#!/usr/bin/env bash
# The detection matrix (docs/detection.md): real faults on real engines, each measured side by
# side in one run — syncmon's verdict and the time to it, what the engine itself said, Debian's
# node_exporter with its systemd collector, and a healthchecks-style dead man's switch computed
# from the run — then the same setups left healthy, each column's false alarms counted.
#   scripts/detection-matrix.sh --short    about a minute, in the test command: the unit and job
#                                          and host faults (21), healthy for 10 s; checks syncmon's
#                                          column (every fault seen within its T + 5 s, no false
#                                          alarm) and writes artifacts/detection/detection.md. The
#                                          Syncthing faults are left to the full form here: the test
#                                          command proves them on their own (test-syncthing.sh,
#                                          test-canary.sh)
#   scripts/detection-matrix.sh --full     every setup, healthy for 30 minutes; writes docs/detection.md
# Needs root (the systemd sandbox of scripts/test-unit-sandbox.sh) and the tools of
# scripts/install-deps.sh --test. Exit 1 when syncmon misses a fault, is late, or raises a false alarm.
set -euo pipefail
cd "$(dirname "$0")/.."
form=${1:---short}
case "$form" in
    --short) healthy=10; setups=(units); days=1; engines=20; out=artifacts/detection/detection.md ;;
    --full) healthy=1800; setups=(units syncthing); days=30; engines=200; out=docs/detection.md ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "usage: scripts/detection-matrix.sh [--short|--full]" >&2; exit 64 ;;
esac
work=$(mktemp -d /tmp/syncmon-detection.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$(dirname "$out")"
binary=${SYNCMON_BINARY:-.build/debug/syncmon}
version() { "$@" 2>&1 | head -1 | tr -d '\r' || true; }
python3 - "$form" "$work/versions.json" scripts/detection/notes.md <<PY
import json, sys
tools = {
    "syncmon": """$(version "$binary" --version)""",
    "systemd": """$(version systemctl --version)""",
    "node_exporter": """$(version prometheus-node-exporter --version)""",
    "rsync": """$(version rsync --version)""",
    "rclone": """$(version rclone version)""",
    "unison": """$(version unison -version)""",
    "syncthing": """$(version syncthing --version)""",
}
json.dump({"form": sys.argv[1], "date": """$(date -u '+%Y-%m-%d %H:%M UTC')""", "tools": tools,
           "notes": open(sys.argv[3]).read()}, open(sys.argv[2], "w"))
PY
# The setups are independent (a container of their own; Syncthing on loopback ports from the
# kernel): side by side, each with its own rows and log.
pids=()
for setup in "${setups[@]}"; do
    SYNCMON_BINARY=$binary "scripts/detection/$setup.sh" "$work/$setup.jsonl" "$healthy" >"$work/$setup.log" 2>&1 &
    pids+=($!)
done
failed=""
# The simulated fleet's healthy run beside the setups (it is CPU work; they mostly wait): DAYS of
# ENGINES healthy engines through replay, every event looked at (scripts/detection/month.py).
python3 scripts/detection/month.py "$binary" "$days" "$engines" >"$work/simulated.jsonl" 2>"$work/simulated.log" || failed=" simulated"
for index in "${!setups[@]}"; do
    wait "${pids[$index]}" || failed="$failed ${setups[$index]}"
done
for setup in "${setups[@]}"; do grep -h "^detection/" "$work/$setup.log" || true; done
if [ -n "$failed" ]; then
    for setup in $failed; do echo "=== detection/$setup failed; its log:" >&2; cat "$work/$setup.log" >&2; done
    exit 1
fi
for setup in "${setups[@]}" simulated; do cat "$work/$setup.jsonl"; done >"$work/rows.jsonl"
python3 scripts/detection/render.py "$work/rows.jsonl" "$out" "$work/versions.json"
echo "detection-matrix: $(grep -c '"fault"' "$work/rows.jsonl") faults in $out"
