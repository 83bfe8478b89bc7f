#!/usr/bin/env bash
# syncmon as a user service (docs/user-sessions.md), under the real service managers: Debian 12's
# systemd 252 as PID 1 of a throw-away container (scripts/test-unit-sandbox.sh, user mode) with
# systemd-logind running, the system syncmon as shipped on 127.0.0.1:9478, and a user alice whose
# own manager (user@1500.service) `loginctl enable-linger` starts. Proves:
#   - the shipped user units start: `systemctl --user enable --now syncmon.socket syncmon.service`,
#     socket-activated from $XDG_RUNTIME_DIR/syncmon/events.sock, Type=notify on the user manager,
#     state under ~/.local/state/syncmon, the seccomp filter on;
#   - 9478 held by the system syncmon: the user daemon serves on 9479, says so in the user's
#     journal and in $XDG_RUNTIME_DIR/syncmon/http-url;
#   - as alice, `syncmon emit` and `syncmon status` reach her daemon without flags; as root,
#     the system's; each sees only its own engines;
#   - her configuration file ~/.config/syncmon/syncmon.conf is read;
#   - `systemctl --user restart` keeps her pair (the state directory), `reload` works;
#   - unit: sources on her manager: her syncmon follows her own units (a crash loop is `error`,
#     `kill -9` is engine_down with signalSIGKILL, a user timer's oneshot rsync gives export
#     runs, a rules file's journal cursor survives a restart: nothing missed, nothing twice);
#     unison -repeat through the unison pack, Debian's own Syncthing user unit (up; kill -9 an
#     error while systemd restarts it); a root syncmon with `user = alice` sees the same units
#     (crash loop, kill -9, timer, unison's lines), `unknown` (`user-manager-absent`)
#     within 10 s of `disable-linger` and back within 10 s of `enable-linger`;
#   - her `desktop = yes` route: one Notify on her session bus (python3-dbusmock's notification
#     server) for the crash loop, naming the pair, its problem and its message, critical.
# Needs root (like the sandbox); exits 77 where it cannot build the container. ~30 s.
#   scripts/test-user-session.sh [SYNCMON_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
export SYNCMON_SANDBOX_MODE=user
# shellcheck source=scripts/test-unit-sandbox.sh
source scripts/test-unit-sandbox.sh "${1:-${SYNCMON_BINARY:-.build/debug/syncmon}}"

as_alice() { in_ns runuser -u alice -- env XDG_RUNTIME_DIR=/run/user/1500 DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1500/bus "$@"; }
user_ctl() { as_alice systemctl --user "$@"; }
# The status JSON whatever its exit status (a pair that is not ok makes it 1 or 2).
alice_status() { as_alice syncmon status --json "$@" || true; }
root_status() { in_ns syncmon status --json "$@" || true; }
alice_sees() { alice_status | grep -q "\"$1\""; }

wait_for 20 in_ns systemctl is-active --quiet systemd-logind.service || fail "systemd-logind did not start"
wait_for 20 in_ns systemctl is-active --quiet syncmon.socket || fail "the system syncmon.socket is not active"
in_ns syncmon emit --engine system-nas --database photos engineStarted >/dev/null || fail "emit to the system syncmon"
wait_for 20 in_ns curl -fsS http://127.0.0.1:9478/healthz || fail "the system syncmon does not serve 127.0.0.1:9478"
echo "ok: the system syncmon serves 127.0.0.1:9478"

# The journal of this container is volatile (/run/log/journal): no user-1500.journal, so alice
# reads her units' lines as a member of systemd-journal (docs/user-sessions.md).
in_ns usermod -aG systemd-journal alice
# The container's journald made its files root:root; the tmpfiles rules a booted Debian applies
# give them to the group systemd-journal (as scripts/test-unit-sandbox.sh does for the system).
in_ns systemd-tmpfiles --create --prefix=/run/log/journal --prefix=/var/log/journal >/dev/null 2>&1 || true
in_ns loginctl enable-linger alice
wait_for 30 in_ns systemctl is-active --quiet user@1500.service || fail "user@1500.service did not start after enable-linger"
echo "ok: enable-linger started alice's manager (user@1500.service)"

