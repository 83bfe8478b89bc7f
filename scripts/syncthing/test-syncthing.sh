#!/usr/bin/env bash
# The Syncthing adapter end to end (docs/syncthing.md): two real Syncthing instances A and B on
# 127.0.0.1 sharing folder "shared" (pair.sh), one `syncmon daemon` following both as engines
# `a` and `b`, and the five scenarios with the verdicts syncmon must give, read from
# GET /api/v1/status:
#   1. healthy, files added on either side   a/shared and b/shared succeeded, no stall, exit 0;
#                                            syncmon_source_up 1 from the first answer
#   2. B's Syncthing stopped for 20 s        b engine_down; a/shared no_network; both succeeded
#                                            again within 30 s of B's return
#   3. A pauses device B                     a/shared stopped; succeeded again after resume
#   4. B's .stfolder removed                 b/shared error (folderError) within 30 s;
#                                            succeeded within 30 s of the fix and a rescan
#   5. B cannot write a file it must pull    b/shared error (pullFailed), still error across
#                                            Syncthing's retries; succeeded once it can
#   6. syncmon restarted while B is stopped  b/shared engine_down within 3 s (not after the
#                                            restart's grace); source b in the status with its
#                                            error, exit 2; both succeeded within 10 s of B's return
# Also: the API keys appear nowhere in the daemon's log or command line.
#   scripts/syncthing/test-syncthing.sh [SYNCMON_BINARY]
# Needs syncthing, jq and curl (scripts/install-deps.sh --test installs them). Prints
# "N passed, M failed"; exits non-zero on any failure. About 2 minutes.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
binary=$(readlink -f "${1:-${SYNCMON_BINARY:-$root/.build/debug/syncmon}}")
[ -x "$binary" ] || { echo "test-syncthing: no binary at $binary" >&2; exit 1; }
for tool in syncthing jq curl; do
    command -v "$tool" >/dev/null || { echo "test-syncthing: $tool is missing (scripts/install-deps.sh --test)" >&2; exit 1; }
done

work=$(mktemp -d /tmp/syncmon-syncthing-test.XXXXXX)
export LAB="$work/lab" RECONNECT_S=5 PULLER_PAUSE_S=5
# Ports of our own, away from a Syncthing the host may run.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
export A_GUI_PORT=$(free_port) B_GUI_PORT=$(free_port) A_SYNC_PORT=$(free_port) B_SYNC_PORT=$(free_port)
# Keys of this run only: the test looks for them in the log and the command line.
export A_APIKEY="st-a-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
export B_APIKEY="st-b-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
# shellcheck source=pair.sh
source "$here/pair.sh"

daemon_pid=""
cleanup() {
    [ -n "$daemon_pid" ] && kill "$daemon_pid" 2>/dev/null && wait "$daemon_pid" 2>/dev/null
    st_kill >/dev/null 2>&1
    rm -rf "$work"
}
trap cleanup EXIT

pass=0 fail=0 t0=$(date +%s.%N)
log() { echo "[$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%6.1f", b-a}')s] $*"; }
ok() { pass=$((pass + 1)); log "ok   - $*"; }
bad() { fail=$((fail + 1)); log "FAIL - $*"; }
until_ok() { local timeout=$1 i; shift; for ((i = 0; i < timeout * 5; i++)); do "$@" && return 0; sleep 0.2; done; return 1; }
check() { local what=$1 timeout=$2; shift 2; if until_ok "$timeout" "$@"; then ok "$what"; else bad "$what"; dump; fi; }
# The daemon's status and the last of its log, when a check fails.
dump() { curl -s "http://127.0.0.1:$port/api/v1/status" | jq -c '.engines[] | {engine, database, summary, stalled, network, up, setup: .setup.state, import: .import, export: .export.state}' >&2; tail -5 "$work/daemon.log" >&2; }

# verdict ENGINE FOLDER JQ: the row of ENGINE/FOLDER satisfies JQ.
verdict() {
    local json
    json=$(curl -s --max-time 5 "http://127.0.0.1:$port/api/v1/status?engine=$1") || return 1
    [ -n "$json" ] && printf '%s' "$json" | jq -e --arg db "$2" ".engines[] | select(.database == \$db) | $3" >/dev/null 2>&1
}
summary() { verdict "$1" "$2" ".summary == \"$3\""; }
healthy() { verdict "$1" shared '.summary == "succeeded" and (.stalled | length) == 0'; }

log "--- the pair and syncmon"
if st_init >/dev/null 2>&1 && st_start A B >/dev/null 2>&1 && st_wait_connected >/dev/null 2>&1; then ok "two Syncthing instances up and connected"; else bad "pair up"; exit 1; fi
A=$(_dir A) B=$(_dir B) BID=$(_devid B)

# Engine a's key through the configuration file, b's through systemd's credential directory.
mkdir -p "$work/credentials"
printf '%s\n' "$A_APIKEY" >"$work/a.key"
printf '%s\n' "$B_APIKEY" >"$work/credentials/b"
chmod 600 "$work/a.key" "$work/credentials/b"
cat >"$work/syncmon.conf" <<EOF
subscribe = a=syncthing+http://127.0.0.1:$A_GUI_PORT
subscribe = b=syncthing+http://127.0.0.1:$B_GUI_PORT

[source a]
api-key-file = $work/a.key
EOF
port=$(free_port)
start_daemon() {
    CREDENTIALS_DIRECTORY="$work/credentials" "$binary" daemon --config "$work/syncmon.conf" --listen "127.0.0.1:$port" \
        --events-socket "$work/events.sock" --state-dir "$work/state" --log-target stderr --log-level debug \
        >>"$work/daemon.log" 2>&1 &
    daemon_pid=$!
}
stop_daemon() { kill "$daemon_pid" && wait "$daemon_pid"; daemon_pid=""; }
start_daemon

