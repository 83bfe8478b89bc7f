#!/usr/bin/env bash
# Runs the shipped deploy/systemd/syncmon.{socket,service} under the real service manager:
# Debian 12's own systemd 252 boots as PID 1 of a throw-away container made of private PID,
# mount, UTS, IPC and cgroup namespaces, whose root is an overlay (host / read-only below, a
# tmpfs above), so nothing it does reaches the host's files. Only the HTTP port changes (a
# drop-in; the network namespace is the host's, for curl). Proves:
#   - sysusers.d/syncmon.conf creates the user and group the units name;
#   - syncmon.socket creates /run/syncmon/events.sock root:syncmon 0660;
#   - an engine connecting before syncmon runs activates the service, and its event is counted;
#   - the service reaches active (Type=notify, READY=1) under the complete hardening —
#     MemoryDenyWriteExecute=, SystemCallFilter=@system-service, PrivateUsers=,
#     RestrictAddressFamilies=, ProtectProc=invisible … — with a seccomp filter on MainPID;
#   - /metrics (process_* too, and the host network view through rtnetlink) and `syncmon status`
#     work; `systemctl reload` works;
#   - a unit: source works under that hardening: systemd's signals over the system bus, and the
#     watched unit's journal read (SupplementaryGroups=systemd-journal), its lines through a pack;
#   - with WatchdogSec=3s it lives through several watchdog periods without being restarted;
#   - a second daemon started by hand exits 73 (state directory, then socket) and the service
#     still hears its engines;
#   - while the service is stopped the socket stays, and an event sent then re-activates it;
#   - a canary in a folder of the engine's user: refused under the unit as shipped, written
#     (0644, readable by that user) with the drop-in of docs/canary.md.
# Needs root, unshare(1), overlayfs and cgroup2; exits 77 (skip) where it cannot build the
# container. Takes ~25 s.
#   scripts/test-unit-sandbox.sh [SYNCMON_BINARY]
# Package mode (SYNCMON_SANDBOX_MODE=package): scripts/test-package.sh sources this file to boot
# the same container with none of syncmon's files in it and a network namespace of its own
# (loopback only, so the packaged units run unchanged on their default port); this file then
# returns to it once systemd runs, with in_ns, wait_for, fail and $work defined.
# User mode (SYNCMON_SANDBOX_MODE=user): scripts/test-user-session.sh sources it the same way for
# the user units (docs/user-sessions.md): syncmon's system units on their default port in a
# network namespace of their own, the user units in /usr/lib/systemd/user, systemd-logind
# running and a user alice (UID 1500) whose manager `loginctl enable-linger` starts.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${SYNCMON_SANDBOX_MODE:-units}
binary=""
if [ "$mode" = units ] || [ "$mode" = user ]; then
    binary=${1:-${SYNCMON_BINARY:-.build/debug/syncmon}}
    binary=$(readlink -f "$binary")
fi