as_alice mkdir -p /home/alice/.config/syncmon
as_alice sh -c 'printf "[engine laptop-sync]\nno-recent-import-after = 2h\n" >/home/alice/.config/syncmon/syncmon.conf'
user_ctl enable --now syncmon.socket syncmon.service >/dev/null 2>&1 || fail "systemctl --user enable --now syncmon.socket syncmon.service"
wait_for 30 user_ctl is-active --quiet syncmon.service || { user_ctl status --no-pager syncmon.service >&2 || true; fail "alice's syncmon.service is not active"; }
[ "$(user_ctl show -p Type --value syncmon.service)" = notify ] || fail "the user unit is not Type=notify"
main=$(user_ctl show -p MainPID --value syncmon.service)
[ "$(in_ns stat -c %U /proc/"$main")" = alice ] || fail "alice's syncmon does not run as alice"
[ "$(in_ns awk '/^Seccomp:/{print $2}' /proc/"$main"/status)" = 2 ] || fail "no seccomp filter on alice's syncmon"
in_ns test -S /run/user/1500/syncmon/events.sock || fail "no socket at /run/user/1500/syncmon/events.sock"
echo "ok: alice's syncmon.service active from the shipped user units (Type=notify, seccomp, socket in \$XDG_RUNTIME_DIR)"

