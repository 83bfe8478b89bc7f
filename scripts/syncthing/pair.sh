#!/usr/bin/env bash
# pair.sh: a pair of real Syncthing (1.19.x, Debian 12) instances A and B on 127.0.0.1 only,
# sharing folder id "shared", for syncmon's end-to-end tests (scripts/syncthing/test-syncthing.sh).
#
# Usage (run it, or `source` it to get the functions):
#   ./pair.sh init            # (re)create homes + config for A and B (wipes $LAB, default ./run)
#   ./pair.sh start [A|B]     # start both (default) or one instance; waits for its API
#   ./pair.sh wait-connected  # wait until A and B see each other (DeviceConnected)
#   ./pair.sh up              # init (if needed) + start + wait-connected; prints env
#   ./pair.sh stop [A|B]      # SIGTERM (then SIGKILL after 15 s) both or one instance
#   ./pair.sh kill [A|B]      # SIGKILL (crash) one or both
#   ./pair.sh status          # which are running
#   ./pair.sh env             # print ST_* variables (URLs, keys, device ids, paths)
#   ./pair.sh api A|B METHOD PATH [BODY]   # curl helper with the API key
#
# Everything listens on 127.0.0.1; discovery, relays, NAT, STUN, usage/crash reporting and
# upgrades are off. Configurable through environment variables (defaults below).
set -u

LAB_ROOT=${LAB_ROOT:-/tmp/syncmon-syncthing}
LAB=${LAB:-$LAB_ROOT/run}              # homes, folders, logs, pid files live here
A_GUI_PORT=${A_GUI_PORT:-28384}
B_GUI_PORT=${B_GUI_PORT:-28385}
A_SYNC_PORT=${A_SYNC_PORT:-22201}
B_SYNC_PORT=${B_SYNC_PORT:-22202}
A_APIKEY=${A_APIKEY:-syncmon-lab-apikey-A-0123456789}
B_APIKEY=${B_APIKEY:-syncmon-lab-apikey-B-0123456789}
FOLDER_ID=${FOLDER_ID:-shared}
RESCAN_S=${RESCAN_S:-3600}             # folder rescanIntervalS (Syncthing default 3600)
FSW_DELAY_S=${FSW_DELAY_S:-1}          # fsWatcherDelayS (default 10; integer in 1.19)
PULLER_PAUSE_S=${PULLER_PAUSE_S:-0}    # pullerPauseS, 0 = Syncthing default 60 s
RECONNECT_S=${RECONNECT_S:-10}         # options/reconnectionIntervalS (Syncthing default 60, min 5); see FINDINGS "dial cooldown"
PROGRESS_S=${PROGRESS_S:-5}            # options/progressUpdateIntervalS (DownloadProgress)
START_TIMEOUT_S=${START_TIMEOUT_S:-30}
CONNECT_TIMEOUT_S=${CONNECT_TIMEOUT_S:-60}
SYNCTHING=${SYNCTHING:-syncthing}

