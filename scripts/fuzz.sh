#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/ (one per parser, docs/fuzzing.md) with the fuzzer and
# AddressSanitizer, runs each for SECONDS (default 60) from its seeds, and prints per target the
# executions, exec/s, coverage (cov: edges, ft: features) and crashes. Exits 1 when any target
# crashed, trapped, broke an invariant, hung or ran out of memory; the inputs that did are left
# in Fuzz/crashes/<target>/ (replay one with `Fuzz/.build/release/<target> FILE`).
#
#   scripts/fuzz.sh [SECONDS]                    every target, SECONDS each
#   scripts/fuzz.sh --target FuzzWrap 600        one target (repeatable)
#   scripts/fuzz.sh --merge 600                  also fold inputs with new coverage into Fuzz/Corpus/<target>/
#   scripts/fuzz.sh --no-build ...               use the binaries already built
#
# The committed seeds are only read: new inputs go to Fuzz/.build/runs/<target>/corpus, which
# is kept between runs (delete it to start over) unless --fresh is given.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
merge=0
build=1
fresh=0
targets=()
chosen=0
while [ $# -gt 0 ]; do
    case "$1" in
        --merge) merge=1 ;;
        --no-build) build=0 ;;
        --fresh) fresh=1 ;;
        --target) targets+=("$2"); chosen=1; shift ;;
        [0-9]*) seconds=$1 ;;
        *) echo "usage: scripts/fuzz.sh [--merge] [--no-build] [--fresh] [--target NAME]... [SECONDS]" >&2; exit 64 ;;
    esac
    shift
done
if [ ${#targets[@]} -eq 0 ]; then
    for directory in Fuzz/Sources/Fuzz*/; do
        name=$(basename "$directory")
        [ "$name" = FuzzSupport ] || targets+=("$name")
    done
fi

if [ "$build" = 1 ]; then
    # -c release: the parsers as the daemon runs them (-O); the sanitizers apply to every module.
    # The swift driver honours only the last -sanitize= it is given, and SwiftPM passes
    # `--sanitize fuzzer --sanitize address` as two flags in an order that changes from run to
    # run: a build came out with AddressSanitizer only (no coverage: the fuzzer was blind) or
    # with the fuzzer only. So both go as one flag; `--sanitize fuzzer` stays so that SwiftPM
    # links the targets as fuzzers (libFuzzer's main, not the target's), and C code gets ASan.
    sanitize=(--sanitize fuzzer -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=address)
    if [ "$chosen" = 1 ]; then
        # Only what the chosen targets need: the targets over SyncmonCore and SyncmonAdapters
        # alone build in minutes, where SyncmonDaemon brings NIO and BoringSSL.
        for target in "${targets[@]}"; do
            swift build --package-path Fuzz -c release "${sanitize[@]}" --product "$target"
        done
    else
        swift build --package-path Fuzz -c release "${sanitize[@]}"
    fi
fi
# SwiftPM's own link to the release products (asking `--show-bin-path` would wait for the lock of
# a build running meanwhile).
bin=Fuzz/.build/release

# Swift's runtime keeps metadata caches for the life of the process; LeakSanitizer would call
# them leaks of the first input that filled them. Memory errors still stop the run.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:handle_abort=1}
# libFuzzer reports a trap with its stack and writes the input; Swift's own backtracer would
# race it for the signal (and trip AddressSanitizer reading the crashed process's memory).
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}

failed=0
summary=()
for target in "${targets[@]}"; do
    runs="Fuzz/.build/runs/$target"
    crashes="Fuzz/crashes/$target"
    [ "$fresh" = 1 ] && rm -rf "$runs"
    mkdir -p "$runs/corpus" "$crashes"
    dictionary=()
    [ -f "Fuzz/Corpus/$target.dict" ] && dictionary=("-dict=Fuzz/Corpus/$target.dict")
    log="$runs/fuzz.log"
    touch "$runs/started"
    echo "== $target: ${seconds}s (log $log)"
    status=0
    # The first directory receives new inputs; the committed seeds after it are only read.
    "$bin/$target" "${dictionary[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$crashes/" "$runs/corpus" "Fuzz/Corpus/$target" >"$log" 2>&1 || status=$?
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    coverage=$(grep -Eo 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9]+[a-zA-Z]*' "$log" | tail -1 || true)
    found=$(find "$crashes" -type f -newer "$runs/started" | wc -l)
    summary+=("$(printf '%-22s %12s %8s  %-40s %s' "$target" "${executions:-?}" "${rate:-?}" "${coverage:-?}" "$found")")
    if grep -q "no interesting inputs were found" "$log"; then
        # The parser's module was built without the coverage instrumentation: the run proved nothing.
        echo "!! $target: libFuzzer saw no coverage (is the build instrumented?)"
        status=${status/#0/1}
    fi
    if [ "$status" != 0 ] || [ "$found" != 0 ]; then
        failed=1
        echo "!! $target failed (exit $status); inputs in $crashes/:"
        grep -E 'ERROR: |Fatal error|invariant broken|SUMMARY|Test unit written' "$log" | head -8 || true
    fi
    if [ "$merge" = 1 ]; then
        "$bin/$target" "${dictionary[@]}" -merge=1 "Fuzz/Corpus/$target" "$runs/corpus" >>"$log" 2>&1
    fi
done

echo
printf '%-22s %12s %8s  %-40s %s\n' target executions exec/s "coverage" crashes
printf '%s\n' "${summary[@]}"
if [ "$failed" = 1 ]; then
    echo "fuzzing found crashes: see Fuzz/crashes/ (docs/fuzzing.md: fix the parser, add the input as a test)" >&2
    exit 1
fi
