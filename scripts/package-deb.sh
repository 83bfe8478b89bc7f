#!/usr/bin/env bash
# Builds the Debian package syncmon_VERSION_amd64.deb from the static release build
# (scripts/build-release.sh, as scripts/run.sh builds it)
# and checks it with lintian when lintian is installed (errors fail; warnings are printed).
#   scripts/package-deb.sh [OUTDIR]        OUTDIR defaults to the current directory
# Environment:
#   SYNCMON_DEB_SKIP_BUILD=1   package the binary as it is (no swift build)
#   SYNCMON_DEB_CONFIGURATION=debug
#                              package a debug build linked like the release one (static Swift
#                              runtime, lld): after `swift build --build-tests` only a relink,
#                              where the release build takes many minutes from scratch. For
#                              testing the package (scripts/test-package.sh in CI); ship release.
#   DEBFULLNAME, DEBEMAIL      the Maintainer field (default: the author of the repository's
#                              first commit)
#   SYNCMON_DEB_LINTIAN=0      do not run lintian
#   SYNCMON_DEB_COMPRESSION=gzip
#                              data.tar compressed by gzip -1 instead of xz -6: the same package
#                              but larger, seconds instead of a minute of CPU for a debug binary
#                              (scripts/test.sh, where the test command's 15 minutes are tight);
#                              ship xz
# Prints the path of the package on its last line.
#
# Version: the binary's own (`syncmon --version`, SyncmonVersion.version in
# Sources/syncmon/Syncmon.swift) plus where the tree is in git, Debian revision 1:
#   HEAD tagged vX.Y.Z (= the binary's version)   X.Y.Z-1
#   N commits after that tag                      X.Y.Z+gitYYYYMMDD.SHA-1   (after X.Y.Z)
#   no tag                                        X.Y.Z~gitYYYYMMDD.SHA-1   (before X.Y.Z)
#   uncommitted changes                           ….SHA.dirty-1 (never one to ship)
# The date is the commit's (UTC); every file's time is clamped to it (SOURCE_DATE_EPOCH), so the
# same commit gives the same package, byte for byte, for the same binary.
#
# Layout, maintainer scripts and lintian findings: deploy/README.md, "The Debian package".
set -euo pipefail
outdir=$(readlink -f "${1:-.}")
cd "$(dirname "$0")/.."

for tool in dpkg-deb dpkg-shlibdeps strip gzip git; do
    command -v "$tool" >/dev/null || { echo "package-deb: $tool not found (scripts/install-deps.sh --package)" >&2; exit 2; }
done
git rev-parse --verify -q HEAD >/dev/null || { echo "package-deb: not a git work tree: the version comes from git" >&2; exit 2; }
mkdir -p "$outdir"

configuration=${SYNCMON_DEB_CONFIGURATION:-release}
case "$configuration" in
    release) build=(scripts/build-release.sh) ;;
    debug) build=(scripts/build-release.sh --configuration debug) ;;
    *) echo "package-deb: SYNCMON_DEB_CONFIGURATION is release or debug, not $configuration" >&2; exit 2 ;;
esac
if [ "${SYNCMON_DEB_SKIP_BUILD:-0}" != 1 ]; then
    "${build[@]}" >&2
fi
binary=.build/$configuration/syncmon
[ -x "$binary" ] || { echo "package-deb: no $binary (build it, or leave SYNCMON_DEB_SKIP_BUILD unset)" >&2; exit 2; }

