#!/usr/bin/env bash
# Soak runs of syncmon against the real binary (docs/soak.md):
#   - a simulated day of a fleet (healthy engines plus a hung fetch, a crash and a quota error),
#     through `syncmon replay` at checkpoints and through a live daemon restarted with SIGTERM
#     mid-stream: 0 false stalls and 0 false errors on healthy engines, every fault detected;
#   - RSS flatness: 1,000 engines at a steady event rate, /metrics (gzip) scraped every second,
#     VmRSS sampled every second: after the warm-up, the median of every window (a minute; CI:
#     10 s) within +-5 % of the first window's.
#
#   scripts/soak.sh                  the CI version (about 2.5 minutes)
#   scripts/soak.sh --long           the report's version: a simulated day, 10 live minutes with 5
#                                    restarts, an hour of RSS (about 75 minutes); run it in the background
#   scripts/soak.sh --only rss --set rss.seconds=600 --json out.json
#                                    one part, one setting changed, the figures as JSON
#   scripts/soak.sh --release ...    the release binary as shipped (.build/release/syncmon,
#                                    brought up to date by scripts/build-release.sh first); the
#                                    default is the debug build CI makes
#   --set rss.record=rss.csv         every RSS sample (1 s) to a CSV file
#
# Environment: SYNCMON (the binary; overrides --release; default .build/debug/syncmon, built if
# missing), PYTHON (default python3), SYNCMON_KEEP=1 keeps the work directories.
set -euo pipefail
cd "$(dirname "$0")/.."

profile=ci
release=0
args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --long) profile=long ;;
        --ci) profile=ci ;;
        --release) release=1 ;;
        -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
        *) args+=("$1") ;;
    esac
    shift
done

if [ -z "${SYNCMON:-}" ] && [ "$release" = 1 ]; then
    scripts/build-release.sh >&2
    export SYNCMON="$PWD/.build/release/syncmon"
elif [ -z "${SYNCMON:-}" ] && [ ! -x .build/debug/syncmon ]; then
    swift build --product syncmon
fi
exec "${PYTHON:-python3}" scripts/reliability/soak.py --profile "$profile" "${args[@]}"