wait_for 10 in_ns test -s /run/user/1500/syncmon/http-url || fail "alice's syncmon wrote no http-url"
url=$(in_ns cat /run/user/1500/syncmon/http-url)
[ "$url" = http://127.0.0.1:9479 ] || fail "alice's syncmon serves $url, want http://127.0.0.1:9479 (9478 is the system's)"
# journald stores a line a moment after it is sent: read until it is there.
port_moved() { in_ns journalctl --no-pager -o cat _UID=1500 | grep -q "the default port is taken"; }
wait_for 10 port_moved || fail "the move to 9479 is not in alice's journal"
echo "ok: 9478 taken by the system syncmon: alice's serves $url and says so in the journal"

as_alice syncmon emit --engine laptop-sync --database documents engineStarted >/dev/null || fail "emit as alice, without flags"
as_alice syncmon emit --engine laptop-sync --database documents didFetchChanges >/dev/null || fail "emit as alice, without flags"
wait_for 10 alice_sees laptop-sync || fail "alice's syncmon status does not show her engine"
alice_sees system-nas && fail "alice's status shows the system daemon's engine"
root_status | grep -q '"laptop-sync"' && fail "root's status shows alice's engine"
root_status | grep -q '"system-nas"' || fail "root's status does not show the system engine"
echo "ok: emit and status find alice's daemon as alice and the system's as root, without flags"

in_ns test -f /home/alice/.local/state/syncmon/state.json || wait_for 10 in_ns test -f /home/alice/.local/state/syncmon/state.json ||
    fail "no state in ~/.local/state/syncmon"
user_ctl reload syncmon.service || fail "systemctl --user reload"
user_ctl restart syncmon.service || fail "systemctl --user restart"
wait_for 30 user_ctl is-active --quiet syncmon.service || fail "alice's syncmon not active after restart"
wait_for 10 alice_sees laptop-sync || fail "alice's pair lost across a restart"
echo "ok: reload and restart keep alice's pair (state in ~/.local/state/syncmon)"
in_ns stat -c %a /home/alice/.local/state/syncmon | grep -qx 700 || fail "~/.local/state/syncmon is not 0700"

# unit: sources on alice's manager (docs/user-sessions.md).
# The desktop route below holds 5 s (the default is 5 min): a crash's message is the last line the
# unit logged, looked up when systemd reports the exit, and on a loaded machine journald can still
# be reading it after the lookup's patience (0.5 s). With a 1 s hold the notification went out
# before any crash of the loop had found its line (2 runs in about 10); by 5 s several have.
as_alice mkdir -p /home/alice/.config/systemd/user
as_alice sh -c 'cd /home/alice/.config/systemd/user
printf "[Unit]\nStartLimitIntervalSec=0\n[Service]\nExecStart=/bin/sh -c \"sleep 0.5; echo cannot open /srv/missing; exit 3\"\nRestart=always\nRestartSec=100ms\n" >crashy.service
printf "[Service]\nExecStart=/bin/sleep infinity\n" >victim.service
printf "[Service]\nType=oneshot\nExecStart=/usr/bin/rsync -a /home/alice/src/ /home/alice/dst/\n" >mirror.service
printf "[Timer]\nOnActiveSec=1s\nOnUnitActiveSec=2s\nAccuracySec=100ms\n" >mirror.timer
printf "[Service]\nExecStart=/usr/bin/tail -n0 -F /home/alice/echo.in\n" >echoer.service
printf "[Service]\nExecStart=/usr/bin/unison /home/alice/ua /home/alice/ub -batch -repeat 1 -confirmbigdel=false\n" >unison-docs.service
mkdir -p /home/alice/src /home/alice/ua /home/alice/ub; : >/home/alice/echo.in
for i in 1 2 3; do echo "$i" >/home/alice/ua/file-$i; done
printf "[rule ping]\nmatch = ^ping\$\nemit = fetchedDatabaseChanges modifications=1 deletions=0\n" >/home/alice/.config/syncmon/echo.rules
cat >/home/alice/.config/syncmon/syncmon.conf <<C
host-network = off
subscribe = crashy=unit:crashy.service
subscribe = victim=unit:victim.service
subscribe = mirror=unit:mirror.timer?phase=export
subscribe = syncthing=unit:syncthing.service
subscribe = unison=unit:unison-docs.service?rules=unison
[source echo]
unit = echoer.service
rules = /home/alice/.config/syncmon/echo.rules
[engine laptop-sync]
no-recent-import-after = 2h
[notify desk]
desktop = yes
engines = crashy
hold = 5s
group = 1s
page-url = http://127.0.0.1:9479
C'
user_ctl daemon-reload
# A notification server on her session bus (dbus-user-session's socket on her manager): python3-
# dbusmock's notification_daemon template, which logs every call it gets.
user_ctl start dbus.socket || fail "alice's session bus (dbus.socket) did not start"
as_alice systemd-run --user --quiet --unit=notifyd python3 -m dbusmock --session --template notification_daemon \
    -l /home/alice/notify.log -p '{"capabilities": "body body-markup actions"}' || fail "the notification server did not start"
notifyd_on_bus() { as_alice busctl --user status org.freedesktop.Notifications >/dev/null 2>&1; }
wait_for 15 notifyd_on_bus || fail "no org.freedesktop.Notifications on alice's session bus"
# Debian's own Syncthing user unit (/usr/lib/systemd/user/syncthing.service), as its docs start it.
user_ctl start crashy.service victim.service mirror.timer echoer.service unison-docs.service syncthing.service \
    || fail "alice's test units did not start"
user_ctl restart syncmon.service || fail "systemctl --user restart (with unit: sources)"
field() {  # field WHO ENGINE PYTHON-EXPRESSION-ON-r
    "${1}_status" | python3 -c "import json,sys; rows=[r for r in json.load(sys.stdin)['engines'] if r['engine']=='$2']; r=rows[0] if rows else {}; print($3)"
}
summary_is() { [ "$(field "$1" "$2" "r.get('summary')")" = "$3" ]; }
alice_metric() { in_ns curl -fsS http://127.0.0.1:9479/metrics | awk -v m="$1" 'index($0, m) == 1 {print $2}'; }
wait_for 15 summary_is alice crashy error || fail "alice's crashy.service is not error: $(alice_status)"
for _ in 1 2 3 4 5; do summary_is alice crashy error || fail "crashy left error between crashes: $(alice_status)"; done
# The desktop route: one Notify from syncmon on her screen, naming the pair and its problem.
notified() { in_ns grep -aq 'Notify "syncmon" 0 "dialog-warning" "[^"]*crashy/default error' /home/alice/notify.log 2>/dev/null; }
wait_for 20 notified || fail "no desktop notification for crashy: $(in_ns cat /home/alice/notify.log 2>&1 | tail -5); $(in_ns journalctl --no-pager -o cat _UID=1500 _COMM=syncmon | grep -i "notif\|route\|desk" | tail -5); $(in_ns curl -fsS http://127.0.0.1:9479/metrics | grep "^syncmon_notif")"
in_ns grep -aq '"crashy/default: error since' /home/alice/notify.log \
    || fail "the desktop notification's body does not say crashy/default: error: $(in_ns cat /home/alice/notify.log)"
in_ns grep -aq 'cannot open /srv/missing' /home/alice/notify.log || fail "the desktop notification lacks the failure's message"
in_ns grep -aq '"urgency": 2' /home/alice/notify.log || fail "the desktop notification is not critical"
echo "ok: a desktop Notify on alice's session bus: crashy/default error, its message, critical"
wait_for 10 summary_is alice victim not_started || fail "alice's victim.service not seen up: $(alice_status)"
user_ctl kill -s KILL victim.service
wait_for 15 summary_is alice victim engine_down || fail "victim not engine_down after kill -9: $(alice_status)"
alice_status | grep -q signalSIGKILL || fail "victim: no signalSIGKILL in $(alice_status)"
runs() { [ "$(alice_metric 'syncmon_phase_runs_total{engine="mirror",database="default",phase="export"}')" -ge 2 ] 2>/dev/null; }
wait_for 15 runs || fail "mirror: the user timer's rsync runs are not export runs: $(alice_status)"
unison_runs() { [ "$(alice_metric 'syncmon_phase_runs_total{engine="unison",database="default",phase="import"}')" -ge 2 ] 2>/dev/null; }
wait_for 20 unison_runs || fail "unison: the user unit's cycles are not import runs through the pack: $(alice_status)"
# Between cycles succeeded, within one in_progress (-repeat 1 starts one every second). On a
# loaded machine unison's cycles can pause for seconds; what the pair read meanwhile is named.
unison_seen=""
unison_ok() {
    local now
    now=$(field alice unison "r.get('summary')")
    case " $unison_seen " in *" $now "*) ;; *) unison_seen="$unison_seen $now" ;; esac
    [ "$now" = succeeded ] || [ "$now" = in_progress ]
}
wait_for 20 unison_ok || fail "unison: neither succeeded nor in_progress (seen:$unison_seen): $(alice_status)"
syncthing_up() { [ "$(field alice syncthing "r.get('up')")" = True ]; }
wait_for 20 syncthing_up || fail "Debian's Syncthing user unit not seen up: $(alice_status)"
user_ctl kill -s KILL syncthing.service
# Restart=on-failure, RestartSec=1: a failure outstanding (error), never engine_down.
wait_for 15 summary_is alice syncthing error || fail "Syncthing's kill -9 not an error: $(alice_status)"
field alice syncthing "r['setup']['error']['code']" | grep -qx signalSIGKILL || fail "Syncthing: no signalSIGKILL: $(alice_status)"
wait_for 15 syncthing_up || fail "Syncthing not up again after its restart: $(alice_status)"
echo "ok: alice's syncmon follows her manager's units: crash loop error, kill -9 engine_down (signalSIGKILL), timer runs,"
echo "    unison -repeat cycles through the unison pack, Debian's Syncthing user unit (kill -9: error, restarted)"

