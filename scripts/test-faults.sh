#!/usr/bin/env bash
# Fault injection against the real daemon (docs/operations.md, "Reliability"), each fault with its
# own daemon, directory and port:
#   kill-loop    kill -9 six times during a steady stream: each restart lost at most ~1 s of events
#   journald     journald stopped and started while the daemon logs: stderr meanwhile, nothing lost
#   state-dir    the state directory full (a tmpfs), then read-only: serving on, failures counted,
#                saved again within seconds of there being room
#   connections  300 concurrent push connections: every event counted, /metrics under 1 s
#   http         slowloris heads, clients that never read, random bytes, oversized heads: other
#                scrapes under 1 s
#   mutations    200,000 mutated event lines: rejects counted by reason (as `syncmon replay`
#                counts them), the valid engines' verdicts right, /metrics under 1 s
#
#   scripts/test-faults.sh                 every fault (about 1.5 minutes)
#   scripts/test-faults.sh http journald   some of them
#   scripts/test-faults.sh --json out.json
#
# Needs root: it runs in a private mount namespace (unshare --mount), where the tmpfs state
# directories and a private systemd-journald (own /run/systemd/journal, /run/log/journal) live;
# they vanish with the run, and the host's journald is never touched.
# Environment: SYNCMON (the binary, default .build/debug/syncmon), PYTHON (default python3),
# SYNCMON_KEEP=1 keeps the work directories.
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in -h|--help) sed -n '2,23p' "$0"; exit 0 ;; esac
[ "$(id -u)" -eq 0 ] || { echo "test-faults: needs root (tmpfs mounts, a private journald)" >&2; exit 2; }
if [ -z "${SYNCMON:-}" ] && [ ! -x .build/debug/syncmon ]; then
    swift build --product syncmon
fi
# Private mounts: nothing mounted here is seen outside, and all of it goes when the run ends.
exec unshare --mount --propagation private "${PYTHON:-python3}" scripts/reliability/faults.py "$@"