_home() { echo "$LAB/$1/home"; }
_dir()  { echo "$LAB/$1/$FOLDER_ID"; }
_gui()  { if [ "$1" = A ]; then echo "$A_GUI_PORT"; else echo "$B_GUI_PORT"; fi; }
_sync() { if [ "$1" = A ]; then echo "$A_SYNC_PORT"; else echo "$B_SYNC_PORT"; fi; }
_key()  { if [ "$1" = A ]; then echo "$A_APIKEY"; else echo "$B_APIKEY"; fi; }
_other(){ if [ "$1" = A ]; then echo B; else echo A; fi; }
_url()  { echo "http://127.0.0.1:$(_gui "$1")"; }
_pidf() { echo "$LAB/$1/syncthing.pid"; }
_log()  { echo "$LAB/$1/syncthing.log"; }
_ts()   { date -u +%Y-%m-%dT%H:%M:%S.%3NZ; }
_say()  { echo "[pair $(_ts)] $*" >&2; }
_devid(){ cat "$LAB/$1/device-id"; }
# jq 1.6 (Debian 12) `jq -e` exits 0 on EMPTY input: never feed it an empty string.
_jqtest() { local in; in=$(cat); [ -n "$in" ] && printf '%s' "$in" | jq -e "$@" >/dev/null 2>&1; }
_el()   { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN{printf "%.2f", b-a}'; }

_write_config() { # $1 = A|B
  local me=$1 other; other=$(_other "$1")
  local myid otherid; myid=$(_devid "$me"); otherid=$(_devid "$other")
  cat >"$(_home "$me")/config.xml" <<EOF
<configuration version="36">
    <folder id="$FOLDER_ID" label="$FOLDER_ID" path="$(_dir "$me")" type="sendreceive" rescanIntervalS="$RESCAN_S" fsWatcherEnabled="true" fsWatcherDelayS="$FSW_DELAY_S" ignorePerms="false" autoNormalize="true">
        <filesystemType>basic</filesystemType>
        <device id="$myid" introducedBy=""></device>
        <device id="$otherid" introducedBy=""></device>
        <minDiskFree unit="%">1</minDiskFree>
        <pullerPauseS>$PULLER_PAUSE_S</pullerPauseS>
        <paused>false</paused>
        <markerName>.stfolder</markerName>
    </folder>
    <device id="$myid" name="$me" compression="metadata" introducer="false" skipIntroductionRemovals="false" introducedBy="">
        <address>tcp://127.0.0.1:$(_sync "$me")</address>
        <paused>false</paused>
        <autoAcceptFolders>false</autoAcceptFolders>
    </device>
    <device id="$otherid" name="$other" compression="metadata" introducer="false" skipIntroductionRemovals="false" introducedBy="">
        <address>tcp://127.0.0.1:$(_sync "$other")</address>
        <paused>false</paused>
        <autoAcceptFolders>false</autoAcceptFolders>
    </device>
    <gui enabled="true" tls="false" debugging="false">
        <address>127.0.0.1:$(_gui "$me")</address>
        <apikey>$(_key "$me")</apikey>
        <theme>default</theme>
    </gui>
    <options>
        <listenAddress>tcp://127.0.0.1:$(_sync "$me")</listenAddress>
        <globalAnnounceServer>default</globalAnnounceServer>
        <globalAnnounceEnabled>false</globalAnnounceEnabled>
        <localAnnounceEnabled>false</localAnnounceEnabled>
        <relaysEnabled>false</relaysEnabled>
        <natEnabled>false</natEnabled>
        <startBrowser>false</startBrowser>
        <reconnectionIntervalS>$RECONNECT_S</reconnectionIntervalS>
        <urAccepted>-1</urAccepted>
        <urSeen>3</urSeen>
        <urInitialDelayS>1800</urInitialDelayS>
        <crashReportingEnabled>false</crashReportingEnabled>
        <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
        <upgradeToPreReleases>false</upgradeToPreReleases>
        <stunKeepaliveStartS>0</stunKeepaliveStartS>
        <stunKeepaliveMinS>0</stunKeepaliveMinS>
        <stunServer></stunServer>
        <announceLANAddresses>false</announceLANAddresses>
        <progressUpdateIntervalS>$PROGRESS_S</progressUpdateIntervalS>
        <restartOnWakeup>false</restartOnWakeup>
        <setLowPriority>false</setLowPriority>
        <minHomeDiskFree unit="%">1</minHomeDiskFree>
    </options>
</configuration>
EOF
}

st_init() {
  command -v "$SYNCTHING" >/dev/null || { _say "syncthing not installed (apt-get install -y syncthing)"; return 1; }
  st_stop >/dev/null 2>&1 || true
  rm -rf "$LAB"
  local n
  for n in A B; do
    mkdir -p "$(_home $n)" "$(_dir $n)"
    mkdir -p "$(_dir $n)/.stfolder"       # the folder marker: a directory, as Syncthing creates it
    # 1.19: `syncthing generate --home=DIR` (also `syncthing serve --generate=DIR`, legacy `-generate`)
    STNODEFAULTFOLDER=1 "$SYNCTHING" generate --home="$(_home $n)" --no-default-folder >"$LAB/$n/generate.log" 2>&1 \
      || { _say "generate failed for $n"; cat "$LAB/$n/generate.log" >&2; return 1; }
    sed -n 's/.*Device ID: *\([A-Z0-9-]*\).*/\1/p' "$LAB/$n/generate.log" >"$LAB/$n/device-id"
    [ -s "$LAB/$n/device-id" ] || "$SYNCTHING" serve --home="$(_home $n)" --device-id >"$LAB/$n/device-id"
  done
  for n in A B; do _write_config $n; done
  st_env >"$LAB/env"
  _say "initialised $LAB (A=$(_devid A), B=$(_devid B))"
}

# A process is alive if it exists and is not a zombie (the sandbox's pid 1 may not reap
# orphans, so `kill -0` alone would report a dead syncthing as alive).
_alive() { local st; [ -n "${1:-}" ] && st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) && [ -n "$st" ] && [ "$st" != Z ]; }
st_running() { local p; p=$(cat "$(_pidf "$1")" 2>/dev/null) || return 1; _alive "$p"; }

