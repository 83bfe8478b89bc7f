#!/usr/bin/env bash
# Soak runs of syncmon against the real binary (docs/soak.md):
#   - a simulated day of a fleet (healthy engines plus a hung fetch, a crash and a quota error),
#     through `syncmon replay` at checkpoints and through a live daemon restarted with SIGTERM
#     mid-stream: 0 false stalls and 0 false errors on healthy engines, every fault detected;
#   - RSS flatness: 1,000 engines at a steady event rate, /metrics scraped every second, VmRSS
#     sampled: within +-5 % after the warm-up.
#
#   scripts/soak.sh                  the CI version (about 2.5 minutes)
#   scripts/soak.sh --long           the report's version: a simulated day, 10 live minutes with 5
#                                    restarts, an hour of RSS (about 75 minutes); run it in the background
#   scripts/soak.sh --only rss --set rss.seconds=600 --json out.json
#                                    one part, one setting changed, the figures as JSON
#
# Environment: SYNCMON (the binary, default .build/debug/syncmon, built if missing), PYTHON
# (default python3), SYNCMON_KEEP=1 keeps the work directories.
set -euo pipefail
cd "$(dirname "$0")/.."

profile=ci
args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --long) profile=long ;;
        --ci) profile=ci ;;
        -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
        *) args+=("$1") ;;
    esac
    shift
done

if [ -z "${SYNCMON:-}" ] && [ ! -x .build/debug/syncmon ]; then
    swift build --product syncmon
fi
exec "${PYTHON:-python3}" scripts/reliability/soak.py --profile "$profile" "${args[@]}"
