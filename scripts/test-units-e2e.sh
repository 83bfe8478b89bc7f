#!/usr/bin/env bash
# unit: sources end to end (docs/systemd-units.md) on real components:
# systemd 252 as PID 1 in the sandbox of scripts/test-unit-sandbox.sh (package mode: none of
# syncmon's files, loopback only), with D-Bus and journald, real unison -repeat, lsyncd, a
# timer's oneshot rsync, a crash-looping service, a service killed with SIGKILL, a timer that
# stops firing, a unit that appears after syncmon started, a rules file edited under SIGHUP, a
# chatty unit and a journal vacuumed under the cursor. syncmon runs there as root with one unit:
# source each, and the verdicts are read from `syncmon status` and /metrics.
# Needs root, unshare, overlayfs, cgroup2, dbus, unison, lsyncd, rsync; exits 77 (skip) where the
# sandbox cannot be built. Takes ~1 minute.
#   scripts/test-units-e2e.sh [SYNCMON_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
syncmon_binary=$(readlink -f "${1:-${SYNCMON_BINARY:-.build/debug/syncmon}}")
[ -x "$syncmon_binary" ] || { echo "test-units-e2e: no binary at $syncmon_binary" >&2; exit 1; }
for tool in dbus-daemon unison lsyncd rsync; do
    command -v "$tool" >/dev/null || { echo "test-units-e2e: $tool is not installed (scripts/install-deps.sh --test)" >&2; exit 1; }
done
SYNCMON_SANDBOX_MODE=package source scripts/test-unit-sandbox.sh
step() { echo "test-units-e2e: $*"; }
fail() {
    echo "test-units-e2e: FAIL: $*" >&2
    in_ns journalctl -u syncmon-e2e --no-pager -n 400 -o cat >&2 || true
    status >&2
    in_ns curl -fsS http://127.0.0.1:9478/metrics 2>/dev/null | grep -E '^syncmon_(phase_runs_total|unit_restarts_total|engine_up)' >&2 || true
    in_ns systemctl status --no-pager crashy.service >&2 || true
    exit 1
}
wait_for 20 in_ns systemctl is-active --quiet systemd-journald.socket || fail "journald socket not active"
in_ns systemctl start dbus.socket dbus.service || fail "dbus did not start"
in_ns sh -c 'cat >/usr/local/bin/syncmon' <"$syncmon_binary"
in_ns chmod 755 /usr/local/bin/syncmon

