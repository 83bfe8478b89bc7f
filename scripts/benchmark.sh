#!/usr/bin/env bash
# The performance figures (docs/performance.md): a release build, then the benchmark table.
# Extra arguments go to syncmon-bench (events for decode+apply, lines for replay).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh --bench
scripts/build-release.sh --product syncmon
scripts/build-release.sh --product syncmon-bench
# Allocation counts: a small malloc counter, preloaded (scripts/bench/malloc-count.c).
# Any C compiler: the Swift toolchain's clang when the system has no cc.
mkdir -p .build/bench
compiler=$(command -v cc || command -v clang)
"$compiler" -O2 -shared -fPIC -o .build/bench/malloc-count.so scripts/bench/malloc-count.c
LD_PRELOAD="$PWD/.build/bench/malloc-count.so" exec .build/release/syncmon-bench "$@"
