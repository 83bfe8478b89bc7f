#!/usr/bin/env bash
# The canary end to end (docs/canary.md): two real Syncthing instances A and B on 127.0.0.1
# sharing folder "shared" (pair.sh), one `syncmon daemon` following both as engines `a` and `b`,
# each pair with a canary in its own copy of the folder (interval 2 s, late-after 20 s), and:
#   1. healthy                 round trips measured both ways; no canary_late at any look
#   2. B's watcher made deaf   fsWatcherEnabled false, rescanIntervalS 86400 through Syncthing's
#                              REST config: both pairs canary_late within late-after + an interval
#                              (+3 s), Syncthing says idle, the Nagios line names it (exit 2)
#   3. a rescan on B           both on time again
#   4. B's Syncthing stopped   past late-after: b engine_down, a no_network, never late; not late
#                              within late-after of its return; then in sync (`status --wait`)
#   5. a one-way sync          rsync in a loop src → dst, canaries `mode = send` / `mode = receive`:
#                              dst succeeded while files cross (a pair watched by its canary
#                              alone), canary_late once the loop stops
#   6. hostile peer files      too large, not JSON, v 2, a bad name, a directory, 2,000 stale peers,
#                              a symbolic link to a valid canary: counted, the link never followed
#   scripts/syncthing/test-canary.sh [SYNCMON_BINARY]
# Needs syncthing, rsync, jq and curl (scripts/install-deps.sh --test). Prints "N passed, M
# failed"; exits non-zero on any failure. About 2.5 minutes (HEALTHY_S, default 30, sets part 1).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
binary=$(readlink -f "${1:-${SYNCMON_BINARY:-$root/.build/debug/syncmon}}")
[ -x "$binary" ] || { echo "test-canary: no binary at $binary" >&2; exit 1; }
for tool in syncthing rsync jq curl; do
    command -v "$tool" >/dev/null || { echo "test-canary: $tool is missing (scripts/install-deps.sh --test)" >&2; exit 1; }
done
HEALTHY_S=${HEALTHY_S:-30}
LATE_AFTER=20 INTERVAL=2

work=$(mktemp -d /tmp/syncmon-canary-test.XXXXXX)
export LAB="$work/lab" RECONNECT_S=5 FSW_DELAY_S=1
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
export A_GUI_PORT=$(free_port) B_GUI_PORT=$(free_port) A_SYNC_PORT=$(free_port) B_SYNC_PORT=$(free_port)
export A_APIKEY="st-a-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
export B_APIKEY="st-b-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
# shellcheck source=pair.sh
source "$here/pair.sh"

daemon_pid="" rsync_pid=""
cleanup() {
    [ -n "$rsync_pid" ] && kill "$rsync_pid" 2>/dev/null && wait "$rsync_pid" 2>/dev/null
    [ -n "$daemon_pid" ] && kill "$daemon_pid" 2>/dev/null && wait "$daemon_pid" 2>/dev/null
    st_kill >/dev/null 2>&1
    rm -rf "$work"
}
trap cleanup EXIT

pass=0 fail=0 t0=$(date +%s.%N)
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}'; }
log() { echo "[$(awk -v a="$t0" -v b="$(now)" 'BEGIN{printf "%6.1f", b-a}')s] $*"; }
ok() { pass=$((pass + 1)); log "ok   - $*"; }
bad() { fail=$((fail + 1)); log "FAIL - $*"; dump; }
# until_ok SECONDS CMD…: polls CMD five times a second until it succeeds or the deadline passes.
until_ok() { local deadline i; deadline=$(awk -v a="$(now)" -v s="$1" 'BEGIN{printf "%.3f", a+s}'); shift
    while awk -v d="$deadline" -v n="$(now)" 'BEGIN{exit !(n < d)}'; do "$@" && return 0; sleep 0.2; done; return 1; }
# never SECONDS CMD…: CMD must fail at every look for SECONDS (a look every 0.5 s).
never() { local deadline; deadline=$(awk -v a="$(now)" -v s="$1" 'BEGIN{printf "%.3f", a+s}'); shift
    while awk -v d="$deadline" -v n="$(now)" 'BEGIN{exit !(n < d)}'; do "$@" && return 1; sleep 0.5; done; return 0; }
check() { local what=$1 timeout=$2; shift 2; if until_ok "$timeout" "$@"; then ok "$what"; else bad "$what"; fi; }
dump() {
    curl -s "http://127.0.0.1:$port/api/v1/status" | jq -c '.engines[] | {engine, database, summary, stalled, network, up, canary}' >&2
    grep -i canary "$work/daemon.log" | tail -5 >&2
}
status_json() { curl -s --max-time 5 "http://127.0.0.1:$port/api/v1/status"; }
# row ENGINE DATABASE JQ: that pair's row satisfies JQ.
row() { local json; json=$(status_json) || return 1
    [ -n "$json" ] && printf '%s' "$json" | jq -e --arg e "$1" --arg d "$2" ".engines[] | select(.engine == \$e and .database == \$d) | $3" >/dev/null 2>&1; }
