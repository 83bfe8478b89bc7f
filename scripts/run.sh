#!/usr/bin/env bash
# Builds syncmon (release) on a fresh Debian 12 machine and runs the daemon in the foreground.
# Extra arguments go to `syncmon daemon` (see `syncmon daemon --help`).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
scripts/build-release.sh
exec .build/release/syncmon daemon "$@"