skip() { echo "test-unit-sandbox: SKIP: $*" >&2; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "needs root"
command -v unshare >/dev/null && command -v nsenter >/dev/null || skip "no unshare/nsenter"
[ -x /lib/systemd/systemd ] || skip "no /lib/systemd/systemd"
grep -qw overlay /proc/filesystems || skip "no overlayfs"
cgroot=""
for candidate in /sys/fs/cgroup/unified /sys/fs/cgroup; do
    if [ "$(stat -f -c %T "$candidate" 2>/dev/null)" = cgroup2fs ]; then cgroot=$candidate; break; fi
done
[ -n "$cgroot" ] || skip "no cgroup2 hierarchy"
[ "$mode" = package ] || [ -x "$binary" ] || { echo "test-unit-sandbox: no binary at $binary" >&2; exit 1; }

work=$(mktemp -d /tmp/syncmon-sandbox.XXXXXX)
cgroup="$cgroot/syncmon-sandbox-$$"
ns_pid=""
inner=""
cleanup() {
    # SIGKILL to the container's PID 1 ends every process in its PID namespace; then its
    # mount namespace (overlay, tmpfs) goes away with it.
    if [ -n "$inner" ] && [ "$(cat /proc/"$inner"/comm 2>/dev/null)" = systemd ]; then kill -KILL "$inner" 2>/dev/null || true; fi
    if [ -n "$ns_pid" ]; then wait "$ns_pid" 2>/dev/null || true; fi
    if [ -d "$cgroup" ]; then
        for _ in 1 2 3 4 5; do
            find "$cgroup" -depth -type d -exec rmdir {} \; 2>/dev/null || true
            [ -d "$cgroup" ] || break
            sleep 0.5
        done
    fi
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mkdir -p "$work/files/units/syncmon.service.d" "$work/ov"
touch "$work/console.log"
if [ "$mode" != package ]; then
    cp "$binary" "$work/files/syncmon"
    cp deploy/systemd/syncmon.service deploy/systemd/syncmon.socket "$work/files/units/"
    cp deploy/sysusers.d/syncmon.conf "$work/files/"
fi
mkdir -p "$work/files/user-units"
[ "$mode" = user ] && cp deploy/systemd/user/syncmon.service deploy/systemd/user/syncmon.socket "$work/files/user-units/"
if [ "$mode" = user ]; then
    # The system syncmon as shipped, on its default 127.0.0.1:9478 (the namespace's own loopback).
    : >"$work/files/units/syncmon.service.d/test.conf"
else
    cat >"$work/files/units/syncmon.service.d/test.conf" <<EOF
[Service]
ExecStart=
ExecStart=/usr/local/bin/syncmon daemon --listen 127.0.0.1:$port --subscribe 'talker=unit:talker.service?rules=unison'
EOF
fi
# A unit: source under the hardened unit (docs/systemd-units.md): the system bus and the journal.
cat >"$work/files/units/talker.service" <<'EOF'
[Service]
ExecStart=/bin/sh -c 'while :; do echo "Looking for changes"; sleep 1; done'
EOF
cat >"$work/files/mdwe-probe.py" <<'EOF'
import ctypes
libc = ctypes.CDLL(None)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
address = libc.mmap(None, 4096, 7, 0x22, -1, 0)  # PROT_READ|WRITE|EXEC, MAP_PRIVATE|ANONYMOUS
print("refused" if address in (None, 2**64 - 1) else "allowed")
EOF
for probe in on off; do
    cat >"$work/files/units/mdwe-$probe.service" <<EOF
[Service]
Type=oneshot
ExecStart=/usr/bin/python3 /usr/local/bin/mdwe-probe.py
StandardOutput=file:/run/mdwe-$probe.txt
MemoryDenyWriteExecute=$([ $probe = on ] && echo yes || echo no)
EOF
done
wanted=systemd-journald.socket
[ "$mode" = package ] || wanted="$wanted syncmon.socket dbus.socket"
[ "$mode" != user ] || wanted="$wanted systemd-logind.service"
cat >"$work/files/units/syncmon-test.target" <<EOF
[Unit]
Description=syncmon sandbox test
Wants=$wanted
After=$wanted
EOF

# Built inside the namespaces, before systemd starts. Every step is private to them.
cat >"$work/inner.sh" <<EOF
set -euo pipefail
W="$work"
R="\$W/ov/root"
mount --make-rprivate /
mount -t tmpfs -o mode=0700 tmpfs "\$W/ov"
mkdir "\$W/ov/upper" "\$W/ov/work" "\$R"
mount -t overlay overlay -o "lowerdir=/,upperdir=\$W/ov/upper,workdir=\$W/ov/work" "\$R"
[ "\$(stat -f -c %T "\$R")" = overlayfs ]
mount -t proc proc "\$R/proc"
mount --bind "\$R/proc/sys" "\$R/proc/sys"
mount -o remount,bind,ro "\$R/proc/sys"
mount -t sysfs -o ro sysfs "\$R/sys"
mount -t cgroup2 cgroup2 "\$R/sys/fs/cgroup"
mount -t tmpfs -o mode=0755 tmpfs "\$R/dev"
for node in null zero full random urandom tty; do touch "\$R/dev/\$node"; mount --bind "/dev/\$node" "\$R/dev/\$node"; done
touch "\$R/dev/console"; mount --bind "\$W/console.log" "\$R/dev/console"
mkdir "\$R/dev/pts" "\$R/dev/shm" "\$R/dev/mqueue"
mount -t devpts -o newinstance,ptmxmode=0666 devpts "\$R/dev/pts"; ln -s pts/ptmx "\$R/dev/ptmx"
mount -t tmpfs -o mode=1777 tmpfs "\$R/dev/shm"
ln -s /proc/self/fd "\$R/dev/fd"
mount -t tmpfs -o mode=0755 tmpfs "\$R/run"
mount -t tmpfs -o mode=1777 tmpfs "\$R/tmp"
: >"\$R/etc/fstab"
find "\$R/etc/systemd/system" -mindepth 1 -maxdepth 1 -name '*.wants' -exec rm -rf {} +
for unit in /lib/systemd/system/sysinit.target.wants/* systemd-remount-fs.service systemd-udevd.service \
        systemd-udev-trigger.service systemd-tmpfiles-clean.timer systemd-timesyncd.service \
        systemd-networkd.service systemd-journald-audit.socket systemd-journal-flush.service; do
    name=\$(basename "\$unit")
    case "\$name" in systemd-journald.service|systemd-sysusers.service) continue ;; esac
    ln -sf /dev/null "\$R/etc/systemd/system/\$name"
done
cp "\$W/files/units/syncmon-test.target" "\$W/files/units/mdwe-on.service" "\$W/files/units/mdwe-off.service" "\$W/files/units/talker.service" "\$R/etc/systemd/system/"
cp "\$W/files/mdwe-probe.py" "\$R/usr/local/bin/"
if [ "$mode" != package ]; then
    cp "\$W/files/units/syncmon.service" "\$W/files/units/syncmon.socket" "\$R/etc/systemd/system/"
    cp -r "\$W/files/units/syncmon.service.d" "\$R/etc/systemd/system/"
    mkdir -p "\$R/etc/sysusers.d"; cp "\$W/files/syncmon.conf" "\$R/etc/sysusers.d/"
    cp "\$W/files/syncmon" "\$R/usr/local/bin/syncmon"
    mkdir -p "\$R/usr/lib/systemd/user"; cp "\$W/files/user-units/"* "\$R/usr/lib/systemd/user/" 2>/dev/null || true
fi
[ "$mode" = units ] || ip link set lo up
mkdir "\$R/oldroot"
cd "\$R"
pivot_root . oldroot
cd /
umount -l /oldroot
[ "\$(stat -f -c %T /)" = overlayfs ]
systemd-sysusers >/dev/null
[ "$mode" != user ] || useradd --create-home --uid 1500 --shell /bin/bash alice
exec env -i container=syncmon-test /lib/systemd/systemd --unit=syncmon-test.target --log-target=console --log-level=notice --show-status=no
EOF

mkdir "$cgroup"
(
    echo "$BASHPID" >"$cgroup/cgroup.procs"
    network=()
    [ "$mode" = units ] || network=(--net)
    exec unshare --cgroup --pid --fork --mount --uts --ipc "${network[@]}" bash "$work/inner.sh"
) >"$work/setup.log" 2>&1 &
ns_pid=$!

# unshare's child is PID 1 inside; it becomes systemd once the setup is done.
for _ in $(seq 100); do
    candidate=$(cat /proc/"$ns_pid"/task/*/children 2>/dev/null | awk '{print $1; exit}' || true)
    if [ -n "$candidate" ] && [ "$(cat /proc/"$candidate"/comm 2>/dev/null)" = systemd ]; then inner=$candidate; break; fi
    kill -0 "$ns_pid" 2>/dev/null || break
    sleep 0.2
done
if [ -z "$inner" ]; then
    cat "$work/setup.log" >&2
    skip "could not boot systemd in namespaces"
fi
if [ "$mode" != units ]; then
    in_ns() { nsenter -t "$inner" -m -p -u -i -n -r -w -- "$@"; }
else
    in_ns() { nsenter -t "$inner" -m -p -u -i -r -w -- "$@"; }
fi

fail() {
    echo "test-unit-sandbox: FAIL: $*" >&2
    in_ns systemctl status --no-pager syncmon.socket syncmon.service >&2 || true
    in_ns journalctl --no-pager -n 40 >&2 || true
    tail -n 40 "$work/console.log" >&2
    exit 1
}
wait_for() {  # wait_for SECONDS CMD... — polls CMD until it succeeds
    local deadline=$((SECONDS + $1)); shift
    until "$@" >/dev/null 2>&1; do [ $SECONDS -lt "$deadline" ] || return 1; sleep 0.2; done
}
emit() { in_ns /usr/local/bin/syncmon emit --events-socket /run/syncmon/events.sock --engine sandbox "$@"; }
received() {
    curl -fsS "http://127.0.0.1:$port/metrics" | awk '/^syncmon_events_received_total\{transport="push"\}/{print $2}'
}
at_least() { local value; value=$(received); [ -n "$value" ] && [ "$value" -ge "$1" ]; }
# Package and user modes: the caller (scripts/test-package.sh, test-user-session.sh) takes over here.
if [ "$mode" != units ]; then return 0; fi

wait_for 20 in_ns systemctl is-active --quiet syncmon.socket || fail "syncmon.socket not active"
# What systemd-tmpfiles-setup.service (masked here with the rest of sysinit) does on a real host:
# the journal belongs to the group systemd-journal, which the unit's SupplementaryGroups= joins.
in_ns journalctl --flush >/dev/null 2>&1 || true
in_ns systemd-tmpfiles --create --prefix=/run/log/journal --prefix=/var/log/journal >/dev/null 2>&1 || true
owner=$(in_ns stat -c '%U:%G %a' /run/syncmon/events.sock)
[ "$owner" = "root:syncmon 660" ] || fail "events.sock is $owner, want root:syncmon 660"
echo "ok: syncmon.socket listening; /run/syncmon/events.sock is $owner"
in_ns systemctl is-active --quiet syncmon.service && fail "syncmon.service already active before any connection"

emit engineStarted heartbeatSeconds=30 || fail "emit before start"
wait_for 30 in_ns systemctl is-active --quiet syncmon.service || fail "syncmon.service did not become active"
echo "ok: a connection activated syncmon.service; it reached READY=1 under the hardening"
main=$(in_ns systemctl show -p MainPID --value syncmon.service)
seccomp=$(in_ns awk '/^Seccomp:/{print $2}' /proc/"$main"/status)
[ "$seccomp" = 2 ] || fail "no seccomp filter on MainPID $main (Seccomp: $seccomp)"
user=$(in_ns stat -c %U /proc/"$main")
[ "$user" = syncmon ] || fail "MainPID runs as $user"
for property in MemoryDenyWriteExecute=yes PrivateUsers=yes ProtectSystem=strict NoNewPrivileges=yes; do
    value=$(in_ns systemctl show -p "${property%%=*}" --value syncmon.service)
    [ "$value" = "${property#*=}" ] || fail "${property%%=*} is $value"
done
echo "ok: MainPID $main runs as $user with a seccomp filter; MemoryDenyWriteExecute=yes PrivateUsers=yes ProtectSystem=strict"
# Control: the same manager really enforces MemoryDenyWriteExecute= here (a W+X mapping is refused
# in a unit that has it and allowed in one that does not), so syncmon running under it means
# something.
for probe in mdwe-on mdwe-off; do
    in_ns systemctl start "$probe.service" || fail "$probe.service"
done
with_mdwe=$(in_ns cat /run/mdwe-on.txt)
without_mdwe=$(in_ns cat /run/mdwe-off.txt)
[ "$with_mdwe" = refused ] && [ "$without_mdwe" = allowed ] ||
    fail "MemoryDenyWriteExecute control: with it '$with_mdwe', without it '$without_mdwe'"
echo "ok: control: a W+X mapping is refused under MemoryDenyWriteExecute=yes, allowed without"
wait_for 10 at_least 1 || fail "the event sent before the service ran was not counted"
echo "ok: the event written before the service ran was received"

emit accountStatus status=available || fail emit
emit willFetchChanges || fail emit
emit fetchedRecordZoneChanges zone=z modifications=3 deletions=0 || fail emit
emit didFetchChanges || fail emit
wait_for 10 at_least 5 || fail "events not counted"
in_ns /usr/local/bin/syncmon status --url "http://127.0.0.1:$port" >"$work/status.txt" 2>&1 || true
grep -q sandbox "$work/status.txt" || fail "syncmon status: $(cat "$work/status.txt")"
curl -fsS "http://127.0.0.1:$port/metrics" >"$work/metrics.txt" || fail "GET /metrics"
grep -q '^process_start_time_seconds [1-9]' "$work/metrics.txt" || fail "process_start_time_seconds is 0"
grep -q '^syncmon_status{.*status="succeeded"} 1' "$work/metrics.txt" || fail "summary not succeeded"
# The sandbox lets rtnetlink through (AF_NETLINK in RestrictAddressFamilies=): the host view is followed.
grep -q '^syncmon_host_network_up [01]$' "$work/metrics.txt" || fail "syncmon_host_network_up absent: rtnetlink blocked by the sandbox"
echo "ok: /metrics (summary succeeded, process_* read) and syncmon status served"
in_ns systemctl start talker.service || fail "talker.service"
talker_read() {
    curl -fsS "http://127.0.0.1:$port/metrics" |
        grep -q '^syncmon_phase_state{engine="talker",database="default",phase="import",state="in_progress"} 1'
}
wait_for 20 talker_read || fail "unit: source: talker.service's journal not read through the bus and sd-journal under the hardening"
echo "ok: a unit: source under the hardening: the system bus reached, the watched unit's journal read"

# libdispatch logs "Failed to set thread priority … errno=13" once (EACCES: raising a thread's
# priority needs CAP_SYS_NICE, as for any unprivileged process); errno=1 (EPERM) would mean the
# system call filter blocks setpriority(2) altogether, and is logged for every worker thread.
if in_ns journalctl -u syncmon.service --no-pager -q | grep -q 'Failed to set thread priority.*errno=1$'; then
    fail "the system call filter blocks setpriority (libdispatch logs EPERM)"
fi
in_ns systemctl reload syncmon.service || fail "systemctl reload"
in_ns systemctl is-active --quiet syncmon.service || fail "not active after reload"
echo "ok: systemctl reload (SIGHUP, RELOADING=1 … READY=1)"

# One daemon per state directory and events socket (docs/operations.md): a daemon started by
# hand as root while the service runs exits 73, naming what is taken, and the service still
# hears its engines. First the defaults (the service's state directory), then another state
# directory (the socket systemd listens on).
rc=0; in_ns /usr/local/bin/syncmon daemon --log-target stderr >"$work/second.txt" 2>&1 || rc=$?
[ "$rc" = 73 ] || fail "a second daemon on the service's state directory exited $rc: $(cat "$work/second.txt")"
grep -q "the state directory /var/lib/syncmon is in use: another syncmon daemon (pid $main)" "$work/second.txt" \
    || fail "second daemon: $(cat "$work/second.txt")"
rc=0; in_ns /usr/local/bin/syncmon daemon --log-target stderr --state-dir /tmp/by-hand >"$work/third.txt" 2>&1 || rc=$?
[ "$rc" = 73 ] || fail "a second daemon on the service's socket exited $rc: $(cat "$work/third.txt")"
grep -q "the events socket /run/syncmon/events.sock is in use" "$work/third.txt" || fail "third daemon: $(cat "$work/third.txt")"
in_ns test -S /run/syncmon/events.sock || fail "events.sock gone after a second daemon tried it"
before=$(received)
emit heartbeat || fail "emit after a second daemon"
wait_for 10 at_least $((before + 1)) || fail "the service no longer hears events after a second daemon tried"
echo "ok: a daemon started by hand exits 73 (state directory, then socket); the service still hears engines"

in_ns sh -c 'printf "[Service]\nWatchdogSec=3s\n" >/etc/systemd/system/syncmon.service.d/watchdog.conf && systemctl daemon-reload'
in_ns systemctl restart syncmon.service || fail "restart"
sleep 10
in_ns systemctl is-active --quiet syncmon.service || fail "not active after 10 s with WatchdogSec=3s"
[ "$(in_ns systemctl show -p NRestarts --value syncmon.service)" = 0 ] || fail "restarted by the watchdog"
echo "ok: 10 s with WatchdogSec=3s, no watchdog restart"

in_ns systemctl stop syncmon.service
in_ns test -S /run/syncmon/events.sock || fail "events.sock removed when the service stopped"
emit heartbeat || fail "emit while stopped"
wait_for 30 in_ns systemctl is-active --quiet syncmon.service || fail "not re-activated by a connection"
wait_for 10 at_least 1 || fail "the event sent while stopped was lost"
echo "ok: stopped service: socket kept; an event sent then re-activated it and was received"

# A canary (docs/canary.md) in a folder of the engine's user alice. Under the unit as shipped
# /home is out of reach (exit 78 naming the path); with the drop-in of docs/canary.md it writes.
in_ns useradd -m -U alice || fail "useradd alice"
in_ns install -d -o alice -g alice -m 0755 /home/alice/Sync || fail "alice's folder"
in_ns runuser -u alice -- install -d -m 2775 /home/alice/Sync/.syncmon || fail "alice's .syncmon"
in_ns sh -c 'mkdir -p /etc/syncmon && printf "[canary lab/sync]\npath = /home/alice/Sync\nhost = sandbox\ninterval = 1s\n" >/etc/syncmon/syncmon.conf'
canary_error() { curl -fsS "http://127.0.0.1:$port/api/v1/status" | python3 -c 'import json,sys; r=[e for e in json.load(sys.stdin)["engines"] if e["engine"]=="lab"]; print(r[0]["canary"]["error"] if r else "no pair")'; }
writes() { [ "$(canary_error)" = None ]; }
refused() { [ "$(in_ns systemctl show -p ExecMainStatus --value syncmon.service)" = 78 ]; }
in_ns systemctl restart syncmon.service && fail "syncmon started with a canary it cannot reach (ProtectHome=yes)"
wait_for 10 refused || fail "no exit 78 for the canary it cannot reach"
# journald writes the unit's stderr a moment after systemd sees it exit: read until it is there.
names_path() { in_ns journalctl -u syncmon.service --no-pager -q | grep -q '/home/alice/Sync'; }
wait_for 10 names_path || fail "the refusal does not name the path"
echo "ok: under the unit as shipped the canary's folder is out of reach: exit 78 naming it"
in_ns sh -c 'printf "[Service]\nProtectHome=tmpfs\nBindReadOnlyPaths=/home/alice/Sync\nBindPaths=/home/alice/Sync/.syncmon\nPrivateUsers=no\nSupplementaryGroups=alice\n" >/etc/systemd/system/syncmon.service.d/canary.conf && systemctl daemon-reload'
in_ns systemctl restart syncmon.service || fail "restart with the canary drop-in"
wait_for 20 in_ns test -f /home/alice/Sync/.syncmon/canary-sandbox.json || fail "no canary written with the drop-in: $(canary_error)"
in_ns runuser -u alice -- cat /home/alice/Sync/.syncmon/canary-sandbox.json >/dev/null || fail "alice cannot read the canary"
wait_for 10 writes || fail "the canary still fails with the drop-in: $(canary_error)"
echo "ok: with the drop-in of docs/canary.md the canary writes /home/alice/Sync/.syncmon/canary-sandbox.json, readable by alice"

echo "test-unit-sandbox: all checks passed"