late() { row "$1" "$2" '.stalled | index("canary_late") != null'; }
any_late() { late a shared || late b shared; }
round_trip() { row "$1" shared ".canary.peers[] | select(.host == \"$2\") | .roundTripSeconds != null and .roundTripSeconds < $LATE_AFTER"; }
metric() { curl -s "http://127.0.0.1:$port/metrics" | awk -v s="$1" 'index($0, s) == 1 { print $2; found = 1 } END { if (!found) print 0 }'; }

log "--- the pair, the one-way folders and syncmon"
if st_init >/dev/null 2>&1 && st_start A B >/dev/null 2>&1 && st_wait_connected >/dev/null 2>&1; then ok "two Syncthing instances up and connected"; else bad "pair up"; exit 1; fi
A=$(_dir A) B=$(_dir B)
mkdir -p "$work/src" "$work/dst" "$work/hostile/.syncmon" "$work/state"
printf '%s\n' "$A_APIKEY" >"$work/a.key"
printf '%s\n' "$B_APIKEY" >"$work/b.key"
chmod 600 "$work/a.key" "$work/b.key"
cat >"$work/syncmon.conf" <<EOF
subscribe = a=syncthing+http://127.0.0.1:$A_GUI_PORT
subscribe = b=syncthing+http://127.0.0.1:$B_GUI_PORT

[source a]
api-key-file = $work/a.key
[source b]
api-key-file = $work/b.key

[canary a/shared]
path = $A
host = host-a
interval = ${INTERVAL}s
late-after = ${LATE_AFTER}s

[canary b/shared]
path = $B
host = host-b
interval = ${INTERVAL}s
late-after = ${LATE_AFTER}s

[canary mirror/src]
path = $work/src
host = src
mode = send
interval = ${INTERVAL}s

[canary mirror/dst]
path = $work/dst
host = dst
mode = receive
interval = ${INTERVAL}s
late-after = ${LATE_AFTER}s

[canary lab/hostile]
path = $work/hostile
host = judge
mode = receive
late-after = 0
interval = ${INTERVAL}s
EOF
port=$(free_port)
"$binary" daemon --config "$work/syncmon.conf" --listen "127.0.0.1:$port" --events-socket "$work/events.sock" \
    --state-dir "$work/state" --log-target stderr >"$work/daemon.log" 2>&1 &
daemon_pid=$!
# The one-way sync: rsync src → dst every second, the way a cron mirror would.
( while sleep 1; do rsync -a "$work/src/" "$work/dst/"; done ) &
rsync_pid=$!

check "canary files written in both folders" 10 eval 'test -f "$A/.syncmon/canary-host-a.json" && test -f "$B/.syncmon/canary-host-b.json"'
check "seq persisted in the state directory" 5 eval 'ls "$work/state" | grep -q "^canary-a%2Fshared.seq$"'

log "--- 1. healthy"
check "round trips measured both ways, under late-after" 30 eval 'round_trip a host-b && round_trip b host-a'
log "    round trips: a→b→a $(status_json | jq -r '.engines[] | select(.engine=="a") | .canary.peers[0].roundTripSeconds') s, b→a→b $(status_json | jq -r '.engines[] | select(.engine=="b") | .canary.peers[0].roundTripSeconds') s"
check "a pair watched by its canary alone (mirror/dst) reads succeeded while files cross" 15 row mirror dst '.summary == "succeeded" and .canary.peers[0].host == "src"'
if never "$HEALTHY_S" any_late; then ok "no canary_late at any look over $HEALTHY_S s of health"; else bad "canary_late while healthy"; fi
ok_summary='.summary == "succeeded" or .summary == "in_progress"'
# Looked at until both are so (10 s): a peer's pull of a canary file rewritten meanwhile fails
# with "no such file" now and then, a transient failure that shows as retrying for a moment.
check "a/shared and b/shared healthy (succeeded or in_progress)" 10 eval 'row a shared "$ok_summary" && row b shared "$ok_summary"' 
[ "$(metric 'syncmon_canary_peers{engine="a",database="shared"}')" = 1 ] && ok "syncmon_canary_peers 1" || bad "syncmon_canary_peers"
curl -s "http://127.0.0.1:$port/metrics" | grep -q '^syncmon_canary_round_trip_seconds{engine="a",database="shared",peer="host-b"}' \
    && ok "syncmon_canary_round_trip_seconds{peer=\"host-b\"} exposed" || bad "round-trip metric missing"
if command -v promtool >/dev/null; then
    curl -s "http://127.0.0.1:$port/metrics" | promtool check metrics && ok "promtool check metrics: clean" || bad "promtool check metrics"
fi

log "--- 2. B's watcher made deaf (fsWatcherEnabled false, rescanIntervalS 86400); the one-way loop stops"
kill "$rsync_pid" 2>/dev/null; wait "$rsync_pid" 2>/dev/null; rsync_pid=""
deaf=$(now)
st_api B PATCH "/rest/config/folders/shared" '{"fsWatcherEnabled":false,"rescanIntervalS":86400}' >/dev/null
budget=$((LATE_AFTER + INTERVAL + 3))
check "both pairs canary_late within late-after + an interval (${budget} s)" "$budget" eval 'late a shared && late b shared'
log "    both late after $(since "$deaf") s"
check "mirror/dst canary_late once the one-way loop stopped" 5 late mirror dst
st_api B GET "/rest/db/status?folder=shared" | _jqtest '.state == "idle" and .needTotalItems == 0' \
    && ok "while Syncthing on B says idle, nothing needed" || bad "B not idle"