# --- Version ------------------------------------------------------------------------------------
upstream=$(sed -n 's/^ *static let version = "\(.*\)"$/\1/p' Sources/syncmon/Syncmon.swift)
binary_version=$("$binary" --version)
[ -n "$upstream" ] && [ "$binary_version" = "$upstream" ] || {
    echo "package-deb: $binary --version says '$binary_version', Sources/syncmon/Syncmon.swift '$upstream': rebuild" >&2; exit 1
}
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}
commit_date=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y%m%d)
sha=$(git rev-parse --short=7 HEAD)
dirty=""
git diff --quiet HEAD -- Sources Package.swift deploy dashboards docs README.md scripts/package-deb.sh 2>/dev/null || dirty=.dirty
if describe=$(git describe --tags --long --match 'v[0-9]*' 2>/dev/null); then
    tag=${describe%-*-g*}
    ahead=${describe%-g*}; ahead=${ahead##*-}
    [ "${tag#v}" = "$upstream" ] || {
        echo "package-deb: the latest tag $tag does not match the binary's version $upstream" >&2; exit 1
    }
    if [ "$ahead" = 0 ] && [ -z "$dirty" ]; then
        version="$upstream-1"
    else
        version="$upstream+git$commit_date.$sha$dirty-1"
    fi
else
    version="$upstream~git$commit_date.$sha$dirty-1"
fi
dpkg --validate-version "$version"

maintainer="${DEBFULLNAME:-} <${DEBEMAIL:-}>"
if [ -z "${DEBFULLNAME:-}" ] || [ -z "${DEBEMAIL:-}" ]; then
    maintainer=$(git log -1 --format='%an <%ae>' "$(git rev-list --max-parents=0 HEAD | tail -n 1)")
fi

# --- The tree -----------------------------------------------------------------------------------
work=$(mktemp -d /tmp/syncmon-deb.XXXXXX)
trap 'rm -rf "$work"' EXIT
root="$work/root"
umask 022
doc=/usr/share/doc/syncmon
share=/usr/share/syncmon

# The binary, stripped as dh_strip does (the symbol table and .comment/.note; the Swift
# runtime's metadata sections are allocated and stay).
install -D -m 0755 "$binary" "$root/usr/bin/syncmon"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/syncmon"

# The units, for /usr/bin and /usr/share/doc instead of the from-source /usr/local paths.
to_package_paths() {
    sed -e 's|/usr/local/bin/syncmon|/usr/bin/syncmon|g' -e 's|/usr/local/share/doc/syncmon|/usr/share/doc/syncmon|g' "$@"
}
for unit in syncmon.service syncmon.socket; do
    mkdir -p "$root/usr/lib/systemd/system"
    to_package_paths "deploy/systemd/$unit" >"$root/usr/lib/systemd/system/$unit"
done
grep -q '^ExecStart=/usr/bin/syncmon daemon$' "$root/usr/lib/systemd/system/syncmon.service" ||
    { echo "package-deb: syncmon.service's ExecStart= is not /usr/bin/syncmon daemon" >&2; exit 1; }
# The user units (docs/user-sessions.md): `systemctl --user enable --now syncmon.socket syncmon.service`.
for unit in syncmon.service syncmon.socket; do
    mkdir -p "$root/usr/lib/systemd/user"
    to_package_paths "deploy/systemd/user/$unit" >"$root/usr/lib/systemd/user/$unit"
done
if grep -n '/usr/local' "$root/usr/lib/systemd/system/"* "$root/usr/lib/systemd/user/"*; then
    echo "package-deb: a unit still names /usr/local" >&2; exit 1
fi
install -D -m 0644 deploy/sysusers.d/syncmon.conf "$root/usr/lib/sysusers.d/syncmon.conf"
install -D -m 0644 deploy/catalog/syncmon.catalog "$root/usr/lib/systemd/catalog/syncmon.catalog"

# The configuration: every setting commented out at its default; /etc/syncmon/syncmon.conf is
# the path `syncmon daemon` reads when it exists (DaemonCommand.defaultConfigFile).
install -D -m 0644 deploy/syncmon.conf.example "$root/etc/syncmon/syncmon.conf"

# The manual page, gzip -9n as dh_compress does.
mkdir -p "$root/usr/share/man/man8"
to_package_paths deploy/man/syncmon.8 | gzip -9n >"$root/usr/share/man/man8/syncmon.8.gz"

# Shell completions, generated by ArgumentParser from the binary itself.
mkdir -p "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
    "$root/usr/share/fish/vendor_completions.d"
# bash-completion sources the file: no #! line (lintian bash-completion-with-hashbang).
"$binary" --generate-completion-script bash | sed '1{/^#!/d}' >"$root/usr/share/bash-completion/completions/syncmon"
"$binary" --generate-completion-script zsh >"$root/usr/share/zsh/vendor-completions/_syncmon"
"$binary" --generate-completion-script fish >"$root/usr/share/fish/vendor_completions.d/syncmon.fish"

# Prometheus rules and the Grafana dashboard, to copy or point at.
install -D -m 0644 -t "$root$share/prometheus" deploy/prometheus/syncmon-alerts.yml \
    deploy/prometheus/syncmon-rules.yml deploy/prometheus/prometheus.yml.example deploy/prometheus/syncmon-fleet.yml deploy/prometheus/syncmon-fleet-global.yml
install -D -m 0644 -t "$root$share/grafana/dashboards" dashboards/syncmon.json dashboards/syncmon-fleet.json
install -D -m 0755 deploy/notify/syncmon-apprise "$root$share/notify/syncmon-apprise"
install -D -m 0644 dashboards/provisioning/datasources/prometheus.yml \
    "$root$share/grafana/provisioning/datasources/prometheus.yml"
# The provisioning example points at the packaged dashboard, so copying it to
# /etc/grafana/provisioning/dashboards/ is the whole install.
mkdir -p "$root$share/grafana/provisioning/dashboards"
sed -e "s|^\(#   \)install -D -m 0644 dashboards/syncmon.json /var/lib/grafana/dashboards/syncmon/syncmon.json|\1(the syncmon package installs it there)|" \
    -e "s|path: /var/lib/grafana/dashboards/syncmon|path: $share/grafana/dashboards|" \
    dashboards/provisioning/dashboards/syncmon.yml >"$root$share/grafana/provisioning/dashboards/syncmon.yml"
grep -q "path: $share/grafana/dashboards" "$root$share/grafana/provisioning/dashboards/syncmon.yml" ||
    { echo "package-deb: the dashboard provisioning path was not rewritten" >&2; exit 1; }

# Documentation, where the units' Documentation= and the man page point, and the wrap recipes.
install -D -m 0644 -t "$root$doc" docs/*.md README.md
install -m 0644 deploy/README.md "$root$doc/README.deploy.md"
mkdir -p "$root$doc/examples/systemd"
for recipe in deploy/systemd/wrap/*; do
    to_package_paths "$recipe" >"$root$doc/examples/systemd/$(basename "$recipe")"
done

# copyright (DEP-5). The source tree carries no LICENSE file; the package states Apache-2.0.
year=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y)
cat >"$root$doc/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: syncmon
Comment: The syncmon source tree has no LICENSE file of its own; this package is
 distributed under the Apache License 2.0.
 .
 /usr/bin/syncmon is linked statically with the Swift runtime, standard library
 and FoundationEssentials (Copyright 2014-$year Apple Inc. and the Swift project
 authors, Apache-2.0 with the Runtime Library Exception), with GCC's libstdc++ in
 a release build (Free Software Foundation, GPL-3+ with the GCC Runtime Library
 Exception 3.1, which permits this) and with the Swift packages the
 source tree's Package.swift depends on: swift-argument-parser, swift-log,
 swift-nio, swift-nio-extras, swift-service-lifecycle and async-http-client,
 with their own dependencies (swift-nio-ssl, swift-nio-http2, swift-atomics,
 swift-collections, swift-system, ...), all Apache-2.0 (Apple Inc., the Swift
 Server Working Group and their authors). The BoringSSL that swift-nio-ssl
 embeds is under the ISC and OpenSSL licenses (The BoringSSL Authors); the copy
 of zlib that swift-nio-extras embeds (symbols prefixed cnioextras_z_) is under
 the zlib license (Copyright Jean-loup Gailly and Mark Adler).

Files: *
Copyright: $year syncmon contributors
License: Apache-2.0

License: Apache-2.0
 Licensed under the Apache License, Version 2.0 (the "License"); you may not use
 this file except in compliance with the License. You may obtain a copy of the
 License at
 .
     https://www.apache.org/licenses/LICENSE-2.0
 .
 Unless required by applicable law or agreed to in writing, software distributed
 under the License is distributed on an "AS IS" BASIS, WITHOUT WARRANTIES OR
 CONDITIONS OF ANY KIND, either express or implied. See the License for the
 specific language governing permissions and limitations under the License.
 .
 On Debian systems, the full text of the Apache License, Version 2.0 can be
 found in /usr/share/common-licenses/Apache-2.0.
EOF

# changelog.Debian.gz: one entry for the commit the package was built from.
subject=$(git log -1 --format=%s | fmt -w 72 | sed 's/^/    /')
cat >"$work/changelog" <<EOF
syncmon ($version) unstable; urgency=medium

  * Built from git commit $sha${dirty:+ with uncommitted changes}:
$subject

 -- $maintainer  $(date -u -R -d "@$SOURCE_DATE_EPOCH")
EOF
gzip -9n <"$work/changelog" >"$root$doc/changelog.Debian.gz"

# The lintian findings that stay, each with its reason (deploy/README.md, "The Debian package").
mkdir -p "$root/usr/share/lintian/overrides"
cat >"$root/usr/share/lintian/overrides/syncmon" <<'EOF'
# swift-nio-extras vendors zlib under its own symbol prefix (cnioextras_z_, for
# NIOHTTPCompression) and is linked statically, as every Swift package is; it cannot use
# the system's without patching it (AsyncHTTPClient, for the Syncthing source, depends on it).
# syncmon's own gzip uses libz.so.1 (zlib1g, in Depends).
syncmon: embedded-library zlib [usr/bin/syncmon]
# Not a Debian upload: the package is built from a git commit and closes no ITP bug.
syncmon: initial-upload-closes-no-bugs [usr/share/doc/syncmon/changelog.Debian.gz:1]
EOF

# --- DEBIAN/ ------------------------------------------------------------------------------------
mkdir -p "$root/DEBIAN"
# Depends: what the binary links, by dpkg-shlibdeps (libc6, libsystemd0, zlib1g, libstdc++6, …).
mkdir -p "$work/shlibs/debian"
printf 'Source: syncmon\n\nPackage: syncmon\nArchitecture: amd64\n' >"$work/shlibs/debian/control"
shlibs=$(cd "$work/shlibs" && dpkg-shlibdeps -O -e"$root/usr/bin/syncmon" 2>"$work/shlibdeps.txt") ||
    { cat "$work/shlibdeps.txt" >&2; exit 1; }
depends=${shlibs#shlibs:Depends=}
[ -n "$depends" ] && [ "$depends" != "$shlibs" ] || { echo "package-deb: dpkg-shlibdeps said '$shlibs'" >&2; exit 1; }

cat >"$root/DEBIAN/conffiles" <<'EOF'
/etc/syncmon/syncmon.conf
EOF

# The maintainer scripts do what dh_installsysusers and dh_installsystemd (debhelper 13) would
# generate, plus the state directory on purge.
cat >"$root/DEBIAN/postinst" <<'EOF'
#!/bin/sh
set -e

if [ "$1" = configure ]; then
    # The system user and group `syncmon` (dh_installsysusers); idempotent. Without
    # systemd-sysusers (no systemd), the same with the shadow tools.
    if command -v systemd-sysusers >/dev/null 2>&1; then
        systemd-sysusers ${DPKG_ROOT:+--root="$DPKG_ROOT"} syncmon.conf
    elif ! getent passwd syncmon >/dev/null; then
        getent group syncmon >/dev/null || groupadd --system syncmon
        useradd --system --gid syncmon --home-dir /var/lib/syncmon --no-create-home \
            --shell /usr/sbin/nologin --comment "syncmon sync engine monitor" syncmon
    fi
fi

# dh_installsystemd: enable syncmon.socket and syncmon.service on first install (an admin's
# `systemctl disable` is kept across upgrades), start them now when systemd runs, restart on
# upgrade. The journal catalog needs nothing here: systemd's dpkg trigger on
# /usr/lib/systemd/catalog runs `journalctl --update-catalog`.
if [ "$1" = configure ] || [ "$1" = abort-upgrade ] || [ "$1" = abort-deconfigure ] || [ "$1" = abort-remove ]; then
    if command -v deb-systemd-helper >/dev/null; then
        for unit in syncmon.socket syncmon.service; do
            deb-systemd-helper unmask "$unit" >/dev/null || true
            if deb-systemd-helper --quiet was-enabled "$unit"; then
                deb-systemd-helper enable "$unit" >/dev/null || true
            else
                deb-systemd-helper update-state "$unit" >/dev/null || true
            fi
        done
    fi
    if [ -z "${DPKG_ROOT:-}" ] && [ -d /run/systemd/system ]; then
        systemctl --system daemon-reload >/dev/null || true
        if [ -n "$2" ]; then action=restart; else action=start; fi
        deb-systemd-invoke "$action" syncmon.socket syncmon.service >/dev/null || true
    fi
fi
exit 0
EOF

cat >"$root/DEBIAN/prerm" <<'EOF'
#!/bin/sh
set -e

# dh_installsystemd: stop on removal (an upgrade restarts in the new postinst instead).
if [ -z "${DPKG_ROOT:-}" ] && [ "$1" = remove ] && [ -d /run/systemd/system ]; then
    deb-systemd-invoke stop syncmon.service syncmon.socket >/dev/null || true
fi
exit 0
EOF

cat >"$root/DEBIAN/postrm" <<'EOF'
#!/bin/sh
set -e

# dh_installsystemd: forget the units' enablement (and masks) on purge.
if [ "$1" = remove ] && [ -d /run/systemd/system ]; then
    systemctl --system daemon-reload >/dev/null || true
fi
if [ "$1" = remove ] && command -v deb-systemd-helper >/dev/null; then
    deb-systemd-helper mask syncmon.socket syncmon.service >/dev/null || true
fi
if [ "$1" = purge ] && command -v deb-systemd-helper >/dev/null; then
    deb-systemd-helper purge syncmon.socket syncmon.service >/dev/null || true
    deb-systemd-helper unmask syncmon.socket syncmon.service >/dev/null || true
fi

# Purge removes what the daemon made: its state (StateDirectory=) and its runtime directory
# (RuntimeDirectoryPreserve=yes keeps it past a stop). dpkg removes /etc/syncmon/syncmon.conf
# and, when empty, /etc/syncmon. The user and group `syncmon` stay, as Debian does for system
# users: files they own may remain elsewhere (a recycled ID would inherit them).
if [ "$1" = purge ]; then
    rm -rf /var/lib/syncmon /run/syncmon
fi
exit 0
EOF
chmod 0755 "$root/DEBIAN/postinst" "$root/DEBIAN/prerm" "$root/DEBIAN/postrm"

# Installed-Size as dpkg-gencontrol counts it: KiB per file, rounded up, plus one per directory.
installed_size=$(cd "$root" && find . -path ./DEBIAN -prune -o \( -type f -printf '%s\n' -o -printf '1024\n' \) |
    awk '{ total += int(($1 + 1023) / 1024) } END { print total }')

cat >"$root/DEBIAN/control" <<EOF
Package: syncmon
Version: $version
Architecture: amd64
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $depends
Recommends: systemd
Suggests: prometheus, prometheus-alertmanager
Section: admin
Priority: optional
Description: monitor for sync engines: stalls, errors, Prometheus metrics
 Sync fails silently: an engine stops importing or exporting, nothing errors,
 and people find out days later when two devices disagree. syncmon is a daemon
 that watches sync engines and says so the moment sync stops.
 .
 Engines send it their event stream as NDJSON (the vocabulary of CKSyncEngine
 and NSPersistentCloudKitContainer events) over a Unix socket held by systemd
 (syncmon.socket), or syncmon follows streams they serve, Syncthing's REST API,
 or batch jobs run under "syncmon wrap" (rclone, restic, rsync). For every
 engine and database it keeps a setup, import and export state machine,
 follows account and network availability and engine liveness, and decides
 when sync has stalled.
 .
 It reports through Prometheus metrics (with alerting and recording rules and
 a Grafana dashboard in /usr/share/syncmon), structured journald entries with
 a message catalog, the systemd status line and the "syncmon status" command
 (table, JSON or Nagios plugin output).
EOF

# md5sums of every file outside DEBIAN/, as dh_md5sums writes them.
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/conffiles" "$root/DEBIAN/md5sums"

# Reproducible: every time clamped to the commit's.
find "$root" -newermt "@$SOURCE_DATE_EPOCH" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

deb="$outdir/syncmon_${version}_amd64.deb"
case "${SYNCMON_DEB_COMPRESSION:-xz}" in
    xz) compression=(-Zxz) ;;
    gzip) compression=(-Zgzip -z1) ;;
    *) echo "package-deb: SYNCMON_DEB_COMPRESSION is xz or gzip, not $SYNCMON_DEB_COMPRESSION" >&2; exit 2 ;;
esac
dpkg-deb --build --root-owner-group "${compression[@]}" "$root" "$deb" >&2

if [ "${SYNCMON_DEB_LINTIAN:-1}" = 1 ] && command -v lintian >/dev/null; then
    # Errors fail; warnings and the rest are printed (each one is explained in deploy/README.md).
    status=0
    lintian --info --display-info --tag-display-limit 0 "$deb" >"$work/lintian.txt" 2>&1 || status=$?
    sed 's/^/lintian: /' "$work/lintian.txt" >&2
    if grep -q '^E: ' "$work/lintian.txt" || [ "$status" -ne 0 ]; then
        echo "package-deb: lintian reports errors (exit $status)" >&2; exit 1
    fi
    echo "lintian: $(grep -c '^E: ' "$work/lintian.txt" || true) errors, $(grep -c '^W: ' "$work/lintian.txt" || true) warnings" >&2
fi
echo "package-deb: $(du -k "$deb" | cut -f1) KiB, Installed-Size $installed_size KiB, Depends: $depends" >&2
echo "$deb"
