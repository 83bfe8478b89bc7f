#!/usr/bin/env bash
# Installs what syncmon needs from Debian 12's packages. Idempotent: only what is missing.
#   scripts/install-deps.sh          what building and running needs (libsystemd-dev, zlib1g-dev)
#   scripts/install-deps.sh --test   plus the real components the tests run against:
#                                    promtool and prometheus (prometheus), systemd-journald,
#                                    journalctl and systemd-analyze (systemd); python3 and curl
#                                    for scripts/test-deploy.sh
#   scripts/install-deps.sh --bench  plus mtail, which scripts/benchmark.sh compares against
set -euo pipefail

packages=(libsystemd-dev zlib1g-dev pkg-config)
if [ "${1:-}" = "--test" ]; then
    packages+=(systemd prometheus python3 curl)
fi
if [ "${1:-}" = "--bench" ]; then
    packages+=(mtail)
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
