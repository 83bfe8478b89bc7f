#!/usr/bin/env bash
# Installs the Debian package under the real service manager and purges it again: Debian 12's
# systemd 252 as PID 1 of the throw-away container of scripts/test-unit-sandbox.sh (overlay
# root, so nothing reaches the host; here with a network namespace of its own, so the packaged
# units run unchanged on their default 127.0.0.1:9478). Proves:
#   - `dpkg -i` works on a Debian 12 root: Depends are met, postinst creates the user and
#     group `syncmon` (sysusers.d), enables and starts syncmon.socket and syncmon.service;
#     systemd's trigger compiles the journal catalog; `systemctl enable --now syncmon.socket`
#     is then a no-op; installing again (the upgrade path) restarts the service;
#   - systemd-analyze verify of the installed units says nothing; ExecStart= is /usr/bin/syncmon;
#   - an engine's event through /run/syncmon/events.sock shows in `syncmon status`; the
#     daemon reads the conffile /etc/syncmon/syncmon.conf (logged on `systemctl reload`);
#   - the completions load in bash, the man page is found, --version matches the package;
#   - `dpkg --purge` stops both units and leaves nothing behind: a listing of /etc, /usr, /var,
#     /run, /srv, /opt and /root before the install equals the one after the purge, apart from
#     dpkg's and systemd's own bookkeeping (listed below) and the user and group `syncmon`,
#     which stay by design (deploy/README.md, "The Debian package").
# Needs root, unshare(1), overlayfs and cgroup2; exits 77 (skip) where it cannot build the
# container, which scripts/test.sh (CI) counts as a failure like any other non-zero exit.
# Takes ~30 s plus the package build (scripts/package-deb.sh: about a minute with the release
# build up to date; the static release build from scratch takes many minutes).
#   scripts/test-package.sh [DEB]     DEB: a built package (default: build one)
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS

pkgdir=$(mktemp -d /tmp/syncmon-test-package.XXXXXX)
trap 'rm -rf "$pkgdir"' EXIT
if [ -n "${1:-}" ]; then
    deb=$(readlink -f "$1")
else
    # Under CI the package is made from the debug build, linked statically like the release
    # one (a relink after the test build, not a second build from scratch): the install, the
    # units, the user and the purge are the same whichever optimisation the binary has.
    if [ -n "${CI:-}" ] && [ -z "${SYNCMON_DEB_CONFIGURATION:-}" ]; then export SYNCMON_DEB_CONFIGURATION=debug; fi
    deb=$(scripts/package-deb.sh "$pkgdir" | tail -n 1)
fi
[ -f "$deb" ] || { echo "test-package: no package at $deb" >&2; exit 1; }
version=$(dpkg-deb -f "$deb" Version)
echo "test-package: $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB)"

# Boots the container; defines in_ns, wait_for, fail, $work, and the cleanup trap (to which the
# package directory is added).
SYNCMON_SANDBOX_MODE=package
# shellcheck source=scripts/test-unit-sandbox.sh
source scripts/test-unit-sandbox.sh
trap 'cleanup; rm -rf "$pkgdir"' EXIT
fail() {
    echo "test-package: FAIL: $*" >&2
    in_ns systemctl status --no-pager syncmon.socket syncmon.service >&2 || true
    in_ns journalctl --no-pager -n 40 >&2 || true
    exit 1
}

# A real machine: the overlay shows the host's /, and a container host's policy-rc.d (exit 101)
# would keep postinst from starting anything; the host may also carry a user `syncmon`.
in_ns rm -f /usr/sbin/policy-rc.d
if in_ns getent passwd syncmon >/dev/null; then in_ns userdel syncmon; fi
if in_ns getent group syncmon >/dev/null; then in_ns groupdel syncmon; fi
wait_for 20 in_ns systemctl is-active --quiet systemd-journald.socket || fail "journald socket not active"

# What may differ between before the install and after the purge: dpkg's database and logs,
# the journal, the compiled catalog, systemd's runtime state (/run/credentials: starting
# syncmon.service first pulls in sysinit.target here, which a booted machine has reached long
# before), and the user/group files' backups.
snapshot() {
    in_ns find /etc /usr /var /run /srv /opt /root -xdev \
        \( -path /var/lib/dpkg -o -path /var/log -o -path /var/cache -o -path /run/systemd \
           -o -path /run/user -o -path /run/log -o -path /var/lib/systemd/catalog -o -path /run/udev \
           -o -path /run/dbus -o -path /run/lock -o -path /run/credentials \) -prune \
        -o -printf '%y %p\n' | grep -v -E '^. /etc/(passwd|group|shadow|gshadow)-$' | LC_ALL=C sort
}
snapshot >"$work/before.txt"
in_ns sh -c 'cat >/tmp/syncmon.deb' <"$deb"

