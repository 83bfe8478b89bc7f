#!/usr/bin/env bash
# The whole test suite, from a fresh Debian 12 machine: installs the dependencies, starts a
# journald when the machine has none (containers without systemd), builds, and runs every test.
#   scripts/test.sh                        everything: deploy checks, alerts end to end, the Debian
#                                          package, Syncthing end to end, Swift suites
#   scripts/test.sh --sanitize address     the Swift suites under AddressSanitizer (or thread:
#                                          ThreadSanitizer), built apart in .build-address/.build-thread
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step is a phase: `phase NAME COMMAND…` runs it in the foreground, `start NAME COMMAND…`
# in the background with its output in $logs/NAME.log, and `finish` waits for every phase
# started so far. Every phase prints "phase NAME: N s, exit S"; a phase that fails fails the
# run, with its whole log shown (a background phase's others keep running to the end first, so
# the log shows every failure at once, not the first).
logs=$(mktemp -d /tmp/syncmon-test.XXXXXX)
background_names=()
background_pids=()
stop_background() {
    local pid
    for pid in "${background_pids[@]}"; do kill -- "-$pid" 2>/dev/null || true; done
}
trap stop_background EXIT
# Each phase's CPU time (user + system, of the processes it waited for) is printed beside its
# wall time: on two cores the phases that run side by side share the CPU, and the sum is what
# the run's length follows. What runs under a container's own systemd (the sandboxes) or as a
# daemon left to its process group is not in it, so those phases' figures are low.
TIMEFORMAT='%1U %1S'
cpu_of() { awk '{ print $1 + $2 }' "$1" 2>/dev/null || echo "?"; }
phase() {
    local name=$1 began=$SECONDS status=0
    shift
    { time "$@" 2>&3; } 3>&2 2>"$logs/$name.cpu" || status=$?
    echo "phase $name: $((SECONDS - began)) s, exit $status, cpu $(cpu_of "$logs/$name.cpu") s"
    return "$status"
}
start() {
    local name=$1
    shift
    # A process group of its own (job control on), so that a failure elsewhere stops the whole
    # phase, the programs it started included.
    set -m
    (
        began=$SECONDS status=0
        { time "$@" >"$logs/$name.log" 2>&1 </dev/null; } 2>"$logs/$name.cpu" || status=$?
        echo "phase $name: $((SECONDS - began)) s, exit $status, cpu $(cpu_of "$logs/$name.cpu") s" >"$logs/$name.time"
        exit "$status"
    ) &
    background_pids+=($!)
    set +m
    background_names+=("$name")
    echo "phase $name: started (log: $logs/$name.log)"
}
finish() {
    local index name failed=()
    for index in "${!background_pids[@]}"; do
        name=${background_names[$index]}
        wait "${background_pids[$index]}" || failed+=("$name")
        cat "$logs/$name.time"
    done
    background_names=()
    background_pids=()
    for name in "${failed[@]}"; do
        echo "=== phase $name FAILED; its log ($logs/$name.log):" >&2
        cat "$logs/$name.log" >&2
    done
    [ ${#failed[@]} -eq 0 ] || { echo "scripts/test.sh: failed: ${failed[*]}" >&2; exit 1; }
}

sanitizer=""
if [ "${1:-}" = "--sanitize" ]; then
    sanitizer=${2:-}
    case "$sanitizer" in
        address|thread) ;;
        *) echo "usage: scripts/test.sh [--sanitize address|thread]" >&2; exit 64 ;;
    esac
fi

phase install-deps scripts/install-deps.sh --test
if [ -x scripts/start-journald.sh ]; then
    phase journald scripts/start-journald.sh
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
    phase build swift build --build-tests "${flags[@]}"
    export CI=${CI:-1} SYNCMON_REQUIRE_JOURNALD=1
    # One run, as below (the real-tool wrap tests aside: they time real transfers).
    phase swift-test swift test --skip-build "${flags[@]}" --skip WrapRealToolTests
    exit 0
fi
# Style first: cheap, and a finding fails the run like a test (scripts/lint.sh --fix mends it).
phase lint scripts/lint.sh
# The fuzz smoke is not run here (docs/fuzzing.md): building its sanitized package beside the
# test build pushed the fresh-clone run past 15 minutes; every input a target ever crashed on is a
# case of the table tests below, and `scripts/fuzz.sh` runs the targets.
phase build swift build --build-tests
# The package's binary: under CI the debug build, relinked statically like the release one (a
# link, not a build). Made here, before anything runs beside it: SwiftPM builds one at a time in
# .build, and `swift test` below holds it.
phase package-link scripts/build-release.sh --configuration debug
# Everything the tests use was installed and journald started above: from here a test that finds
# a tool or journald missing fails instead of skipping (a skipped test in CI is a hole, not a pass).
export CI=${CI:-1} SYNCMON_REQUIRE_JOURNALD=1

