#!/usr/bin/env bash
# Writes scripts/link/hot-code.order: the functions a daemon executes, common code first,
# which scripts/build-release.sh hands to the linker so that they sit together in the binary
# (the kernel then maps ~5 MiB of its code instead of ~13; docs/performance.md, ninth pass).
#
# Two release daemons run under callgrind. The first is a bare daemon taken through what every
# daemon does, one step at a time: start, a scrape, a simulated fleet's events on its socket,
# the status API, the history, the page and `syncmon status`, then SIGTERM (its state saved).
# The second adds what some daemons do: a canary, a unit: source and five notification routes.
# The list is in that order — each step's new functions by their own cost, hottest first — so
# that code every daemon runs sits first and together, and a daemon that never runs a source
# or a route does not map pages of them. Callgrind's names are the linker's (--demangle=no);
# unnamed functions (shown as addresses) are left out: scripts/link/unnamed-functions.ld
# places them.
#
# Run it after changes that add or rename much code, then rebuild; a stale list still links
# (names it lists that are gone are ignored) and only maps more.
#   scripts/hot-code-order.sh        (needs valgrind: scripts/install-deps.sh --bench)
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in valgrind curl python3; do
    command -v "$tool" >/dev/null || { echo "hot-code-order: $tool is missing (scripts/install-deps.sh --bench)" >&2; exit 2; }
done
scripts/build-release.sh --product syncmon >&2
work=$(mktemp -d /tmp/syncmon-hot-code.XXXXXX)
daemon=
cleanup() {
    if [ -n "$daemon" ]; then kill "$daemon" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
# Valgrind cannot read this toolchain's DWARF 5; the symbol table is all callgrind needs.
cp .build/release/syncmon "$work/syncmon"
strip --strip-debug "$work/syncmon"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
url=http://127.0.0.1:$port
# profile NAME DAEMON-ARGUMENTS…: starts the daemon under callgrind (its profile: $work/NAME.out,
# and NAME.out.1, .2, … for each `step`); waits until it answers.
profile() {
    local name=$1
    shift
    valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/$name.out" \
        "$work/syncmon" daemon --events-socket "$work/$name.sock" --state-dir "$work/$name.state" \
        --listen "127.0.0.1:$port" --log-target stderr --log-level warning "$@" 2>"$work/$name.log" &
    daemon=$!
    # Under callgrind the daemon starts in seconds, not milliseconds.
    for _ in $(seq 1 300); do
        curl -sf -o /dev/null "$url/healthz" && return
        kill -0 "$daemon" 2>/dev/null || { cat "$work/$name.log" >&2; exit 1; }
        sleep 0.2
    done
    echo "hot-code-order: the daemon did not answer on $url" >&2
    exit 1
}
# Ends a step: callgrind writes what the daemon ran since the last one.
step() { callgrind_control --dump "$daemon" >/dev/null; }
stop() {
    kill -TERM "$daemon"
    wait "$daemon" || true
    daemon=
}
fleet() { .build/release/syncmon simulate --engines 40 --rate 400 --duration "$2" --events-socket "$work/$1.sock" >/dev/null; }

profile bare
step
curl -sf -o /dev/null "$url/metrics"
step
fleet bare 10s
curl -sf -o /dev/null "$url/metrics"
step
for path in /api/v1/status /api/v1/history / /healthz; do
    curl -sf -o /dev/null "$url$path"
done
curl -sf -o /dev/null -H 'Accept-Encoding: gzip' "$url/metrics"
.build/release/syncmon status --url "$url" >/dev/null || true # its exit status is the verdict
step
stop

mkdir -p "$work/canary"
cat >"$work/syncmon.conf" <<EOF
[notify mail]
mail-to = root@localhost
[notify hook]
webhook = http://127.0.0.1:9/syncmon
[notify phone]
command = $PWD/deploy/notify/syncmon-apprise json://127.0.0.1:9/
[notify log]
command = /bin/true
[notify pager]
command = /bin/true
EOF
profile sources --config "$work/syncmon.conf" --subscribe 'docs=unit:syncmon-profile.service?rules=unison' \
    --canary "profile/canary=$work/canary"
fleet sources 10s
curl -sf -o /dev/null "$url/metrics"
curl -sf -o /dev/null "$url/api/v1/status"
stop

{
    echo "# The functions a daemon executes, common code first: scripts/hot-code-order.sh wrote"
    echo "# this from callgrind profiles; scripts/build-release.sh gives it to the linker."
    python3 - "$work"/bare.out.[0-9]* "$work/bare.out" "$work/sources.out" <<'EOF'
import collections, re, sys

def own_costs(path):
    """The functions of the syncmon binary with instructions counted in one callgrind profile,
    and their own (exclusive) cost. In callgrind's format "ob=(id) name" and "fn=(id) name"
    name an object and a function the first time and by id after; cost lines follow their fn=;
    the cost line after a "calls=" line is the call's inclusive cost, not the caller's own."""
    objects, functions = {}, {}
    current_object = current_function = None
    costs = collections.Counter()
    after_call = False
    for line in open(path):
        match = re.match(r"(c?)(ob|fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
        if match:
            table = objects if match.group(2) == "ob" else functions
            if match.group(4):
                table[match.group(3)] = match.group(4)
            if not match.group(1):
                if match.group(2) == "ob":
                    current_object = table[match.group(3)]
                else:
                    current_function = table[match.group(3)]
            continue
        if line.startswith("calls="):
            after_call = True
            continue
        if not line[:1] or line[0] not in "0123456789+-*":
            continue
        if after_call:
            after_call = False
            continue
        if current_object and current_object.endswith("/syncmon"):
            costs[current_function] += int(line.split()[-1])
    return costs

# The steps in the order they ran (bare.out.1, .2, … sort by their number).
paths = sorted(sys.argv[1:-2], key=lambda path: int(path.rsplit(".", 1)[1])) + sys.argv[-2:]
listed = set()
for path in paths:
    new = [(name, cost) for name, cost in own_costs(path).items() if name not in listed and not name.startswith("0x")]
    for name, _ in sorted(new, key=lambda item: (-item[1], item[0])):
        print(name)
        listed.add(name)
EOF
} >scripts/link/hot-code.order.new
mv scripts/link/hot-code.order.new scripts/link/hot-code.order
echo "hot-code-order: $(grep -vc '^#' scripts/link/hot-code.order) functions in scripts/link/hot-code.order; rebuild with scripts/build-release.sh" >&2