# The services, as an operator has them (none knows syncmon).
in_ns sh -e <<'EOF'
mkdir -p /srv/a /srv/b /srv/la /srv/lb /srv/src /srv/dst /root
# Enough files that a scan takes a moment (a SIGSTOP below lands inside a cycle). /srv/b starts
# as a copy: a first cycle that copied 6,000 files took over 30 s on a slow CI machine.
for i in $(seq 1 6000); do echo "$i" > /srv/a/file-$i; done
cp -a /srv/a/. /srv/b/
cat >/etc/systemd/system/unison-docs.service <<U
[Service]
Environment=HOME=/root
ExecStart=/usr/bin/unison /srv/a /srv/b -batch -repeat 1 -confirmbigdel=false
U
cat >/etc/lsyncd-docs.lua <<U
settings { nodaemon = true, insist = true }
sync { default.rsync, source = "/srv/la", target = "/srv/lb", delay = 1 }
U
cat >/etc/systemd/system/lsyncd-docs.service <<U
[Service]
ExecStart=/usr/bin/lsyncd -nodaemon /etc/lsyncd-docs.lua
U
cat >/etc/systemd/system/crashy.service <<U
[Unit]
StartLimitIntervalSec=0
[Service]
ExecStart=/bin/sh -c "echo starting; sleep 0.5; echo 'cannot open /srv/missing: No such file or directory'; exit 3"
Restart=always
RestartSec=100ms
U
cat >/etc/systemd/system/mirror.service <<U
[Service]
Type=oneshot
ExecStart=/usr/bin/rsync -a /srv/src/ /srv/dst/
U
cat >/etc/systemd/system/mirror.timer <<U
[Timer]
OnActiveSec=1h
U
cat >/etc/systemd/system/talker.service <<U
[Service]
ExecStart=/bin/sh -c 'i=0; while [ \$i -lt 60 ]; do i=\$((i+1)); echo "tick \$i"; sleep 0.05; done; exec sleep infinity'
U
cat >/etc/syncmon-talker.rules <<U
# A custom rules file: each tick is one fetched record.
[rule tick]
match = ^tick (?<n>[0-9]+)\$
emit = fetchedDatabaseChanges modifications=1 deletions=0
U
cat >/etc/systemd/system/backup.service <<U
[Service]
Type=oneshot
ExecStart=/bin/true
U
cat >/etc/systemd/system/backup.timer <<U
[Timer]
OnActiveSec=1s
OnUnitActiveSec=2s
AccuracySec=100ms
U
: >/srv/echo.in
cat >/etc/systemd/system/echoer.service <<U
[Service]
ExecStart=/usr/bin/tail -n0 -F /srv/echo.in
U
cat >/etc/syncmon-echo.rules <<U
[rule ping]
match = ^ping\$
emit = fetchedDatabaseChanges modifications=1 deletions=0
U
cat >/etc/systemd/system/chatty.service <<U
[Service]
# journald's default burst grows with the free disk space (20,000 lines fit here): a low one of
# its own makes journald drop lines, as it would for a chattier unit.
LogRateLimitIntervalSec=30s
LogRateLimitBurst=5000
ExecStart=/bin/sh -c 'seq -f "line %%.0f" 1 20000; exec sleep infinity'
U
cat >/etc/syncmon-chatty.rules <<U
[rule line]
match = ^line [0-9]+\$
emit = fetchedDatabaseChanges modifications=1 deletions=0
U
cat >/etc/systemd/system/victim.service <<U
[Service]
ExecStart=/bin/sleep infinity
U
cat >/etc/syncmon-e2e.conf <<U
listen = 127.0.0.1:9478
events-socket = /run/syncmon-e2e.sock
state-dir = /var/lib/syncmon-e2e
# The sandbox has loopback only: the host view would call every engine no_network.
host-network = off
subscribe = unison=unit:unison-docs.service?rules=unison
subscribe = lsyncd=unit:lsyncd-docs.service?rules=lsyncd&phase=export
subscribe = crashy=unit:crashy.service
subscribe = mirror=unit:mirror.timer?phase=export
subscribe = victim=unit:victim.service
subscribe = ghost=unit:no-such-thing.service
subscribe = talker=unit:talker.service?rules=/etc/syncmon-talker.rules&phase=import
subscribe = backup=unit:backup.timer?phase=export
subscribe = echo=unit:echoer.service?rules=/etc/syncmon-echo.rules&phase=import
subscribe = chatty=unit:chatty.service?rules=/etc/syncmon-chatty.rules&phase=import

[engine unison]
no-progress-after = 5s

[engine backup]
no-recent-export-after = 6s
U
systemctl daemon-reload
systemctl start unison-docs.service lsyncd-docs.service crashy.service victim.service mirror.timer backup.timer echoer.service
EOF

# `status` exits with the Nagios code of what it shows: only its output matters here.
status() { in_ns /usr/local/bin/syncmon status --url http://127.0.0.1:9478 --json || true; }
answers() { status | grep -q '"engines"'; }
field() {  # field ENGINE PYTHON-EXPRESSION-ON-row — prints the value
    status | python3 -c "import json,sys; rows=[r for r in json.load(sys.stdin)['engines'] if r['engine']=='$1']; r=rows[0] if rows else {}; print($2)"
}
stalled_by() { [ "$(field "$1" "' '.join(r.get('stalled', []))")" = "$2" ]; }
export_is() { [ "$(field "$1" "r['export']['state']")" = "$2" ]; }
summary_is() { [ "$(field "$1" "r.get('summary')")" = "$2" ]; }
metric() { in_ns curl -fsS http://127.0.0.1:9478/metrics | awk -v m="$1" 'index($0, m) == 1 {print $2}'; }
runs_at_least() {  # runs_at_least ENGINE PHASE N
    local runs
    runs=$(metric "syncmon_phase_runs_total{engine=\"$1\",database=\"default\",phase=\"$2\"}")
    [ "${runs:-0}" -ge "$3" ]
}

step "a broken rules file stops the start with exit 78, naming file and line"
in_ns sh -c 'printf "[rule a]\nmatch = x\nemit = notAType\n" >/etc/bad.rules'
set +e
out=$(in_ns /usr/local/bin/syncmon daemon --listen 127.0.0.1:9479 --events-socket /run/bad.sock --state-dir /tmp/bad \
    --subscribe 'bad=unit:unison-docs.service?rules=/etc/bad.rules' 2>&1)
code=$?
set -e
[ "$code" = 78 ] || fail "broken rules: exit $code, not 78: $out"
echo "$out" | grep -q '/etc/bad.rules:3:' || fail "broken rules: no file:line in: $out"
[ "$(echo "$out" | grep -c 'syncmon daemon:')" = 1 ] || fail "broken rules: not said exactly once: $out"

start_syncmon() {
    # A stop must end cleanly (exit 0 on SIGTERM): a failed transient unit would stay loaded.
    result=$(in_ns systemctl show -p Result,ExecMainCode,ExecMainStatus syncmon-e2e.service | tr '\n' ' ')
    case "$result" in *Result=success*|"") ;; *)
        in_ns journalctl -u syncmon-e2e --no-pager -n 60 -o cat >&2 || true
        fail "syncmon did not stop cleanly: $result" ;;
    esac
    in_ns systemd-run --unit=syncmon-e2e --property=Type=simple /usr/local/bin/syncmon daemon --config /etc/syncmon-e2e.conf --log-level debug >/dev/null
    wait_for 20 answers || fail "syncmon did not answer"
}
step "the daemon starts with ten unit: sources"
start_syncmon