# --- End to end, beside the Swift suites ---------------------------------------------------------
# These mostly wait on real time (Syncthing's rescans, Prometheus' scrapes, systemd's timers,
# restarts and soak windows), so they run side by side, and beside the Swift suites below. None
# shares a port (each asks the kernel for free ones, or runs in a network namespace of its own),
# a directory (mktemp), a cgroup (named after the script's pid) or a journald (the sandboxes and
# the fault run have their own). A new end-to-end script that keeps to that is one more
# `start NAME scripts/…` line here.
# Rules, units, dashboard and a real Prometheus scraping a real daemon (the debug binary).
start deploy scripts/test-deploy.sh
# The sync alerts through Prometheus and Alertmanager to a webhook, firing and resolved (~20 s).
start alerts scripts/test-alerts.sh
# Six hosts in network namespaces, two site Prometheus servers, federation and VictoriaMetrics (~1 min).
start fleet scripts/test-fleet.sh
# The package (from the binary linked above; gzip -1, where xz took a minute of CPU), lintian, then dpkg -i, the units under systemd 252
# in a sandbox, and dpkg --purge leaving nothing behind.
start package env SYNCMON_DEB_SKIP_BUILD=1 SYNCMON_DEB_COMPRESSION=gzip scripts/test-package.sh
# The Syncthing adapter against two real Syncthing instances on loopback (about 2 minutes).
start syncthing scripts/syncthing/test-syncthing.sh
# The canary on a pair of its own: deaf watcher caught, stopped peer never late, one-way rsync,
# hostile peer files (about 2.5 minutes; docs/canary.md).
start canary scripts/syncthing/test-canary.sh
# unit: sources under systemd 252 in the sandbox: unison, lsyncd, a timer's rsync, a crash loop,
# SIGKILL, a missing unit, a broken rules file (about 1 minute).
start units-e2e scripts/test-units-e2e.sh
# syncmon as a user service beside the system one: the shipped user units under a lingering
# user's manager, the port rule and clients finding the right daemon (about 30 s).
start user-session scripts/test-user-session.sh
# Notifications through a real exim4, apprise and an https webhook (about 15 s; docs/notifications.md).
start notify scripts/test-notify.sh
# The status page in headless Chromium: rows and strips against the API, CSP, no outside request,
# a hostile message inert, no JavaScript, 390 px, TLS and basic auth (about 1 minute; docs/page.md).
start page scripts/test-page.sh
# The CI soak (docs/soak.md), its three parts side by side (one after another they were the
# longest phase, 3.5 minutes): a simulated fleet's day through replay, the same through a live
# daemon restarted mid-stream, and RSS flatness under 1,000 engines (about 1.3 minutes each).
start soak-replay scripts/soak.sh --only day-replay
start soak-live scripts/soak.sh --only day-live
start soak-rss scripts/soak.sh --only rss
# The detection matrix's short form (docs/detection.md): the 21 unit, job and host faults under systemd
# 252 in a container, side by side, each caught within its T with the tool's own code where it
# gives one, no false alarm while healthy (under a minute; the Syncthing faults are proven above,
# the full form runs them all).
start detection scripts/detection-matrix.sh --short
# --- end of end to end ----------------------------------------------------------------------------
# Every Swift suite in one run, syncmon wrap with the real rclone, restic and rsync included:
# tests that block (child processes, CPU-bound renders) do it on threads of their own
# (ThreadExecutor in SyncmonTestSupport), and the client suite's connection tasks run on an
# executor of their own, so no suite starves another of Swift's cooperative pool, and the
# timings they check hold on a busy machine.
swift_test=0
phase swift-test swift test --skip-build || swift_test=$?
# The end-to-end phases: each one's time, and the log of any that failed
# (waited for even when the Swift suites failed, so that one run shows every failure).
finish
[ "$swift_test" -eq 0 ] || { echo "scripts/test.sh: failed: swift-test" >&2; exit 1; }
# Faults injected into the real daemon (docs/operations.md, "Reliability"; about 1.5 minutes;
# root: private tmpfs and journald in a mount namespace). Last and alone: it times the daemon's
# answers under 300 connections and 200,000 mutated lines (/metrics under 1 s), which a machine
# busy with everything above does not give it (seen: 1.4-1.6 s scrapes at a load of 19).
phase faults scripts/test-faults.sh
echo "phase total: $SECONDS s"
