#!/usr/bin/env bash
# The detection matrix's unit, job and host faults (docs/detection.md), on real components:
# systemd 252 as PID 1 in the sandbox of scripts/test-unit-sandbox.sh (package mode; a veth pair
# gives it a default route, another a link to a second network namespace), real unison -repeat,
# lsyncd, rsync, restic and rclone (bisync, and wrapped with its own metrics) run by timers, a
# crash-looping and a killed service; syncmon following each with a unit: source or `syncmon
# wrap`, Debian's prometheus-node-exporter with its systemd collector beside it, and a
# healthchecks-style dead man's switch computed from the jobs' runs.
#
# First every setup runs healthy for HEALTHY seconds, each column's alarms counted; then each
# fault is injected and, polled every 0.25 s, the time until syncmon shows the expected verdict
# and until node_exporter shows the unit failed is measured; the unit's own ActiveState and the
# job's exit code are read when syncmon answered. One JSON object a line goes to OUT.
#   scripts/detection/units.sh OUT [HEALTHY]    (HEALTHY: seconds, default 30)
# Needs root and what scripts/test-units-e2e.sh needs, plus prometheus-node-exporter and rclone.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$(readlink -f "$1")
healthy=${2:-30}
syncmon_binary=$(readlink -f "${SYNCMON_BINARY:-.build/debug/syncmon}")
[ -x "$syncmon_binary" ] || { echo "detection/units: no binary at $syncmon_binary" >&2; exit 1; }
for tool in dbus-daemon unison rsync rclone prometheus-node-exporter; do
    command -v "$tool" >/dev/null || { echo "detection/units: $tool is not installed (scripts/install-deps.sh --test)" >&2; exit 1; }
done
here=$PWD/scripts/detection
SYNCMON_SANDBOX_MODE=package source scripts/test-unit-sandbox.sh  # (it changes the directory)
say() { echo "detection/units: $*"; }
fail() {
    echo "detection/units: FAIL: $*" >&2
    in_ns journalctl -u syncmon-dm --no-pager -n 100 -o cat >&2 || true
    exit 1
}
wait_for 20 in_ns systemctl is-active --quiet systemd-journald.socket || fail "journald socket not active"
in_ns systemctl start dbus.socket dbus.service || fail "dbus did not start"
in_ns sh -c 'cat >/usr/local/bin/syncmon' <"$syncmon_binary"
in_ns chmod 755 /usr/local/bin/syncmon
# The measuring scripts, copied in: the container has a /tmp of its own, where a clone may live.
for file in inside.py common.py; do
    in_ns sh -c "mkdir -p /usr/local/lib/syncmon-detection && cat >/usr/local/lib/syncmon-detection/$file" <"$here/$file"
done
inside=/usr/local/lib/syncmon-detection/inside.py