step "unison: cycles seen through the unison pack"
wait_for 60 summary_is unison succeeded || fail "unison not succeeded: $(status)"
wait_for 20 runs_at_least unison import 3 \
    || fail "unison: fewer than 3 import cycles"

step "unison: SIGSTOP inside a cycle is no_progress"
stopped_in_cycle=""
for _ in $(seq 1 200); do
    in_ns systemctl kill -s STOP unison-docs.service
    last=$(in_ns journalctl -u unison-docs.service -n 1 -o cat --no-pager 2>/dev/null || true)
    if [ "$last" = "Looking for changes" ]; then stopped_in_cycle=yes; break; fi
    in_ns systemctl kill -s CONT unison-docs.service
    sleep 0.05
done
[ -n "$stopped_in_cycle" ] || fail "could not stop unison inside a cycle"
wait_for 20 stalled_by unison no_progress || fail "unison: no no_progress under SIGSTOP: $(status)"
in_ns systemctl kill -s CONT unison-docs.service

step "unison: systemctl stop is stopped"
in_ns systemctl stop unison-docs.service
wait_for 15 summary_is unison stopped || fail "unison not stopped: $(status)"

step "lsyncd: transfers seen; killed is engine_down"
in_ns sh -c 'echo hello >/srv/la/new-file'
wait_for 20 summary_is lsyncd succeeded || fail "lsyncd not succeeded: $(status)"
in_ns systemctl kill -s KILL lsyncd-docs.service
wait_for 15 summary_is lsyncd engine_down || fail "lsyncd not engine_down: $(status)"

