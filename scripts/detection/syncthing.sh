#!/usr/bin/env bash
# The detection matrix's Syncthing faults (docs/detection.md): two real Syncthing instances A and B
# on loopback sharing folder "shared" (scripts/syncthing/pair.sh), one syncmon following both
# (engines a and b) with a canary in each copy (interval 2 s, late-after 20 s). First healthy for
# HEALTHY seconds (syncmon's alarms counted); then each fault is injected, measured every 0.25 s
# (syncmon's verdict and the time to it; Syncthing's own folder state and completion) and undone,
# and the pair is healthy again before the next. One JSON object a line goes to OUT.
#   scripts/detection/syncthing.sh OUT [HEALTHY]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$(readlink -f "$1")
healthy=${2:-30}
binary=$(readlink -f "${SYNCMON_BINARY:-$root/.build/debug/syncmon}")
for tool in syncthing jq curl chattr; do
    command -v "$tool" >/dev/null || { echo "detection/syncthing: $tool is missing (scripts/install-deps.sh --test)" >&2; exit 1; }
done
late_after=20 interval=2
work=$(mktemp -d /tmp/syncmon-detection-st.XXXXXX)
export LAB="$work/lab" RECONNECT_S=5 FSW_DELAY_S=1
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
export A_GUI_PORT=$(free_port) B_GUI_PORT=$(free_port) A_SYNC_PORT=$(free_port) B_SYNC_PORT=$(free_port)
export A_APIKEY="st-a-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
export B_APIKEY="st-b-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
set +u
# shellcheck source=../syncthing/pair.sh
source "$root/scripts/syncthing/pair.sh"
set -u
daemon_pid=""
cleanup() {
    cp "$work/daemon.log" "${out%.*}-syncthing-daemon.log" 2>/dev/null || true
    chattr -R -i "$work/lab" 2>/dev/null || true
    [ -n "$daemon_pid" ] && kill "$daemon_pid" 2>/dev/null && wait "$daemon_pid" 2>/dev/null
    st_kill >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
say() { echo "detection/syncthing: $*"; }
fail() { echo "detection/syncthing: FAIL: $*" >&2; tail -20 "$work/daemon.log" >&2 || true; exit 1; }

st_init >/dev/null 2>&1 && st_start A B >/dev/null 2>&1 && st_wait_connected >/dev/null 2>&1 || fail "the Syncthing pair did not come up"
A=$(_dir A) B=$(_dir B)
mkdir -p "$A/photos" "$work/state"
echo one >"$A/photos/one.jpg"
printf '%s\n' "$A_APIKEY" >"$work/a.key"
printf '%s\n' "$B_APIKEY" >"$work/b.key"
chmod 600 "$work/a.key" "$work/b.key"
cat >"$work/syncmon.conf" <<CONF
subscribe = a=syncthing+http://127.0.0.1:$A_GUI_PORT
subscribe = b=syncthing+http://127.0.0.1:$B_GUI_PORT
[source a]
api-key-file = $work/a.key
[source b]
api-key-file = $work/b.key
[canary a/shared]
path = $A
host = host-a
interval = ${interval}s
late-after = ${late_after}s
[canary b/shared]
path = $B
host = host-b
interval = ${interval}s
late-after = ${late_after}s
CONF
port=$(free_port)
"$binary" daemon --config "$work/syncmon.conf" --listen "127.0.0.1:$port" --events-socket "$work/events.sock" \
    --state-dir "$work/state" --log-target stderr >"$work/daemon.log" 2>&1 &
daemon_pid=$!
export SYNCMON_URL="http://127.0.0.1:$port" A_URL="http://127.0.0.1:$A_GUI_PORT" B_URL="http://127.0.0.1:$B_GUI_PORT" A_APIKEY B_APIKEY
measure() { python3 "$here/syncthing.py" "$@"; }
measure settle 60 || fail "the pair did not become healthy: $(curl -s "$SYNCMON_URL/api/v1/status" | jq -c '[.engines[] | {engine, summary, stalled}]')"

say "healthy for $healthy s: syncmon's alarms counted"
measure healthy "$healthy" >>"$out" || fail "the healthy run"

fault() {  # fault NAME ENGINE EXPECTED THRESHOLD DESCRIPTION INJECT UNDO
    say "$1: $5"
    measure fault "$@" >>"$out" || fail "$1: the measurement failed"
    measure settle 90 || fail "$1: the pair did not become healthy again after the undo"
}
fault deaf-watcher b stalled $((late_after + interval)) \
    "Syncthing: B's watcher deaf (fsWatcherEnabled off, rescan once a day): files stop reaching B, nothing errs" \
    "curl -fsS -X PATCH -H 'X-API-Key: $B_APIKEY' -d '{\"fsWatcherEnabled\":false,\"rescanIntervalS\":86400}' $B_URL/rest/config/folders/shared" \
    "curl -fsS -X PATCH -H 'X-API-Key: $B_APIKEY' -d '{\"fsWatcherEnabled\":true,\"rescanIntervalS\":3600}' $B_URL/rest/config/folders/shared && curl -fsS -X POST -H 'X-API-Key: $B_APIKEY' '$B_URL/rest/db/scan?folder=shared'"
fault disk-full b error 0 \
    "Syncthing: B's disk full (its folder's minDiskFree above what is free) while A adds a file" \
    "curl -fsS -X PATCH -H 'X-API-Key: $B_APIKEY' -d '{\"minDiskFree\":{\"value\":99.99,\"unit\":\"%\"}}' $B_URL/rest/config/folders/shared && sleep 1 && head -c 300000 /dev/urandom >'$A/photos/big.raw'" \
    "curl -fsS -X PATCH -H 'X-API-Key: $B_APIKEY' -d '{\"minDiskFree\":{\"value\":1,\"unit\":\"%\"}}' $B_URL/rest/config/folders/shared"
fault unwritable b error 0 \
    "Syncthing: a file B cannot write (its directory immutable): stuck short of 100 %" \
    "chattr +i '$B/photos' && echo two >'$A/photos/two.jpg'" \
    "chattr -i '$B/photos' && curl -fsS -X POST -H 'X-API-Key: $B_APIKEY' '$B_URL/rest/db/scan?folder=shared'"
fault folder-paused a stalled $((late_after + interval)) \
    "Syncthing: the folder paused on B (A's files wait for it)" \
    "curl -fsS -X PATCH -H 'X-API-Key: $B_APIKEY' -d '{\"paused\":true}' $B_URL/rest/config/folders/shared" \
    "curl -fsS -X PATCH -H 'X-API-Key: $B_APIKEY' -d '{\"paused\":false}' $B_URL/rest/config/folders/shared"
fault marker-removed b error 0 \
    "Syncthing: B's folder marker (.stfolder) removed (the disk unmounted under it)" \
    "rm -rf '$B/.stfolder' && { curl -sS -X POST -H 'X-API-Key: $B_APIKEY' '$B_URL/rest/db/scan?folder=shared' || true; }" \
    "mkdir -p '$B/.stfolder' && curl -fsS -X PATCH -H 'X-API-Key: $B_APIKEY' -d '{\"paused\":true}' $B_URL/rest/config/folders/shared && curl -fsS -X PATCH -H 'X-API-Key: $B_APIKEY' -d '{\"paused\":false}' $B_URL/rest/config/folders/shared"
fault ignored-subfolder b unseen 0 \
    "Syncthing: an ignore pattern on B swallows A's new subfolder (B is \"Up to Date\" without it)" \
    "printf 'raw\n' >'$B/.stignore' && curl -fsS -X POST -H 'X-API-Key: $B_APIKEY' '$B_URL/rest/db/scan?folder=shared' && sleep 2 && mkdir -p '$A/raw' && echo x >'$A/raw/new.nef'" \
    "rm -f '$B/.stignore' && curl -fsS -X POST -H 'X-API-Key: $B_APIKEY' '$B_URL/rest/db/scan?folder=shared'"
say "peer-stopped: Syncthing B stopped for longer than late-after"
measure fault peer-stopped b engine_down 0 "Syncthing: B stopped (the peer's machine off) for longer than late-after" \
    "kill -TERM \$(cat '$LAB/B/syncthing.pid')" "true" >>"$out" || fail "peer-stopped: the measurement failed"
say "done"
