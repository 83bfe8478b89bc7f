#!/usr/bin/env bash
# Makes sure a systemd-journald answers on /run/systemd/journal/socket, starting one if none does.
#
# syncmon's journald integration test needs a real journald. Containers and CI machines usually have no systemd as
# PID 1, but systemd-journald runs fine on its own: it creates /run/systemd/journal/{socket,stdout,dev-log} itself
# and keeps a volatile journal in /run/log/journal that journalctl reads. Run this before `swift test`.
#
# Idempotent: when journald already answers (a round trip through the native socket and journalctl succeeds), it does
# nothing. A socket file alone proves nothing, because a journald that was killed leaves it behind.
#
# Usage: scripts/start-journald.sh          start if needed; exit 0 once journald answers, 1 if it cannot be made to
#        scripts/start-journald.sh --stop   stop the journald this script started (by its pid file), if any
#
# Environment: SYNCMON_JOURNALD (binary, default /lib/systemd/systemd-journald),
#              SYNCMON_JOURNALD_LOG (its output, default /run/syncmon-test-journald.log).
set -euo pipefail

readonly socket=/run/systemd/journal/socket
readonly journald=${SYNCMON_JOURNALD:-/lib/systemd/systemd-journald}
readonly log_file=${SYNCMON_JOURNALD_LOG:-/run/syncmon-test-journald.log}
readonly pid_file=/run/syncmon-test-journald.pid
readonly start_timeout=10 # seconds for journald to come up
readonly readback_tenths=20 # tenths of a second for a probe entry to become readable

say() { printf 'start-journald: %s\n' "$*" >&2; }

# True when an entry sent through the native socket can be read back with journalctl.
answers() {
    [[ -S $socket ]] || return 1
    command -v logger >/dev/null && command -v journalctl >/dev/null || return 1
    local token
    token="probe-$$-${RANDOM}-$(date +%s%N)"
    # logger --journald speaks the native protocol (sd_journal_sendv) and fails when nobody listens on the socket.
    printf 'MESSAGE=syncmon journald probe\nSYSLOG_IDENTIFIER=syncmon-probe\nSYNCMON_PROBE=%s\n' "$token" \
        | logger --journald 2>/dev/null || return 1
    # journald writes asynchronously; give the entry a moment to reach the journal file.
    local i
    for ((i = 0; i < readback_tenths; i++)); do
        if [[ -n $(journalctl --no-pager --quiet --output=cat "SYNCMON_PROBE=$token" 2>/dev/null) ]]; then
            return 0
        fi
        sleep 0.1
    done
    return 1
}

# The pid of a running systemd-journald, if any (comm is cut to 15 characters: "systemd-journal").
running_journald() {
    local comm_file
    for comm_file in /proc/[0-9]*/comm; do
        if [[ $(cat "$comm_file" 2>/dev/null) == systemd-journal ]]; then
            local pid=${comm_file#/proc/}
            pid=${pid%/comm}
            # A killed journald whose parent never reaped it stays a zombie with the same name; it answers nothing.
            if [[ $(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null) != Z ]]; then
                echo "$pid"
                return 0
            fi
        fi
    done
    return 1
}

# Replaces this (background) shell with journald, detached from everything the caller had open.
launch() {
    # journald keeps every descriptor it inherits (it expects socket activation), so a pipe or socket the caller
    # watches for EOF (a test runner's, a CI log's) would stay open as long as journald runs and hang the caller.
    local fd
    for fd in /proc/self/fd/*; do
        fd=${fd##*/}
        if ((fd > 2)); then
            eval "exec ${fd}>&-" 2>/dev/null || true
        fi
    done
    # setsid: its own session, so it outlives this script and the job that ran it.
    exec setsid "$journald" </dev/null >>"$log_file" 2>&1
}

stop() {
    [[ -f $pid_file ]] || { say "no pid file $pid_file: nothing started by this script"; return 0; }
    local pid
    pid=$(cat "$pid_file")
    if [[ $(cat "/proc/$pid/comm" 2>/dev/null) == systemd-journal ]]; then
        kill "$pid"
        say "stopped systemd-journald (pid $pid)"
    fi
    rm -f "$pid_file"
}

start() {
    if answers; then
        say "journald already answers on $socket"
        return 0
    fi

    local pid
    if pid=$(running_journald); then
        # Someone else's journald (maybe still starting): never start a second one next to it.
        say "systemd-journald (pid $pid) runs but does not answer yet; waiting"
    else
        [[ $(id -u) -eq 0 ]] || { say "journald is not running and only root can start it"; return 1; }
        [[ -x $journald ]] || { say "$journald not found (apt-get install systemd)"; return 1; }
        # journald names its journal directory after the machine ID and refuses to start without one; minimal
        # container images may ship none.
        if [[ ! -s /etc/machine-id ]] && command -v systemd-machine-id-setup >/dev/null; then
            systemd-machine-id-setup >&2 || true
        fi
        mkdir -p /run/systemd/journal
        launch &
        pid=$!
        echo "$pid" >"$pid_file"
        say "started $journald (pid $pid, output in $log_file)"
    fi

    local deadline=$((SECONDS + start_timeout))
    while ((SECONDS < deadline)); do
        if answers; then
            say "journald answers on $socket"
            return 0
        fi
        if ! kill -0 "$pid" 2>/dev/null; then
            break
        fi
        sleep 0.1
    done
    say "journald does not answer on $socket; its output:"
    tail -n 20 "$log_file" >&2 2>/dev/null || true
    return 1
}

case ${1:-} in
    "") start ;;
    --stop) stop ;;
    *) say "usage: $0 [--stop]"; exit 2 ;;
esac
