#!/usr/bin/env bash
# Installs what syncmon needs from Debian 12's packages: libsystemd-dev to build, and for the
# tests the real components they run against (promtool from `prometheus`, systemd-journald and
# journalctl from `systemd`). Idempotent: installs only what is missing.
set -euo pipefail

packages=(libsystemd-dev pkg-config systemd prometheus "$@")
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