log "--- 1. healthy"
check "a/shared and b/shared succeeded at start" 30 eval 'healthy a && healthy b'
# docs/metrics.md: up from the first answer, not only after a reconnect.
source_up() { curl -s "http://127.0.0.1:$port/metrics" | grep -qx "syncmon_source_up{source=\"$1\"} 1"; }
check "syncmon_source_up 1 for a and b from their first answer" 5 eval 'source_up a && source_up b'
if grep -q "[ab]: subscribe source disconnected" "$work/daemon.log"; then bad "a source was called disconnected at start"; else ok "no source disconnected at start"; fi
echo a >"$A/from-a.txt"
echo b >"$B/from-b.txt"
check "files crossed both ways" 15 eval 'test -f "$B/from-a.txt" && test -f "$A/from-b.txt"'
check "both succeeded, no stall, after the files moved" 15 eval 'healthy a && healthy b'
"$binary" status --url "http://127.0.0.1:$port" >/dev/null && ok "syncmon status exits 0" || { bad "syncmon status exit $?"; dump; }

log "--- 2. B's Syncthing stopped for 20 s"
st_stop B >/dev/null 2>&1
check "b engine_down (critical)" 10 summary b shared engine_down
check "a/shared no_network" 10 summary a shared no_network
"$binary" status --url "http://127.0.0.1:$port" >/dev/null
[ $? -eq 2 ] && ok "syncmon status exits 2 while b is down" || bad "syncmon status exit code while b is down"
sleep 15
st_start B >/dev/null 2>&1
check "both succeeded within 30 s of B's return" 30 eval 'healthy a && healthy b'
# The snapshot on reconnecting is one state: no no_network between engine_down and succeeded.
if grep -q "b/shared: sync no_network (was engine_down)" "$work/daemon.log"; then bad "b/shared passed through no_network on its way back"; else ok "b/shared went from engine_down straight to its verdict"; fi

log "--- 3. A pauses device B"
st_api A PATCH "/rest/config/devices/$BID" '{"paused":true}' >/dev/null
check "a/shared stopped" 10 summary a shared stopped
st_api A PATCH "/rest/config/devices/$BID" '{"paused":false}' >/dev/null
check "a/shared succeeded again after resume" 30 eval 'healthy a'

log "--- 4. B's folder marker removed"
rm -r "$B/.stfolder"
st_api B POST "/rest/db/scan?folder=shared" >/dev/null
check "b/shared error with code folderError within 30 s" 30 verdict b shared '.summary == "error" and .setup.failing.error.code == "folderError"'
mkdir "$B/.stfolder"
st_api B POST "/rest/db/scan?folder=shared" >/dev/null
check "b/shared succeeded within 30 s of the fix and a rescan" 30 eval 'healthy b'

log "--- 5. B cannot write a file it must pull"
# A non-empty directory where Syncthing writes its temporary file: works as root too.
mkdir -p "$B/.syncthing.blocked.txt.tmp/x"
echo x >"$A/blocked.txt"
check "b/shared error with code pullFailed" 20 verdict b shared '.summary == "error" and .import.failing.error.code == "pullFailed"'
sleep 12
check "still error after Syncthing's retries (pullerPauseS 5 s)" 1 verdict b shared '.summary == "error" and .import.failing.error.code == "pullFailed"'
rm -r "$B/.syncthing.blocked.txt.tmp"
echo kick >"$A/kick.txt"
check "b/shared succeeded once the pull completes" 40 eval 'test -f "$B/blocked.txt" && healthy b'

log "--- 6. syncmon restarted while B's Syncthing is stopped"
stop_daemon
st_stop B >/dev/null 2>&1
start_daemon
# B's folder comes back from the state file; the refused API makes it engine_down at the first
# try, not after the restart's grace (3 x 23 s).
check "b/shared engine_down within 3 s of the restart" 3 summary b shared engine_down
source_failing() { curl -s "http://127.0.0.1:$port/api/v1/status" | jq -e --arg s "$1" '.sources[] | select(.name == $s) | .state == "disconnected" and (.lastError | contains("connection refused"))' >/dev/null; }
check "source b listed as disconnected with its error in the status" 3 source_failing b
"$binary" status --url "http://127.0.0.1:$port" >"$work/status.txt"
[ $? -eq 2 ] && grep -q "^b  *syncthing .*connection refused" "$work/status.txt" && ok "syncmon status exits 2 and names source b's error" || { bad "syncmon status with source b down"; cat "$work/status.txt" >&2; }
back=$(date +%s.%N)
st_start B >/dev/null 2>&1
check "both succeeded within 10 s of B's return" 10 eval 'healthy a && healthy b'
log "B read again $(awk -v a="$back" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}') s after its start began"

log "--- the API keys stay secret"
if grep -qF -e "$A_APIKEY" -e "$B_APIKEY" "$work/daemon.log"; then bad "an API key is in the daemon's log"; else ok "no API key in the daemon's log (debug level)"; fi
if tr '\0' ' ' <"/proc/$daemon_pid/cmdline" | grep -qF -e "$A_APIKEY" -e "$B_APIKEY"; then bad "an API key is on the command line"; else ok "no API key on the command line"; fi
if curl -s "http://127.0.0.1:$port/metrics" "http://127.0.0.1:$port/api/v1/status" | grep -qF -e "$A_APIKEY" -e "$B_APIKEY"; then
    bad "an API key is in /metrics or the status"
else
    ok "no API key in /metrics or the status"
fi

log "total $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.0f", b-a}') s"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