step "crash loop: error at every look, restarts counted"
wait_for 15 summary_is crashy error || fail "crashy not error: $(status)"
for _ in $(seq 1 8); do summary_is crashy error || fail "crashy was $(field crashy "r.get('summary')") between crashes"; sleep 0.3; done
restarts=$(in_ns curl -fsS http://127.0.0.1:9478/metrics | awk '/^syncmon_unit_restarts_total\{engine="crashy"/{print $2}')
[ "${restarts:-0}" -ge 2 ] || fail "crashy: syncmon_unit_restarts_total ${restarts:-absent}"

step "SIGKILL: engine_down with signalSIGKILL"
wait_for 10 summary_is victim not_started || fail "victim not up: $(status)"
in_ns systemctl kill -s KILL victim.service
wait_for 15 summary_is victim engine_down || fail "victim not engine_down: $(status)"
status | grep -q signalSIGKILL || fail "victim: no signalSIGKILL in $(status)"

step "timer's oneshot rsync: a run succeeds, a failing run is an error with rsync's code"
in_ns sh -c 'echo data >/srv/src/x'
in_ns systemctl start mirror.service
wait_for 15 export_is mirror succeeded || fail "mirror: export not succeeded: $(status)"
in_ns sh -c 'rm -rf /srv/src'
in_ns systemctl start mirror.service || true
wait_for 15 summary_is mirror error || fail "mirror: not error after a failed run: $(status)"
status | grep -q partialTransfer || fail "mirror: no rsync code (partialTransfer) in $(status)"

step "a custom rules file; syncmon restarted while entries are written: none lost, none repeated"
source_up() { [ "$(metric 'syncmon_source_up{source="talker"}')" = 1 ]; }
wait_for 10 source_up || fail "talker source not up"
in_ns systemctl start talker.service
sleep 1  # a time to let ticks be written before the restart, not a wait for a condition
if [ -z "${E2E_NO_RESTART:-}" ]; then in_ns systemctl stop syncmon-e2e.service
wait_for 10 sh -c "! nsenter -t $inner -m -p -u -i -n -r -w -- systemctl is-active --quiet syncmon-e2e.service" || fail "syncmon did not stop"
start_syncmon; fi
ticks() { in_ns journalctl -u talker.service -o cat --no-pager | grep -c '^tick ' || true; }
wait_for 20 sh -c "[ \"\$(nsenter -t $inner -m -p -u -i -n -r -w -- journalctl -u talker.service -o cat --no-pager | grep -c '^tick ')\" = 60 ]" \
    || fail "talker did not write its 60 ticks"
counted() { [ "$(metric 'syncmon_records_fetched_total{engine="talker",database="default",change="modification"}')" = 60 ]; }
wait_for 10 counted || fail "talker: $(metric 'syncmon_records_fetched_total{engine="talker",database="default",change="modification"}') ticks counted, not 60 (lost or repeated across the restart)"

step "a missing unit is a logged notice and an unknown pair, a normal one once it appears"
log=$(in_ns journalctl -u syncmon-e2e --no-pager -o cat)
grep -q 'no-such-thing.service: the unit is not loaded' <<<"$log" || fail "no notice for the missing unit"
summary_is ghost unknown || fail "ghost: the missing unit's pair is not unknown: $(status)"
[ "$(metric 'syncmon_status{engine="ghost",database="default",status="unknown"}')" = 1 ] \
    || fail "ghost: syncmon_status{status=\"unknown\"} is not 1"
[ "$(metric 'syncmon_engine_up{engine="ghost",database="default"}')" = 0 ] || fail "ghost: a unit systemd does not know counts as up"
status | grep -q '"unknownReason" *: *"unit not-found"' || fail "ghost: the status JSON does not say why it is unknown: $(status)"
in_ns sh -c 'printf "[Service]\nExecStart=/bin/sleep infinity\n" >/etc/systemd/system/no-such-thing.service'
in_ns systemctl daemon-reload
wait_for 15 summary_is ghost stopped || fail "ghost: not stopped once its unit exists (never started): $(status)"
in_ns systemctl start no-such-thing.service
wait_for 15 summary_is ghost not_started || fail "ghost: not up once its unit runs: $(status)"
grep -q 'crashy.service failed (exit3): cannot open /srv/missing' <<<"$log" || fail "no failure message from the journal for crashy"
# The same words are the failure's message in the status (docs/systemd-units.md, docs/protocol.md).
status | grep -q '"message" *: *"cannot open /srv/missing: No such file or directory"' \
    || fail "crashy: the journal line is not the failure's message in $(status)"

step "a timer stopped firing trips no_recent_export"
stall() { metric "syncmon_stalled{engine=\"backup\",database=\"default\",reason=\"no_recent_export\"}"; }
wait_for 15 runs_at_least backup export 3 || fail "backup: the timer's runs were not seen: $(status)"
# The timer has fired every 2 s for longer than the 6 s threshold by now: no stall.
{ [ "$(stall)" = 0 ] && { summary_is backup succeeded || summary_is backup in_progress; }; } || fail "backup: stalled while its timer fires: $(status)"
in_ns systemctl stop backup.timer
stalled_now() { [ "$(stall)" = 1 ]; }
wait_for 15 stalled_now || fail "backup: no no_recent_export 15 s after its timer stopped: $(status)"
summary_is backup stalled || fail "backup: not stalled: $(status)"

step "SIGHUP: a broken rules file keeps the running rules, is logged with file:line and counted; fixed, it applies"
echo_count() { metric 'syncmon_records_fetched_total{engine="echo",database="default",change="modification"}'; }
echo_is() { [ "$(echo_count)" = "$1" ]; }
reload_failures() { metric 'syncmon_rules_reload_failures_total'; }
hup() { in_ns systemctl kill -s HUP syncmon-e2e.service; }
logged() { in_ns journalctl -u syncmon-e2e --no-pager -o cat | grep -qF "$1"; }
in_ns sh -c 'echo ping >>/srv/echo.in'
wait_for 10 echo_is 1 || fail "echo: ping not counted ($(echo_count))"
[ "$(reload_failures)" = 0 ] || fail "rules reload failures before any reload: $(reload_failures)"
in_ns sh -c 'printf "[rule pong]\nmatch = ^pong\$\nemit = notAType\n" >/etc/syncmon-echo.rules'
hup
# 30 s for what the journal shows: each journalctl over this run's busy journal (crashy restarts
# every second) can take seconds under CI load, and 10 s once ended before the reload's line,
# which the journal held when the run failed.
# The counter first (a scrape: quick), then the journal: a failure then says which is missing.
reload_failed() { [ "$(reload_failures)" = 1 ]; }
wait_for 30 reload_failed || fail "syncmon_rules_reload_failures_total is $(reload_failures), not 1, 30 s after SIGHUP"
wait_for 30 logged '/etc/syncmon-echo.rules:3: ' || fail "no reload error naming /etc/syncmon-echo.rules:3"
in_ns sh -c 'echo ping >>/srv/echo.in'
wait_for 10 echo_is 2 || fail "echo: the running rules were not kept after a bad reload ($(echo_count))"
in_ns sh -c 'printf "[rule pong]\nmatch = ^pong\$\nemit = fetchedDatabaseChanges modifications=1 deletions=0\n" >/etc/syncmon-echo.rules'
hup
wait_for 30 logged 'rules file /etc/syncmon-echo.rules reloaded' || fail "the fixed rules file was not reloaded"
# In order: the ping (no rule now) is read before the pong, so once the pong counts the ping did not.
in_ns sh -c 'echo ping >>/srv/echo.in; echo pong >>/srv/echo.in'
wait_for 10 echo_is 3 || fail "echo: the new rules do not apply ($(echo_count))"
[ "$(reload_failures)" = 1 ] || fail "a good reload was counted as failed"

step "a chatty unit: 20,000 lines at once, through journald's rate limit: syncmon counts what journald kept"
main_pid=$(in_ns systemctl show -p MainPID --value syncmon-e2e.service)
cpu_ticks() { in_ns awk '{print $14 + $15}' "/proc/$main_pid/stat"; }
ticks_before=$(cpu_ticks)
in_ns systemctl start chatty.service
chatty_lines() { in_ns journalctl -u chatty.service -o cat --no-pager | grep -c '^line ' || true; }
chatty_counted() { metric 'syncmon_records_fetched_total{engine="chatty",database="default",change="modification"}'; }
# journald has written what it keeps once the unit's journal stops growing (a look a second apart).
settled() { local a; a=$(chatty_lines); sleep 1; [ "$a" -gt 0 ] && [ "$a" = "$(chatty_lines)" ]; }
wait_for 60 settled || fail "chatty: its journal did not settle"
lines=$(chatty_lines)
counted_all() { [ "$(chatty_counted)" = "$lines" ]; }
wait_for 30 counted_all || fail "chatty: $(chatty_counted) lines counted, the journal holds $lines"
cpu=$(( $(cpu_ticks) - ticks_before ))
# journald logs "Suppressed N messages from chatty.service" itself, and only once the unit logs
# again after the interval: not within this test, and never as the unit's own entry.
echo "test-units-e2e: chatty: 20000 lines written, $lines kept by journald, $(chatty_counted) counted, syncmon CPU $((cpu / 100)).$(printf %02d $((cpu % 100))) s"
[ "$lines" -lt 20000 ] || fail "chatty: journald's rate limit dropped nothing ($lines lines kept)"
[ "$cpu" -lt 1500 ] || fail "chatty: syncmon used $cpu ticks of CPU for $lines lines"

step "the bus goes away and comes back (dbus restarted, systemd reexecuted): followed again"
in_ns systemctl restart dbus.service
in_ns systemctl start victim.service
wait_for 20 summary_is victim not_started || fail "victim not seen up after a dbus restart: $(status)"
in_ns systemctl daemon-reexec
in_ns systemctl kill -s KILL victim.service
wait_for 20 summary_is victim engine_down || fail "victim not seen down after a daemon-reexec: $(status)"
# The source's entries carry its name in SYNCMON_SOURCE; MESSAGE is constant.
log=$(in_ns journalctl -u syncmon-e2e SYNCMON_SOURCE=victim --no-pager -o cat)
grep -q 'subscribe source disconnected' <<<"$log" || fail "victim's source never saw the bus go away"
[ "$(grep -c 'subscribe source connected' <<<"$log")" -ge 2 ] || fail "victim's source did not connect again"

step "the journal vacuumed under the cursor while syncmon is down: read on from the oldest entry, the gap counted"
in_ns systemctl stop syncmon-e2e.service
wait_for 10 sh -c "! nsenter -t $inner -m -p -u -i -n -r -w -- systemctl is-active --quiet syncmon-e2e.service" || fail "syncmon did not stop"
in_ns journalctl --rotate --vacuum-files=1 >/dev/null 2>&1
start_syncmon
talker_reconnects() { metric 'syncmon_source_reconnects_total{source="talker"}'; }
gap_counted() { [ "$(talker_reconnects)" -ge 1 ]; }
wait_for 15 gap_counted || fail "talker: the gap was not counted (syncmon_source_reconnects_total $(talker_reconnects))"
logged 'unit source talker: the journal no longer holds the entry it stopped at' || fail "talker: the gap was not logged"

echo "test-units-e2e: PASS"