# The jobs run every PERIOD seconds; syncmon's no-recent-export-after is PERIOD + GRACE, the
# same as the dead man's switch's period and grace, so that the two are compared fairly.
period=3
grace=6
in_ns env PERIOD=$period GRACE=$grace sh -e <<'SETUP'
mkdir -p /srv/a /srv/b /srv/src /srv/dst /srv/msrc /srv/mdst /srv/p1 /srv/p2 /root
for i in $(seq 1 50); do for d in a src msrc p1; do echo "$i" >/srv/$d/file-$i; done; done
unit() { cat >"/etc/systemd/system/$1"; }
unit unison-dm.service <<U
[Service]
Environment=HOME=/root
ExecStart=/usr/bin/unison /srv/a /srv/b -batch -repeat 1 -confirmbigdel=false
U
unit crashy.service <<U
[Unit]
StartLimitIntervalSec=0
[Service]
ExecStart=/bin/sh -c "echo starting; sleep 0.5; echo 'cannot open /srv/missing: No such file or directory'; exit 3"
Restart=always
RestartSec=100ms
U
unit victim.service <<U
[Service]
ExecStart=/bin/sleep infinity
U
# More jobs and services, each broken by one fault below: an rsync into a 1 MiB tmpfs, an
# rsync run as nobody, a second bisync, rclone to a WebDAV server with a password, a service
# under a start limit, restic to a second repository, lsyncd, a second unison (with unison's
# default check for a replica emptied: confirmbigdel).
mkdir -p /srv/asrc /srv/full /srv/psrc /srv/pdst /srv/q1 /srv/q2 /srv/lsrc /srv/ldst /srv/u1 /srv/u2 /srv/webdav2
for i in $(seq 1 50); do for d in asrc psrc q1 lsrc u1; do echo "$i" >/srv/$d/file-$i; done; done
mount -t tmpfs -o size=1m tmpfs /srv/full
chown -R nobody /srv/psrc /srv/pdst
for job in backup mirror bisync offsite vault pull archive photos bisync2 courier coffer keeper ferry uplink; do
unit $job.timer <<U
[Timer]
OnActiveSec=0
OnUnitInactiveSec=${PERIOD}s
AccuracySec=100ms
U
done
unit backup.service <<U
[Service]
Type=oneshot
ExecStart=/usr/bin/rsync -a /srv/src/ /srv/dst/
U
unit mirror.service <<U
[Service]
Type=oneshot
ExecStart=/usr/bin/rsync -a /srv/msrc/ /srv/mdst/
U
unit bisync.service <<U
[Service]
Type=oneshot
Environment=HOME=/root
ExecStart=/usr/bin/rclone bisync /srv/p1 /srv/p2
U
# Jobs run by `syncmon wrap`: rclone to a WebDAV server, restic to a local repository, rsync
# from an rsync daemon, each server on loopback.
unit webdav-dm.service <<U
[Service]
ExecStart=/usr/bin/rclone serve webdav /srv/webdav --addr 127.0.0.1:8081
U
wrap() { echo "/usr/local/bin/syncmon wrap --events-socket /run/syncmon-dm.sock --engine $1 --phase $2 --"; }
unit offsite.service <<U
[Service]
Type=oneshot
Environment=HOME=/root
ExecStart=$(wrap offsite export) /usr/bin/rclone sync /srv/src :webdav: --webdav-url http://127.0.0.1:8081 --rc --rc-addr 127.0.0.1:5572 --rc-enable-metrics --retries 1 --low-level-retries 1 --contimeout 2s --timeout 5s
U
echo secret >/etc/restic-pw
HOME=/root RESTIC_PASSWORD_FILE=/etc/restic-pw restic -q -r /srv/repo init >/dev/null
unit vault.service <<U
[Service]
Type=oneshot
Environment=HOME=/root RESTIC_PASSWORD_FILE=/etc/restic-pw
ExecStart=$(wrap vault export) /usr/bin/restic -r /srv/repo backup /srv/src
U
head -c 2000000 /dev/urandom >/srv/big.bin
printf '[mod]\npath = /srv\nread only = yes\nuid = root\ngid = root\n' >/etc/rsyncd-dm.conf
unit rsyncd-dm.service <<U
[Service]
ExecStart=/usr/bin/rsync --daemon --no-detach --port=8873 --address=127.0.0.1 --config=/etc/rsyncd-dm.conf
U
unit pull.service <<U
[Service]
Type=oneshot
ExecStart=$(wrap pull import) /usr/bin/rsync -a rsync://127.0.0.1:8873/mod/big.bin /srv/pulled/
U
mkdir -p /srv/webdav /srv/pulled
unit archive.service <<U
[Service]
Type=oneshot
ExecStart=/usr/bin/rsync -a /srv/asrc/ /srv/full/
U
unit photos.service <<U
[Service]
Type=oneshot
User=nobody
ExecStart=/usr/bin/rsync -a /srv/psrc/ /srv/pdst/
U
unit bisync2.service <<U
[Service]
Type=oneshot
Environment=HOME=/root
ExecStart=/usr/bin/rclone bisync /srv/q1 /srv/q2
U
echo right >/etc/webdav2-pass
unit webdav2-dm.service <<U
[Service]
ExecStart=/bin/sh -c 'exec /usr/bin/rclone serve webdav /srv/webdav2 --addr 127.0.0.1:8082 --user courier --pass "\$(cat /etc/webdav2-pass)"'
U
unit courier.service <<U
[Service]
Type=oneshot
Environment=HOME=/root
ExecStart=/bin/sh -c '$(wrap courier export) /usr/bin/rclone sync /srv/src :webdav: --webdav-url http://127.0.0.1:8082 --webdav-user courier --webdav-pass "\$(rclone obscure right)" --rc --rc-addr 127.0.0.1:5573 --rc-enable-metrics --retries 1 --low-level-retries 1 --contimeout 2s --timeout 5s'
U
unit flaky.service <<U
[Unit]
StartLimitIntervalSec=60
StartLimitBurst=3
[Service]
ExecStart=/bin/sh -c 'if [ -e /srv/flaky-broken ]; then echo "cannot bind 127.0.0.1:8090: Address already in use"; exit 1; fi; exec sleep infinity'
Restart=on-failure
RestartSec=200ms
U
HOME=/root RESTIC_PASSWORD_FILE=/etc/restic-pw restic -q -r /srv/repo2 init >/dev/null
unit coffer.service <<U
[Service]
Type=oneshot
Environment=HOME=/root RESTIC_PASSWORD_FILE=/etc/restic-pw
ExecStart=$(wrap coffer export) /usr/bin/restic -r /srv/repo2 backup /srv/src
U
cat >/etc/lsyncd-dm.lua <<U
settings { nodaemon = true, insist = true }
sync { default.rsync, source = "/srv/lsrc", target = "/srv/ldst", delay = 1 }
U
unit lsyncd-dm.service <<U
[Service]
ExecStart=/usr/bin/lsyncd -nodaemon /etc/lsyncd-dm.lua
U
unit unison2-dm.service <<U
[Service]
Environment=HOME=/root
ExecStart=/usr/bin/unison /srv/u1 /srv/u2 -batch -repeat 1
U
# Four more, each broken by one fault below. keeper: restic's nightly forget --prune, which needs
# the repository's exclusive lock (a backup that hangs holds a lock of its own). lsyncd2: lsyncd
# to an rsync daemon, its status file written every second. ferry: rsync from a server on the
# other side of a link (a second network namespace, "the other host"). uplink: a job that stays
# healthy, whose row is the host losing its default route (the container's route goes through
# a veth pair: syncmon follows the host's network here).
HOME=/root RESTIC_PASSWORD_FILE=/etc/restic-pw restic -q -r /srv/repo3 init >/dev/null
HOME=/root RESTIC_PASSWORD_FILE=/etc/restic-pw restic -q -r /srv/repo3 backup /srv/src >/dev/null
unit keeper.service <<U
[Service]
Type=oneshot
Environment=HOME=/root RESTIC_PASSWORD_FILE=/etc/restic-pw
ExecStart=$(wrap keeper export) /usr/bin/restic -r /srv/repo3 forget --keep-last 3 --prune
U
mkdir -p /srv/l2src /srv/l2dst /srv/fdst /srv/udst
for i in $(seq 1 20); do echo "$i" >/srv/l2src/file-$i; done
printf '[dst]\npath = /srv/l2dst\nread only = no\nuid = root\ngid = root\n' >/etc/rsyncd2-dm.conf
unit rsyncd2-dm.service <<U
[Service]
ExecStart=/usr/bin/rsync --daemon --no-detach --port=8874 --address=127.0.0.1 --config=/etc/rsyncd2-dm.conf
U
cat >/etc/lsyncd2-dm.lua <<U
settings { nodaemon = true, insist = true, statusFile = "/run/lsyncd2.status", statusInterval = 1 }
sync { default.rsync, source = "/srv/l2src", target = "rsync://127.0.0.1:8874/dst/", delay = 1 }
U
unit lsyncd2-dm.service <<U
[Service]
ExecStart=/usr/bin/lsyncd -nodaemon /etc/lsyncd2-dm.lua
U
ip link add uplink0 type veth peer name uplink1
ip addr add 10.77.0.1/24 dev uplink0
ip link set uplink0 up
ip link set uplink1 up
ip route add default via 10.77.0.2
ip netns add remote
ip link add lan0 type veth peer name lan1 netns remote
ip addr add 10.78.0.1/24 dev lan0
ip link set lan0 up
ip -n remote addr add 10.78.0.2/24 dev lan1
ip -n remote link set lan1 up
ip -n remote link set lo up
printf '[mod]\npath = /srv\nread only = yes\nuid = root\ngid = root\n' >/etc/rsyncd3-dm.conf
unit rsyncd3-dm.service <<U
[Service]
ExecStart=/usr/bin/ip netns exec remote /usr/bin/rsync --daemon --no-detach --port=8875 --address=10.78.0.2 --config=/etc/rsyncd3-dm.conf
U
unit ferry.service <<U
[Service]
Type=oneshot
ExecStart=$(wrap ferry import) /usr/bin/rsync -a rsync://10.78.0.2:8875/mod/big.bin /srv/fdst/
U
unit uplink.service <<U
[Service]
Type=oneshot
ExecStart=/usr/bin/rsync -a /srv/src/ /srv/udst/
U
cat >/etc/syncmon-dm.conf <<U
listen = 127.0.0.1:9478
events-socket = /run/syncmon-dm.sock
state-dir = /var/lib/syncmon-dm
subscribe = unison=unit:unison-dm.service?rules=unison
subscribe = crashy=unit:crashy.service
subscribe = victim=unit:victim.service
subscribe = backup=unit:backup.timer?phase=export
subscribe = mirror=unit:mirror.timer?phase=export
subscribe = bisync=unit:bisync.timer?rules=rclone-bisync&phase=export
subscribe = archive=unit:archive.timer?phase=export
subscribe = photos=unit:photos.timer?phase=export
subscribe = bisync2=unit:bisync2.timer?rules=rclone-bisync&phase=export
subscribe = flaky=unit:flaky.service
subscribe = lsyncd=unit:lsyncd-dm.service?rules=lsyncd&phase=export
subscribe = unison2=unit:unison2-dm.service?rules=unison
subscribe = lsyncd2=unit:lsyncd2-dm.service?rules=lsyncd&phase=export
subscribe = uplink=unit:uplink.timer?phase=export
[engine lsyncd2]
no-progress-after = 10s
[engine keeper]
no-recent-export-after = $((PERIOD + GRACE))s
[engine ferry]
no-progress-after = 10s
no-recent-import-after = $((PERIOD + GRACE))s
[engine uplink]
no-recent-export-after = $((PERIOD + GRACE))s
[engine unison]
no-progress-after = 10s
[engine unison2]
no-progress-after = 10s
[engine archive]
no-recent-export-after = $((PERIOD + GRACE))s
[engine photos]
no-recent-export-after = $((PERIOD + GRACE))s
[engine bisync2]
no-recent-export-after = $((PERIOD + GRACE))s
[engine courier]
no-recent-export-after = $((PERIOD + GRACE))s
[engine coffer]
no-recent-export-after = $((PERIOD + GRACE))s
[engine backup]
no-recent-export-after = $((PERIOD + GRACE))s
[engine mirror]
no-recent-export-after = $((PERIOD + GRACE))s
[engine bisync]
no-recent-export-after = $((PERIOD + GRACE))s
[engine offsite]
no-recent-export-after = $((PERIOD + GRACE))s
[engine pull]
no-progress-after = 10s
U
HOME=/root rclone bisync /srv/p1 /srv/p2 --resync >/dev/null 2>&1
HOME=/root rclone bisync /srv/q1 /srv/q2 --resync >/dev/null 2>&1
systemctl daemon-reload
systemctl start unison-dm.service crashy.service victim.service webdav-dm.service rsyncd-dm.service webdav2-dm.service
systemctl start flaky.service lsyncd-dm.service unison2-dm.service rsyncd2-dm.service rsyncd3-dm.service
systemctl start lsyncd2-dm.service keeper.timer ferry.timer uplink.timer
systemctl start backup.timer mirror.timer bisync.timer offsite.timer vault.timer pull.timer
systemctl start archive.timer photos.timer bisync2.timer courier.timer coffer.timer
SETUP
in_ns systemctl stop crashy.service  # started with the rest only to be loaded; its fault comes later
in_ns systemd-run --unit=syncmon-dm --property=Type=simple /usr/local/bin/syncmon daemon --config /etc/syncmon-dm.conf >/dev/null
in_ns systemd-run --unit=node-exporter-dm --property=Type=simple /usr/bin/prometheus-node-exporter \
    --web.listen-address=127.0.0.1:9100 --collector.disable-defaults --collector.systemd >/dev/null
