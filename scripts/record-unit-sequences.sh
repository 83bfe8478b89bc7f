#!/usr/bin/env bash
# Records how systemd 252 moves a crash loop, a stop of a service that exits 1 on SIGTERM, a
# SIGKILL and oneshot runs through its unit properties: boots it as PID 1 in the sandbox of
# scripts/test-unit-sandbox.sh (package mode) and prints every change `systemctl show` sees,
# polled every 10 ms (Tests/Fixtures/units/systemd-252-polled.txt; the signal-level sequence,
# which also shows the brief failed/failed of a crash, is in UnitTrackerTests, taken from
# scripts/test-units-e2e.sh's debug log). Needs root. A tool for people, not a test.
set -euo pipefail
cd "$(dirname "$0")/.."
SYNCMON_SANDBOX_MODE=package source scripts/test-unit-sandbox.sh
wait_for 20 in_ns systemctl is-active --quiet systemd-journald.socket || fail "no journald"
in_ns systemctl start dbus.socket dbus.service || true
in_ns sh -c 'cat > /etc/systemd/system/crash.service <<U
[Service]
ExecStart=/bin/sh -c "sleep 0.5; exit 3"
Restart=always
U
cat > /etc/systemd/system/term1.service <<U
[Service]
ExecStart=/bin/sh -c "trap \"exit 1\" TERM; while :; do sleep 0.1; done"
U
cat > /etc/systemd/system/shot.service <<U
[Service]
Type=oneshot
ExecStart=/bin/sh -c "sleep 0.3; exit \${CODE:-0}"
U
systemctl daemon-reload'
watch_unit() {  # watch_unit UNIT SECONDS
    in_ns sh -c "end=\$((\$(date +%s)+$2)); last=''; while [ \$(date +%s) -lt \$end ]; do s=\$(systemctl show -p LoadState,ActiveState,SubState,Result,ExecMainCode,ExecMainStatus,NRestarts,Job,Type --value $1 | tr '\n' ' '); [ \"\$s\" != \"\$last\" ] && echo \"\$(date +%s.%N | cut -c1-14) $1 \$s\" && last=\$s; sleep 0.01; done"
}
echo "== crash loop"; in_ns systemctl start crash.service; watch_unit crash.service 3; in_ns systemctl stop crash.service; watch_unit crash.service 1
echo "== stop with exit 1 on TERM"; in_ns systemctl start term1.service; watch_unit term1.service 1 & w=$!; sleep 0.5; in_ns systemctl stop term1.service; wait $w
echo "== kill -9"; in_ns systemctl start term1.service; watch_unit term1.service 1 & w=$!; sleep 0.4; in_ns systemctl kill -s KILL term1.service; wait $w
echo "== oneshot ok"; (in_ns systemctl start shot.service &); watch_unit shot.service 1
echo "== oneshot fail"; in_ns systemctl set-environment CODE=23; (in_ns systemctl start shot.service &) ; watch_unit shot.service 1
echo "== missing"; watch_unit nothere.service 1 || true
in_ns busctl --system get-property org.freedesktop.systemd1 /org/freedesktop/systemd1/unit/shot_2eservice org.freedesktop.systemd1.Service ExecMainStartTimestamp || true