pings() { alice_metric 'syncmon_records_fetched_total{engine="echo",database="default",change="modification"}'; }
pings_are() { [ "$(pings)" = "$1" ]; }
in_ns sh -c 'echo ping >>/home/alice/echo.in'
echo_journal() {  # what the journal holds of the echo unit, for a failure's message
    in_ns journalctl --no-pager -o short-monotonic _UID=1500 --grep ping 2>&1 | tail -5
    user_ctl status --no-pager echoer.service 2>&1 | tail -5
    in_ns journalctl --no-pager -o cat _UID=1500 _COMM=syncmon 2>&1 | grep -i "echo\|journal" | tail -10
    in_ns sh -c 'ls -ln /run/log/journal/*/ /var/log/journal/*/ 2>&1; id alice; grep Groups /proc/$(pgrep -u alice -x syncmon | head -1)/status' 2>&1
    as_alice journalctl --no-pager -n 2 -o cat _SYSTEMD_USER_UNIT=echoer.service 2>&1
}
wait_for 10 pings_are 1 || fail "echo: a ping in alice's unit's journal not counted ($(pings)); $(echo_journal)"
user_ctl stop syncmon.service
in_ns sh -c 'echo ping >>/home/alice/echo.in; echo ping >>/home/alice/echo.in'
journal_has() { [ "$(in_ns journalctl --no-pager -o cat _SYSTEMD_USER_UNIT=echoer.service _UID=1500 | grep -c '^ping$')" = 3 ]; }
wait_for 10 journal_has || fail "the pings are not in the journal"
user_ctl start syncmon.service || fail "alice's syncmon did not start again"
wait_for 10 pings_are 3 || fail "echo: $(pings) pings counted across a restart, want 3 (lost or repeated)"
echo "ok: the journal cursor of a user unit survives a restart of alice's syncmon (nothing missed, nothing twice)"
# The crash loop went on throughout, across a restart of her syncmon: still the one notification.
[ "$(in_ns grep -ac '^[0-9.]* Notify "syncmon"' /home/alice/notify.log)" = 1 ] \
    || fail "a crash loop notified more than once: $(in_ns grep -a 'Notify' /home/alice/notify.log)"
