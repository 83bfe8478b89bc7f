#!/usr/bin/env bash
# The release build of syncmon, the one way it is made (scripts/run.sh, scripts/package-deb.sh,
# scripts/benchmark.sh): optimized, the Swift runtime linked in statically (the binary runs on a
# host without a Swift toolchain), and linked with lld so that
#   - the ~58,000 relative relocations of a PIE are packed (DT_RELR, glibc 2.36+), and
#   - the dynamic symbol table holds only what is imported (--no-export-dynamic),
# which saves the loader reading and dirtying about 3 MB at every start (idle RSS, start time:
# docs/performance.md). They are switched on for this build only (SYNCMON_RELEASE_LINK=1, read
# by Package.swift): always on, as unsafeFlags, they would stop the package being used as a
# dependency and force lld on every debug build.
#   scripts/build-release.sh [--product syncmon|syncmon-bench]   (default: syncmon)
set -euo pipefail
cd "$(dirname "$0")/.."
product=syncmon
if [ "${1:-}" = "--product" ]; then product=${2:?}; fi
# The linker settings themselves are in Package.swift, switched on by SYNCMON_RELEASE_LINK.
SYNCMON_RELEASE_LINK=1 exec swift build -c release --static-swift-stdlib --product "$product"
