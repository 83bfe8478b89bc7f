#!/usr/bin/env bash
# The whole test suite, from a fresh Debian 12 machine: installs the dependencies, starts a
# journald when the machine has none (containers without systemd), builds, and runs every test.
#   scripts/test.sh                        everything: deploy checks, alerts end to end, the Debian
#                                          package, Syncthing end to end, Swift suites
#   scripts/test.sh --sanitize address     the Swift suites under AddressSanitizer (or thread:
#                                          ThreadSanitizer), built apart in .build-address/.build-thread
set -euo pipefail
cd "$(dirname "$0")/.."

sanitizer=""
if [ "${1:-}" = "--sanitize" ]; then
    sanitizer=${2:-}
    case "$sanitizer" in
        address|thread) ;;
        *) echo "usage: scripts/test.sh [--sanitize address|thread]" >&2; exit 64 ;;
    esac
fi

scripts/install-deps.sh --test
if [ -x scripts/start-journald.sh ]; then
    scripts/start-journald.sh
fi
if [ -n "$sanitizer" ]; then
    # The binaries the tests start are the sanitized ones too (they sit beside the test bundle).
    flags=(--sanitize="$sanitizer" --scratch-path ".build-$sanitizer")
    # LeakSanitizer's exit-time report is about the toolchain's own test runners (XCTest's
    # suite objects, Foundation's file reads in the test helpers): memory errors fail the run,
    # those leaks do not. SYNCMON_DETECT_LEAKS=1 brings them back. Options given in
    # ASAN_OPTIONS (log_path=…, say) are added after this one, so they keep it unless they set
    # detect_leaks themselves.
    export ASAN_OPTIONS="detect_leaks=${SYNCMON_DETECT_LEAKS:-0}${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
    # ThreadSanitizer's known false reports inside the Swift runtime (each explained in the file).
    export TSAN_OPTIONS="suppressions=$PWD/scripts/tsan-suppressions.txt${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
    swift build --build-tests "${flags[@]}"
    export CI=${CI:-1} SYNCMON_REQUIRE_JOURNALD=1
    swift test --skip-build "${flags[@]}" --skip "SyncmonClientTests|WrapRealToolTests"
    swift test --skip-build "${flags[@]}" --filter SyncmonClientTests
    exit 0
fi
# Style first: cheap, and a finding fails the run like a test (scripts/lint.sh --fix mends it).
scripts/lint.sh
swift build --build-tests
# Everything the tests use was installed and journald started above: from here a test that finds
# a tool or journald missing fails instead of skipping (a skipped test in CI is a hole, not a pass).
export CI=${CI:-1} SYNCMON_REQUIRE_JOURNALD=1
# Rules, units, dashboard and a real Prometheus scraping a real daemon (the debug binary).
scripts/test-deploy.sh
# --- The Debian package and the alerts end to end (both fail, never skip, under CI) ---------
# The sync alerts through Prometheus and Alertmanager to a webhook, firing and resolved (~20 s).
scripts/test-alerts.sh
# Six hosts in network namespaces, two site Prometheus servers, federation and VictoriaMetrics (~1 min).
scripts/test-fleet.sh
# The package: the static release build (several minutes from scratch), lintian, then dpkg -i,
# the units under systemd 252 in a sandbox, and dpkg --purge leaving nothing behind (~30 s).
scripts/test-package.sh
# ---------------------------------------------------------------------------------------------
# The Syncthing adapter against two real Syncthing instances on loopback (about 2 minutes).
scripts/syncthing/test-syncthing.sh
# The canary on the same pair: deaf watcher caught, stopped peer never late, one-way rsync,
# hostile peer files (about 2.5 minutes; docs/canary.md).
scripts/syncthing/test-canary.sh
# unit: sources under systemd 252 in the sandbox: unison, lsyncd, a timer's rsync, a crash loop,
# SIGKILL, a missing unit, a broken rules file (about 1 minute).
scripts/test-units-e2e.sh
# --- Reliability (docs/operations.md, "Reliability"; docs/soak.md) -------------------------------
# Faults injected into the real daemon (about 1.5 minutes; root: private tmpfs and journald in a
# mount namespace), then the CI soak: a simulated fleet's day through replay and through a live
# daemon restarted mid-stream, and RSS flatness under 1,000 engines (about 2.5 minutes).
scripts/test-faults.sh
scripts/soak.sh
# --- end of reliability ---------------------------------------------------------------------------
# The status page in headless Chromium: rows and strips against the API, CSP, no outside request,
# a hostile message inert, no JavaScript, 390 px, TLS and basic auth (about 1 minute; docs/page.md).
scripts/test-page.sh
# The Swift suites in two runs: everything, then the client suite on its own (issue 31 wants
# one). The client's connection task runs on Swift's cooperative pool, two threads on two cores,
# and its tests wait at most 10 s for it; in one run with every suite (real daemons started by
# the dozen, CPU-bound tests holding pool threads) it is starved past that, and only it fails.
# One cause is gone (SeriesLinesTests yields between its chunks); the daemon suites share the
# run with the rest.
swift test --skip-build --skip "SyncmonClientTests|WrapRealToolTests"
swift test --skip-build --filter SyncmonClientTests
# syncmon wrap with the real rclone, restic and rsync against servers on loopback (about 75 s):
# stalls of 3 s are measured, so they run alone.
swift test --skip-build --filter WrapRealToolTests
# --- fuzz smoke (docs/fuzzing.md) --------------------------------------------------------------
# The libFuzzer targets over the core and the adapters for 10 s each from their committed seeds
# (a separate package, Fuzz/, built with the fuzzer and AddressSanitizer); a crash fails the run
# and leaves its input in Fuzz/crashes/. The targets over SyncmonDaemon (SSE, configuration, web
# configuration, HTTP) need NIO and BoringSSL built with the sanitizers, about 25 minutes from
# scratch on two cores: they run in `scripts/fuzz.sh` without --target, and every input they
# ever crashed on is a case of the ordinary table tests above.
scripts/fuzz.sh --target FuzzEventDecoder --target FuzzLineFramer --target FuzzSyncthing --target FuzzWrap --target FuzzCanaryFile 10
# --- end fuzz smoke ----------------------------------------------------------------------------
