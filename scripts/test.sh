#!/usr/bin/env bash
# The whole test suite, from a fresh Debian 12 machine: installs the dependencies, starts a
# journald when the machine has none (containers without systemd), builds, and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh --test
if [ -x scripts/start-journald.sh ]; then
    scripts/start-journald.sh
fi
swift build --build-tests
# Everything the tests use was installed and journald started above: from here a test that finds
# a tool or journald missing fails instead of skipping (a skipped test in CI is a hole, not a pass).
export CI=${CI:-1} SYNCMON_REQUIRE_JOURNALD=1
# Rules, units, dashboard and a real Prometheus scraping a real daemon (the debug binary).
scripts/test-deploy.sh
# Three runs rather than one: the daemon and client suites start real daemons and wait on
# them, and on a 2-core machine sharing one process (and its 2 concurrency threads) with the
# rest made their timing assertions flaky.
swift test --skip-build --skip "SyncmonDaemonTests|SyncmonClientTests|WrapRealToolTests"
swift test --skip-build --filter SyncmonDaemonTests
swift test --skip-build --filter SyncmonClientTests
# syncmon wrap with the real rclone, restic and rsync against servers on loopback (about 75 s):
# stalls of 3 s are measured, so they run alone.
swift test --skip-build --filter WrapRealToolTests