echo "ok: one desktop notification for the whole crash loop, a restart of her syncmon included"

# A root syncmon (a transient service, as root: the shipped system unit's user may not reach a
# user manager) following the same unit with user = alice.
in_ns sh -c 'mkdir -p /etc/syncmon-root && printf "host-network = off\nlog-level = debug\nsubscribe = crashy=unit:crashy.service?user=alice\nsubscribe = mirror=unit:mirror.timer?user=alice&phase=export\nsubscribe = unison=unit:unison-docs.service?user=alice&rules=unison\n[source victim]\nunit = victim.service\nuser = alice\n" >/etc/syncmon-root/syncmon.conf'
in_ns systemd-run --quiet --unit=syncmon-root -p Type=notify /usr/local/bin/syncmon daemon --config /etc/syncmon-root/syncmon.conf \
    --listen 127.0.0.1:20100 --state-dir /var/lib/syncmon-root --events-socket /run/syncmon-root.sock || fail "the root syncmon did not start"
root_status() { in_ns syncmon status --url http://127.0.0.1:20100 --json || true; }
user_ctl restart victim.service
# Seen up through alice's manager (its summary keeps the kill -9 above for the recovery time).
victim_up() { [ "$(field root victim "r.get('up')")" = True ]; }
wait_for 10 victim_up || fail "the root syncmon with user = alice does not see victim.service up: $(root_status)"
wait_for 15 summary_is root crashy error || fail "the root syncmon: alice's crashy.service is not error: $(root_status)"
root_runs() { [ "$(in_ns curl -fsS http://127.0.0.1:20100/metrics | awk 'index($0, "syncmon_phase_runs_total{engine=\"mirror\",database=\"default\",phase=\"export\"}") == 1 {print $2}')" -ge 2 ] 2>/dev/null; }
wait_for 15 root_runs || fail "the root syncmon: alice's timer's runs are not export runs: $(root_status)"
root_unison() { [ "$(in_ns curl -fsS http://127.0.0.1:20100/metrics | awk 'index($0, "syncmon_phase_runs_total{engine=\"unison\",database=\"default\",phase=\"import\"}") == 1 {print $2}')" -ge 2 ] 2>/dev/null; }
wait_for 20 root_unison || fail "the root syncmon: alice's unison cycles (her lines in the system journal) are not import runs: $(root_status)"
user_ctl kill -s KILL victim.service
root_victim() { in_ns journalctl --no-pager -o cat -u syncmon-root.service | grep -i victim | tail -20; }
wait_for 15 summary_is root victim engine_down || fail "the root syncmon: victim not engine_down after kill -9: $(root_status) $(root_victim)"
root_status | grep -q signalSIGKILL || fail "the root syncmon: victim: no signalSIGKILL in $(root_status)"
reason_is() { [ "$(field root victim "r.get('unknownReason')")" = "$1" ]; }
in_ns loginctl disable-linger alice
wait_for 10 reason_is user-manager-absent || fail "not unknown (user-manager-absent) 10 s after disable-linger: $(root_status)"
summary_is root victim unknown || fail "victim not unknown without its manager: $(root_status)"
in_ns loginctl enable-linger alice
wait_for 30 in_ns systemctl is-active --quiet user@1500.service || fail "user@1500.service did not start again"
wait_for 10 sh -c "! nsenter -t $inner -m -p -u -i -n -r -w -- syncmon status --url http://127.0.0.1:20100 --json 2>/dev/null | grep -q user-manager-absent" \
    || fail "still user-manager-absent 10 s after the manager started: $(root_status)"
in_ns systemctl is-active --quiet syncmon-root.service || fail "the root syncmon did not survive its user manager's stop"
echo "ok: a root syncmon with user = alice follows her units (crash loop error, kill -9 engine_down, timer runs, unison through the pack); disable-linger: unknown (user-manager-absent); enable-linger: back"
echo "test-user-session: all passed"