echo "== dpkg -i"
in_ns env DEBIAN_FRONTEND=noninteractive dpkg -i /tmp/syncmon.deb >"$work/dpkg-install.txt" 2>&1 ||
    { cat "$work/dpkg-install.txt" >&2; fail "dpkg -i"; }
sed 's/^/  /' "$work/dpkg-install.txt"
[ "$(in_ns dpkg-query -W -f='${Status} ${Version}' syncmon)" = "install ok installed $version" ] || fail "not installed"
user=$(in_ns getent passwd syncmon) || fail "no user syncmon after install"
in_ns getent group syncmon >/dev/null || fail "no group syncmon after install"
echo "ok: user $user"
for unit in syncmon.socket syncmon.service; do
    [ "$(in_ns systemctl is-enabled "$unit")" = enabled ] || fail "$unit not enabled by postinst"
done
wait_for 20 in_ns systemctl is-active --quiet syncmon.socket || fail "syncmon.socket not started by postinst"
wait_for 30 in_ns systemctl is-active --quiet syncmon.service || fail "syncmon.service not started by postinst"
echo "ok: postinst enabled and started syncmon.socket and syncmon.service"
in_ns systemctl enable --now syncmon.socket >"$work/enable.txt" 2>&1 || { cat "$work/enable.txt" >&2; fail "systemctl enable --now syncmon.socket"; }
in_ns systemctl is-active --quiet syncmon.socket || fail "syncmon.socket not active"

in_ns systemd-analyze verify syncmon.socket syncmon.service >"$work/verify.txt" 2>&1 && [ ! -s "$work/verify.txt" ] ||
    { cat "$work/verify.txt" >&2; fail "systemd-analyze verify of the installed units"; }
[ "$(in_ns systemctl show -p ExecStart --value syncmon.service | grep -o 'path=[^ ;]*')" = path=/usr/bin/syncmon ] ||
    fail "ExecStart is not /usr/bin/syncmon: $(in_ns systemctl show -p ExecStart --value syncmon.service)"
# Debian 12's systemd names the merged-/usr path by /lib.
fragment=$(in_ns systemctl show -p FragmentPath --value syncmon.service)
[ "$(in_ns readlink -f "$fragment")" = /usr/lib/systemd/system/syncmon.service ] || fail "syncmon.service is $fragment, not the packaged unit"
echo "ok: systemd-analyze verify: no findings; ExecStart=/usr/bin/syncmon daemon"
# The user units (docs/user-sessions.md): shipped, pointing at the packaged binary, and clean.
for unit in syncmon.service syncmon.socket; do
    in_ns test -f /usr/lib/systemd/user/$unit || fail "no /usr/lib/systemd/user/$unit in the package"
done
in_ns grep -qx 'ExecStart=/usr/bin/syncmon daemon' /usr/lib/systemd/user/syncmon.service || fail "the user unit's ExecStart is not /usr/bin/syncmon daemon"
# A user manager's checks need a runtime directory of their own.
in_ns sh -c 'XDG_RUNTIME_DIR=$(mktemp -d) systemd-analyze --user verify /usr/lib/systemd/user/syncmon.socket /usr/lib/systemd/user/syncmon.service' \
    >"$work/verify-user.txt" 2>&1 && [ ! -s "$work/verify-user.txt" ] ||
    { cat "$work/verify-user.txt" >&2; fail "systemd-analyze --user verify of the user units"; }
echo "ok: the user units in /usr/lib/systemd/user, ExecStart=/usr/bin/syncmon daemon, systemd-analyze --user verify"
# Group and mode decide who may write. (The owner is root while only the socket unit ran; once
# the service has started, systemd's RuntimeDirectory= set-up has chowned /run/syncmon and the
# socket in it to syncmon:syncmon.)
owner=$(in_ns stat -c '%U:%G %a' /run/syncmon/events.sock)
case "$owner" in
    "root:syncmon 660" | "syncmon:syncmon 660") ;;
    *) fail "events.sock is $owner, want group syncmon, mode 660" ;;
esac
in_ns journalctl --list-catalog 0bbdc562cbe7450db945b00e912d3aaf | grep -q syncmon || fail "the journal catalog has no syncmon entry"
echo "ok: /run/syncmon/events.sock is $owner; journalctl knows syncmon's catalog"

