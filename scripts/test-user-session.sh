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
#   - `systemctl --user restart` keeps her pair (the state directory), `reload` works.
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
in_ns journalctl --no-pager -o cat _UID=1500 | grep -q "the default port is taken" || fail "the move to 9479 is not in alice's journal"
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
echo "test-user-session: all passed"
