#!/usr/bin/env bash
# The performance figures (docs/performance.md): a release build, then the benchmark table.
# Extra arguments go to syncmon-bench (events for decode+apply, lines for replay).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
swift build -c release --static-swift-stdlib --product syncmon
swift build -c release --static-swift-stdlib --product syncmon-bench
exec .build/release/syncmon-bench "$@"