answers() { in_ns curl -fsS http://127.0.0.1:9478/healthz >/dev/null && in_ns curl -fsS http://127.0.0.1:9100/metrics >/dev/null; }
wait_for 30 answers || fail "syncmon or node_exporter did not answer"

# The looks at every column are taken inside the container by scripts/detection/inside.py
# (python3 from the host's /, read-only below the overlay; the scripts copied in above).
# One looker serves every measurement (see inside.py); it stops when told, or 15 minutes after the healthy run.
in_ns python3 "$inside" sample $((healthy + 900)) &
sampler=$!
say "healthy for $healthy s: every column's alarms counted"
in_ns python3 "$inside" healthy "$healthy" >"$work/healthy.json" || fail "the healthy run did not finish"
python3 -c "import json,sys; r=json.load(open(sys.argv[1])); r['setup']='units'; print(json.dumps(r))" "$work/healthy.json" >>"$out"

# EXPECTED is the summary, with the failure code after a colon when the tool's words give one.
# Each fault breaks a unit of its own, so they are injected and measured side by side (one after
# another they took 4 minutes); the rows are appended in the order below once all are done.
rows=$(mktemp -d /tmp/detection-rows.XXXXXX)
fault_names=()
fault_pids=()
# A disk that goes while restic writes to it makes restic retry for minutes (its backend's
# backoff): stalled at T, not an error. Its row breaks the repository between two runs.
between_runs='until [ "$(systemctl show -p ActiveState --value "$0")" != activating ]; do sleep 0.05; done'
between_runs="sh -c '$between_runs'"
fault() {  # fault NAME ENGINE EXPECTED THRESHOLD DESCRIPTION COMMAND — injects, measures, appends a row
    local name=$1 engine=$2 expected=$3 threshold=$4 description=$5
    shift 5
    say "$name: $description"
    in_ns python3 "$inside" measure "$name" "$engine" "$expected" "$threshold" "$description" "$period" "$grace" "$@" \
        >"$rows/${#fault_names[@]}.json" &
    fault_pids+=($!)
    fault_names+=("$name")
}
fault crash-loop crashy error 0 "a service crash-looping (Restart=always, exit 3 every 0.5 s)" \
    systemctl start crashy.service
fault sigkill victim engine_down 0 "a running service killed with SIGKILL (as the OOM killer does)" \
    systemctl kill -s KILL victim.service
# A job's fault shows at its next run, which may itself take seconds: T is the dead man's
# switch's period + grace for those.
fault job-failing mirror error:partialTransfer $((period + grace)) "a timer's rsync failing at every run (its source gone: exit 23)" \
    sh -c 'rm -rf /srv/msrc'
fault timer-stopped backup stalled $((period + grace)) "a job that never runs again (its timer stopped)" \
    systemctl stop backup.timer
fault bisync-resync bisync error:resyncRequired $((period + grace)) "rclone bisync's listings lost: \"Must run --resync\" at every run (exit 2)" \
    sh -c 'rm -rf /root/.cache/rclone/bisync'
fault unison-conflict unison error:conflictsSkipped 0 "unison -repeat: both replicas changed one file; it skips the conflict and runs on" \
    sh -c 'echo left >/srv/a/file-1; echo right >/srv/b/file-1'
# rclone calls it temporary (exit 5): syncmon shows retrying at the first failed run, and the alarm
# (stalled, no_recent_export) when no run has succeeded for T.
fault rclone-unreachable offsite stalled $((period + grace)) "syncmon wrap rclone: the WebDAV remote unreachable (its server stopped)" \
    systemctl stop webdav-dm.service
fault restic-password vault error $((period + grace)) "syncmon wrap restic: the repository's password changed (\"wrong password\")" \
    sh -c 'echo wrong >/etc/restic-pw'
fault rsync-hung pull stalled 10 "syncmon wrap rsync: the transfer hangs (the rsync daemon SIGSTOPped)" \
    systemctl kill -s STOP rsyncd-dm.service
fault disk-full archive error:fileIOError $((period + grace)) "a timer's rsync into a full file system (\"No space left on device\": exit 11)" \
    sh -c 'head -c 3000000 /dev/urandom >/srv/asrc/big.bin'
fault permission-denied photos error:partialTransfer $((period + grace)) "a timer's rsync, run as nobody, cannot read a source file (\"Permission denied\": exit 23)" \
    sh -c 'chmod 000 /srv/psrc/file-1; touch /srv/psrc/file-1'
fault bisync-mass-delete bisync2 error $((period + grace)) "rclone bisync's safety abort: most files deleted on one side (\"too many deletes\")" \
    sh -c 'for i in $(seq 1 40); do rm /srv/q1/file-$i; done'
fault rclone-auth courier error $((period + grace)) "syncmon wrap rclone: the WebDAV server's password changed (401 Unauthorized)" \
    sh -c 'echo changed >/etc/webdav2-pass; systemctl restart webdav2-dm.service'
fault start-limit flaky engine_down 5 "a service that fails at every restart until systemd's start limit stops it" \
    sh -c 'touch /srv/flaky-broken; systemctl kill -s KILL flaky.service'
fault restic-repository-gone coffer error:fatal $((period + grace)) "syncmon wrap restic: the repository's disk not mounted (\"unable to open config file\")" \
    sh -c "$between_runs coffer.service; mv /srv/repo2 /srv/repo2.away"
fault config-broken lsyncd engine_down 5 "a configuration edit that breaks the service at its restart (lsyncd's Lua)" \
    sh -c 'echo "sync {" >>/etc/lsyncd-dm.lua; systemctl restart lsyncd-dm.service'
fault unison-root-gone unison2 engine_down 5 "unison -repeat: one replica's root gone (a disk not mounted): unison stops rather than delete the other" \
    rm -rf /srv/u2
fault restic-locked keeper error:fatal $((period + grace)) "syncmon wrap restic: the nightly forget --prune finds the repository locked (a hung backup holds it)" \
    systemd-run --quiet --unit=restic-hung -p Environment=HOME=/root -p Environment=RESTIC_PASSWORD_FILE=/etc/restic-pw \
    bash -c 'until restic -r /srv/repo3 backup --stdin --stdin-filename db.sql < <(exec sleep infinity); do sleep 0.2; done'
fault lsyncd-backlog lsyncd2 stalled 10 "lsyncd's backlog growing: its rsync to the server hangs (the rsync daemon SIGSTOPped) while files keep changing" \
    sh -c 'systemctl kill -s STOP rsyncd2-dm.service; for i in $(seq 1 30); do echo new >/srv/l2src/new-$i; done'
fault partition ferry stalled $((period + grace)) "the network partitioned: the link to the rsync server's host goes dark (its side of the veth down)" \
    ip -n remote link set lan1 down
for index in "${!fault_pids[@]}"; do
    wait "${fault_pids[$index]}" || fail "${fault_names[$index]}: the measurement failed"
    cat "$rows/$index.json" >>"$out"
done
# The host's own fault last and alone: with its default route gone every pair is no_network.
say "default-route: the host's default route deleted"
in_ns python3 "$inside" measure default-route uplink no_network 0 "the host loses its default route (every pair is no_network; uplink, a healthy job, stands for them)" \
    "$period" "$grace" ip route del default >>"$out" || fail "default-route: the measurement failed"
rm -rf "$rows"
in_ns touch /run/syncmon-detection/stop
wait "$sampler" || fail "the looker failed"
say "done: $(wc -l <"$out") rows in $out"