emit() { in_ns /usr/bin/syncmon emit --events-socket /run/syncmon/events.sock --engine packaged "$@"; }
# The container's network namespace has no default route, so the host view is offline: the
# engine says its network is available, as CKSyncEngine engines do.
emit accountStatus status=available || fail emit
emit networkStatus available=true || fail emit
emit willFetchChanges || fail emit
emit fetchedRecordZoneChanges zone=z modifications=2 deletions=0 || fail emit
emit didFetchChanges || fail emit
status_ok() { in_ns /usr/bin/syncmon status >"$work/status.txt" 2>&1; grep -q 'packaged.*succeeded' "$work/status.txt"; }
wait_for 10 status_ok || { cat "$work/status.txt" >&2; fail "syncmon status does not show the engine"; }
sed 's/^/  /' "$work/status.txt"
echo "ok: the event written to /run/syncmon/events.sock shows in syncmon status"
in_ns systemctl reload syncmon.service || fail "systemctl reload"
config_logged() { in_ns journalctl -u syncmon.service -o verbose --no-pager | grep -q '^ *SYNCMON_CONFIG_PATH=/etc/syncmon/syncmon.conf$'; }
wait_for 10 config_logged || fail "the daemon did not report reading /etc/syncmon/syncmon.conf"
[ "$(in_ns dpkg-query -W -f='${Conffiles}' syncmon | awk 'NF {print $1}')" = /etc/syncmon/syncmon.conf ] || fail "conffiles"
echo "ok: the daemon reads the conffile /etc/syncmon/syncmon.conf"

[ "$(in_ns /usr/bin/syncmon --version)" = "${version%%[~+-]*}" ] || fail "syncmon --version is not ${version%%[~+-]*}"
in_ns bash -c 'source /usr/share/bash-completion/completions/syncmon && complete -p syncmon' >/dev/null || fail "bash completion"
in_ns man -w syncmon >/dev/null 2>&1 || in_ns test -f /usr/share/man/man8/syncmon.8.gz || fail "man page"
echo "ok: --version $(in_ns /usr/bin/syncmon --version), bash completion, man page"

main_before=$(in_ns systemctl show -p MainPID --value syncmon.service)
in_ns env DEBIAN_FRONTEND=noninteractive dpkg -i /tmp/syncmon.deb >"$work/dpkg-reinstall.txt" 2>&1 ||
    { cat "$work/dpkg-reinstall.txt" >&2; fail "dpkg -i (again)"; }
wait_for 30 in_ns systemctl is-active --quiet syncmon.service || fail "not active after reinstalling"
main_after=$(in_ns systemctl show -p MainPID --value syncmon.service)
[ "$main_after" != "$main_before" ] || fail "installing again did not restart syncmon.service"
echo "ok: installing again (the upgrade path) restarted syncmon.service (MainPID $main_before -> $main_after)"
in_ns dpkg-query -L syncmon >"$work/files.txt"
in_ns test -d /var/lib/syncmon || fail "no /var/lib/syncmon while running"

echo "== dpkg --purge"
in_ns env DEBIAN_FRONTEND=noninteractive dpkg --purge syncmon >"$work/dpkg-purge.txt" 2>&1 ||
    { cat "$work/dpkg-purge.txt" >&2; fail "dpkg --purge"; }
sed 's/^/  /' "$work/dpkg-purge.txt"
for unit in syncmon.socket syncmon.service; do
    state="$(in_ns systemctl show -p LoadState --value "$unit") $(in_ns systemctl show -p ActiveState --value "$unit")"
    [ "$state" = "not-found inactive" ] || fail "$unit after purge: $state"
done
for path in /var/lib/syncmon /etc/syncmon /run/syncmon /usr/bin/syncmon; do
    in_ns test ! -e "$path" || fail "$path left after purge"
done
snapshot >"$work/after.txt"
if ! diff -u "$work/before.txt" "$work/after.txt" >"$work/diff.txt"; then
    cat "$work/diff.txt" >&2; fail "the purge left the file tree different from before the install"
fi
in_ns dpkg-query -W syncmon >/dev/null 2>&1 && fail "dpkg still knows syncmon"
echo "ok: purged: both units gone and inactive; $(wc -l <"$work/files.txt") package paths, /var/lib/syncmon, /etc/syncmon, /run/syncmon:"
echo "    the listing of $(wc -l <"$work/before.txt") paths is the same as before the install"
in_ns getent passwd syncmon >/dev/null && echo "    (the user and group syncmon stay, as Debian leaves system users)"

echo "test-package: all checks passed in $((SECONDS - started))s"