nagios=$("$binary" status --url "http://127.0.0.1:$port" --format nagios); code=$?
log "    $nagios"
[ "$code" = 2 ] && ok "the Nagios check exits 2" || bad "the Nagios check exited $code"
[[ "$nagios" == *"a/shared stalled (canary_late: host-b)"* && "$nagios" == *"b/shared stalled (canary_late: host-a)"* ]] \
    && ok "the Nagios line names canary_late and the late peer" || bad "the Nagios line: $nagios"
"$binary" status --url "http://127.0.0.1:$port" --engine a | grep -q "canary_late: host-b" && ok "the table names the late peer" || bad "the table"
grep -qF 'canary peer late (host-b' "$work/daemon.log" && ok "a log entry says the canary went late" || bad "no late log entry"

log "--- 3. a rescan on B"
st_api B POST "/rest/db/scan?folder=shared" >/dev/null
check "both on time again after the rescan" 10 eval '! late a shared && ! late b shared'
grep -qF 'canary peer on time again (host-b' "$work/daemon.log" && ok "a log entry says it recovered" || bad "no recovery log entry"
st_api B PATCH "/rest/config/folders/shared" '{"fsWatcherEnabled":true,"rescanIntervalS":3600}' >/dev/null

log "--- 4. B's Syncthing stopped past late-after"
st_stop B >/dev/null 2>&1
check "b engine_down, a no_network" 10 eval 'row b shared ".summary == \"engine_down\"" && row a shared ".summary == \"no_network\""'
if never $((LATE_AFTER + 5)) any_late; then ok "never canary_late while B is down ($((LATE_AFTER + 5)) s)"; else bad "canary_late while B was down"; fi
st_start B >/dev/null 2>&1
back=$(now)
if never "$LATE_AFTER" any_late; then ok "not late within late-after of B's return"; else bad "late within late-after of B's return ($(since "$back") s)"; fi
if "$binary" status --help 2>&1 | grep -q -- '--wait'; then
    "$binary" status --url "http://127.0.0.1:$port" --engine a --wait --timeout 30s >/dev/null && "$binary" status --url "http://127.0.0.1:$port" --engine b --wait --timeout 30s >/dev/null \
        && ok "status --wait exits 0 in sync" || bad "status --wait"
else
    # What status --wait waits for (a build without it: the present branch adds it). With a
    # canary every 2 s Syncthing is seldom idle on both sides at once: each pair on its own.
    check "a/shared in sync (succeeded, nothing late; this build has no status --wait)" 30 row a shared '.summary == "succeeded" and (.stalled | length) == 0'
    check "b/shared in sync (succeeded, nothing late)" 30 row b shared '.summary == "succeeded" and (.stalled | length) == 0'
fi

log "--- 6. hostile peer files"
H="$work/hostile/.syncmon"
head -c 70000 /dev/zero | tr '\0' ' ' >"$H/canary-big.json"
echo 'not json' >"$H/canary-junk.json"
echo '{"v":2,"host":"v2","seq":1,"written":"2026-11-26T12:00:00Z","seen":{}}' >"$H/canary-v2.json"
echo '{"v":1,"host":"other","seq":1,"written":"2026-11-26T12:00:00Z","seen":{}}' >"$H/canary-mismatch.json"
mkdir "$H/canary-dir.json"
echo '{"v":1,"host":"link","seq":1,"written":"2026-11-26T12:00:00Z","seen":{}}' >"$work/outside.json"
ln -s "$work/outside.json" "$H/canary-link.json"
for i in $(seq 1 2000); do echo "{\"v\":1,\"host\":\"stale$i\",\"seq\":1,\"written\":\"2026-11-26T12:00:00Z\",\"seen\":{}}" >"$H/canary-stale$i.json"; done
check "malformed files counted (big, junk, v2, mismatch, dir, link)" 10 eval '[ "$(metric "syncmon_canary_errors_total{engine=\"lab\",database=\"hostile\",reason=\"malformed\"}")" -ge 6 ]'
check "peers beyond 32 counted peer_limit, 32 followed" 10 eval '[ "$(metric "syncmon_canary_errors_total{engine=\"lab\",database=\"hostile\",reason=\"peer_limit\"}")" -ge 1968 ] && [ "$(metric "syncmon_canary_peers{engine=\"lab\",database=\"hostile\"}")" = 32 ]'
row lab hostile '[.canary.peers[].host] | index("link") == null' && ok "the symbolic link was never followed" || bad "the link was followed"
kill -0 "$daemon_pid" 2>/dev/null && row a shared '.canary != null' && ok "the daemon and the other canaries go on" || bad "the daemon"

log "total $(since "$t0") s"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