st_api() { # st_api A|B METHOD PATH [BODY]  -> body on stdout; curl exit code
  local n=$1 m=$2 p=$3
  if [ $# -ge 4 ]; then
    curl -sS --max-time 75 -X "$m" -H "X-API-Key: $(_key "$n")" -H 'Content-Type: application/json' --data "$4" "$(_url "$n")$p"
  else
    curl -sS --max-time 75 -X "$m" -H "X-API-Key: $(_key "$n")" "$(_url "$n")$p"
  fi
}

_port_free() { ! ss -Hltn "sport = :$1" 2>/dev/null | grep -q .; }

st_wait_api() { # wait until /rest/system/ping answers
  local n=$1 t0 i; t0=$(date +%s.%N)
  for ((i = 0; i < START_TIMEOUT_S * 10; i++)); do
    if curl -s --max-time 2 -H "X-API-Key: $(_key "$n")" "$(_url "$n")/rest/system/ping" 2>/dev/null | _jqtest '.ping == "pong"'; then
      _say "$n API up after $(_el "$t0") s"
      return 0
    fi
    st_running "$n" || { _say "$n exited; see $(_log "$n")"; tail -20 "$(_log "$n")" >&2; return 1; }
    sleep 0.1
  done
  _say "$n API not up after ${START_TIMEOUT_S}s"; return 1
}

st_start_one() {
  local n=$1
  [ -f "$(_home "$n")/config.xml" ] || st_init || return 1
  if st_running "$n"; then _say "$n already running (pid $(cat "$(_pidf "$n")"))"; return 0; fi
  local port
  for port in "$(_gui "$n")" "$(_sync "$n")"; do
    _port_free "$port" || { _say "port $port for $n is in use"; return 1; }
  done
  # 1.19 always runs a monitor process plus the real syncthing as its child (even with
  # --no-restart, which only stops the monitor from restarting the child). The pid file holds
  # the monitor; st_child finds the child. Logs with microsecond timestamps (logflags 7).
  # --audit: every event (AllEvents mask) appended to audit.jsonl, across restarts.
  STNODEFAULTFOLDER=1 STNOUPGRADE=1 STNORESTART=1 \
    setsid "$SYNCTHING" serve --home="$(_home "$n")" --no-browser --no-restart --no-upgrade \
      --no-default-folder --logflags=7 --audit --auditfile="$LAB/$n/audit.jsonl" \
      >>"$(_log "$n")" 2>&1 </dev/null &
  echo $! >"$(_pidf "$n")"
  _say "$n started pid $! (gui $(_url "$n"), sync tcp://127.0.0.1:$(_sync "$n"))"
}

st_start() {
  local n
  if [ $# -eq 0 ]; then set -- A B; fi
  for n in "$@"; do st_start_one "$n" || return 1; done
  for n in "$@"; do st_wait_api "$n" || return 1; done  # "API up after" counts from this wait
}

st_connected() { # st_connected A -> 0 if A sees the other device connected
  local n=$1 o; o=$(_other "$1")
  st_api "$n" GET /rest/system/connections 2>/dev/null | _jqtest --arg id "$(_devid "$o")" '.connections[$id].connected == true'
}

st_wait_connected() {
  local t0 i; t0=$(date +%s.%N)
  for ((i = 0; i < CONNECT_TIMEOUT_S * 5; i++)); do
    if st_connected A && st_connected B; then
      _say "A<->B connected after $(_el "$t0") s (of waiting)"; return 0
    fi
    sleep 0.2
  done
  _say "A and B not connected after ${CONNECT_TIMEOUT_S}s"; return 1
}

st_wait_idle() { # st_wait_idle A|B [timeout_s]: folder idle with nothing needed
  local n=$1 to=${2:-60} i s
  for ((i = 0; i < to * 5; i++)); do
    s=$(st_api "$n" GET "/rest/db/status?folder=$FOLDER_ID" 2>/dev/null)
    if printf '%s' "$s" | _jqtest '.state == "idle" and .needTotalItems == 0'; then return 0; fi
    sleep 0.2
  done
  return 1
}

st_child() { # pid of the inner syncthing process (1.19 always runs a monitor + one child)
  local p; p=$(cat "$(_pidf "$1")" 2>/dev/null) || return 1
  pgrep -P "$p" -x syncthing | head -1
}

st_stop_one() { # st_stop_one A|B [TERM|KILL]
  # TERM goes to the monitor, which forwards SIGTERM to the child and exits with it.
  # KILL is a crash: the child is SIGKILLed first (killing only the monitor would orphan it).
  local n=$1 sig=${2:-TERM} p c i
  p=$(cat "$(_pidf "$n")" 2>/dev/null) || { _say "$n: no pid file"; return 0; }
  if ! _alive "$p"; then rm -f "$(_pidf "$n")"; _say "$n not running"; return 0; fi
  c=$(st_child "$n")
  if [ "$sig" = KILL ]; then
    [ -n "$c" ] && kill -KILL "$c" 2>/dev/null
    kill -KILL "$p" 2>/dev/null
  else
    kill -"$sig" "$p"
  fi
  for ((i = 0; i < 150; i++)); do
    if ! _alive "$p" && ! _alive "$c"; then break; fi
    sleep 0.1
  done
  for x in $p $c; do
    if _alive "$x"; then _say "$n pid $x still alive after SIG$sig, sending KILL"; kill -KILL "$x"; fi
  done
  rm -f "$(_pidf "$n")"
  _say "$n stopped (SIG$sig, monitor pid $p, child pid ${c:-?})"
}

st_stop() { local n; if [ $# -eq 0 ]; then set -- A B; fi; for n in "$@"; do st_stop_one "$n" TERM; done; }
st_kill() { local n; if [ $# -eq 0 ]; then set -- A B; fi; for n in "$@"; do st_stop_one "$n" KILL; done; }

st_status() {
  local n
  for n in A B; do
    if st_running $n; then echo "$n running pid $(cat "$(_pidf $n)") $(_url $n)"; else echo "$n stopped"; fi
  done
}

st_env() {
  local n
  echo "LAB=$LAB"
  for n in A B; do
    echo "ST_${n}_URL=$(_url $n)"
    echo "ST_${n}_KEY=$(_key $n)"
    echo "ST_${n}_ID=$(_devid $n)"
    echo "ST_${n}_DIR=$(_dir $n)"
    echo "ST_${n}_SYNC=tcp://127.0.0.1:$(_sync $n)"
    echo "ST_${n}_LOG=$(_log $n)"
  done
  echo "ST_FOLDER=$FOLDER_ID"
}

st_up() {
  local t0; t0=$(date +%s.%N)
  [ -f "$(_home A)/config.xml" ] && [ -f "$(_home B)/config.xml" ] || st_init || return 1
  st_start A B || return 1
  st_wait_connected || return 1
  _say "pair up in $(_el "$t0") s"
  st_env
}

_main() {
  local cmd=${1:-help}; shift || true
  case "$cmd" in
    init) st_init ;;
    start) st_start "$@" ;;
    wait-connected) st_wait_connected ;;
    wait-idle) st_wait_idle "$@" ;;
    up) st_up ;;
    stop) st_stop "$@" ;;
    kill) st_kill "$@" ;;
    status) st_status ;;
    env) st_env ;;
    api) st_api "$@"; echo ;;
    *) sed -n '2,20p' "$0"; return 2 ;;
  esac
}

# Run _main only when executed, not when sourced.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then _main "$@"; fi
