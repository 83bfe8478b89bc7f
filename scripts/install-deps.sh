#!/usr/bin/env bash
# Installs what syncmon needs from Debian 12's packages. Idempotent: only what is missing.
#   scripts/install-deps.sh          what building and running needs (libsystemd-dev, zlib1g-dev,
#                                    libcrypt-dev: bcrypt for basic_auth_users; libpcre2-dev: the
#                                    journal rules' expressions)
#   scripts/install-deps.sh --test   plus the real components the tests run against:
#                                    promtool and prometheus (prometheus), systemd-journald,
#                                    journalctl and systemd-analyze (systemd), logger
#                                    (bsdutils: start-journald.sh probes with it), gzip;
#                                    Debian's python3 with the reference OpenMetrics parser
#                                    (python3-prometheus-client) and PyYAML (python3-yaml),
#                                    curl, for the tests and scripts/test-deploy.sh; ip
#                                    (iproute2): the host network tests run the daemon in network
#                                    namespaces (as root, which CI is); syncthing and jq for
#                                    scripts/syncthing/test-syncthing.sh; rclone, restic and rsync,
#                                    which the syncmon wrap tests run against servers on loopback
#                                    (rclone serve webdav/restic, rsync --daemon); openssl, which
#                                    makes the certificates of the web configuration tests. A test that
#                                    skips for want of a package is a hole, so every package a
#                                    test needs is listed here. The Debian package
#                                    (scripts/package-deb.sh, scripts/test-package.sh): dpkg-dev
#                                    (dpkg-shlibdeps), lintian; the alerts end to end
#                                    (scripts/test-alerts.sh): prometheus-alertmanager; unit: sources
#                                    (scripts/test-units-e2e.sh): dbus, unison, lsyncd.
#   scripts/install-deps.sh --package  plus dpkg-dev, which scripts/package-deb.sh needs
#   scripts/install-deps.sh --bench  plus mtail and node_exporter (prometheus-node-exporter), which
#                                    scripts/benchmark.sh runs side by side with syncmon, and
#                                    dbus-daemon, the private bus of its idle unit: source;
#                                    valgrind, under which scripts/hot-code-order.sh profiles the daemon
set -euo pipefail

packages=(libsystemd-dev zlib1g-dev libcrypt-dev libpcre2-dev pkg-config)
if [ "${1:-}" = "--test" ]; then
    packages+=(systemd prometheus bsdutils gzip python3 python3-prometheus-client python3-yaml curl iproute2 syncthing jq rclone restic rsync openssl)
    # The Debian package and the alerts end to end (scripts/test-package.sh, scripts/test-alerts.sh).
    packages+=(dpkg-dev lintian prometheus-alertmanager)
    packages+=(victoria-metrics)  # scripts/test-fleet.sh: the remote-write store
    # unit: sources end to end (scripts/test-units-e2e.sh): the system bus and the services watched.
    packages+=(dbus unison lsyncd)
    # Desktop notifications (Tests/SyncmonSystemdTests/DesktopNotificationBusTests): a session bus
    # and a notification server that logs what it gets.
    packages+=(dbus-daemon python3-dbusmock)
    # Notifications end to end (scripts/test-notify.sh): a local MTA, apprise.
    packages+=(exim4-daemon-light apprise)
    # The status page in a real browser (scripts/test-page.sh): headless Chromium driven by
    # selenium; certutil (libnss3-tools) makes the browser trust the test CA.
    packages+=(chromium chromium-driver python3-selenium libnss3-tools)
    # The detection matrix's short form (scripts/detection-matrix.sh): node_exporter's systemd
    # collector beside syncmon.
    packages+=(prometheus-node-exporter)
fi
if [ "${1:-}" = "--package" ]; then
    packages+=(dpkg-dev)
fi
if [ "${1:-}" = "--bench" ]; then
    packages+=(mtail prometheus-node-exporter dbus-daemon)
    # scripts/hot-code-order.sh: the daemon's profile under callgrind.
    packages+=(valgrind)
fi
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
echo "installing: ${missing[*]}" >&2
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
