#!/usr/bin/env bash
# Tests what deploy/ and dashboards/ ship, against the real tools (Debian 12's promtool,
# prometheus, systemd-analyze, systemd):
#   1. promtool check rules       the alerting and recording rules are valid (lint=all, fatal)
#   2. promtool test rules        every alert fires when it should and stays silent when it
#                                 should not (deploy/prometheus/tests/*.yml); recording rules compute
#   3. dashboard lint             scripts/lint-dashboard.py on dashboards/syncmon.json, its
#                                 self-test, and the deliberately broken dashboard must fail
#   4. systemd-analyze verify     both units, unchanged, in a scratch root holding the binary
#                                 (systemd-analyze security no worse than 1.2); the syncmon wrap
#                                 recipes (deploy/systemd/wrap), which docs/wrap.md must show as shipped
#   5. unit sandbox               the units under systemd 252 as PID 1 of throw-away namespaces
#                                 (scripts/test-unit-sandbox.sh; on by default, SYNCMON_UNIT_SANDBOX=0 leaves it out,
#                                 as root; CI runs it, and fails where it cannot build the container)
#   6. integration                a live `syncmon daemon` fed recorded streams, scraped by a real
#                                 Prometheus with the shipped rules; every dashboard query and rule
#                                 expression evaluated over the HTTP API (scripts/deploy-integration.py)
#   7. live /metrics              the same daemon's /metrics through `promtool check metrics`, which
#                                 must exit 0 and print nothing, and its OpenMetrics answer through
#                                 the reference parser (python3-prometheus-client)
# Usage: scripts/test-deploy.sh            (binary: $SYNCMON_BINARY, default .build/debug/syncmon)
# Python: $PYTHON, default Debian's /usr/bin/python3 — the interpreter the python3-* packages of
# scripts/install-deps.sh --test install into (a python3 earlier in $PATH, pyenv's say, has not).
set -euo pipefail
cd "$(dirname "$0")/.."

binary=${SYNCMON_BINARY:-.build/debug/syncmon}
promtool=${PROMTOOL:-promtool}
prometheus=${PROMETHEUS:-prometheus}
python=${PYTHON:-/usr/bin/python3}
for tool in "$promtool" "$prometheus" systemd-analyze "$python" curl; do
    command -v "$tool" >/dev/null || { echo "test-deploy: $tool not found (scripts/install-deps.sh --test)" >&2; exit 2; }
done
for module in yaml prometheus_client.openmetrics.parser; do
    "$python" -c "import $module" 2>/dev/null || { echo "test-deploy: $python cannot import $module (scripts/install-deps.sh --test)" >&2; exit 2; }
done
[ -x "$binary" ] || { echo "test-deploy: no syncmon binary at $binary (build it, or set SYNCMON_BINARY)" >&2; exit 2; }
binary=$(readlink -f "$binary")

work=$(mktemp -d /tmp/syncmon-test-deploy.XXXXXX)
pids=()
cleanup() {
    local pid
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

step() { printf '\n== %s\n' "$*"; }
started=$SECONDS

step "promtool check rules"
"$promtool" check rules --lint=all --lint-fatal deploy/prometheus/syncmon-alerts.yml deploy/prometheus/syncmon-rules.yml deploy/prometheus/syncmon-fleet.yml deploy/prometheus/syncmon-fleet-global.yml

step "promtool test rules"
"$promtool" test rules deploy/prometheus/tests/*.yml deploy/prometheus/syncmon-fleet.test.yml

step "promtool check config (the example scrape configuration)"
"$promtool" check config deploy/prometheus/prometheus.yml.example

step "dashboard lint"
"$python" scripts/lint-dashboard.py --promtool "$promtool" dashboards/syncmon.json dashboards/syncmon-fleet.json
"$python" scripts/lint-dashboard.py --promtool "$promtool" --self-test dashboards/syncmon.json
"$python" -c 'import json, sys; json.load(open(sys.argv[1]))' dashboards/syncmon.json
if "$python" scripts/lint-dashboard.py --promtool "$promtool" scripts/testdata/broken-dashboard.json >"$work/broken.txt"; then
    echo "test-deploy: the broken dashboard passed the lint" >&2; exit 1
fi
for rule in $("$python" -c 'import json, sys; print(" ".join(json.load(open(sys.argv[1]))["__expect_rules"]))' scripts/testdata/broken-dashboard.json); do
    grep -q "^$rule: " "$work/broken.txt" || { cat "$work/broken.txt" >&2; echo "test-deploy: broken dashboard: $rule not reported" >&2; exit 1; }
done
echo "broken dashboard rejected: $(grep -c ': ' "$work/broken.txt") findings, every expected rule among them"
for file in dashboards/provisioning/*/*.yml deploy/prometheus/*.yml deploy/prometheus/prometheus.yml.example; do
    "$python" -c 'import sys, yaml; yaml.safe_load(open(sys.argv[1]))' "$file"
done
echo "provisioning and Prometheus YAML files parse"

step "systemd-analyze verify"
root="$work/root"
mkdir -p "$root/etc/systemd/system" "$root/usr/local/bin" "$root/usr/lib/systemd" "$root/usr/bin"
ln -s usr/bin "$root/bin"
ln -s usr/lib "$root/lib"
cp -a /usr/lib/systemd/system "$root/usr/lib/systemd/"
cp "$(type -P kill)" "$root/usr/bin/kill"
cp "$binary" "$root/usr/local/bin/syncmon"
cp deploy/systemd/syncmon.service deploy/systemd/syncmon.socket "$root/etc/systemd/system/"
# verify exits 0 on some findings (unknown keys are only warnings): any output is a failure.
if ! systemd-analyze verify --root="$root" syncmon.socket syncmon.service >"$work/verify.txt" 2>&1 || [ -s "$work/verify.txt" ]; then
    cat "$work/verify.txt" >&2; echo "test-deploy: systemd-analyze verify failed" >&2; exit 1
fi
echo "syncmon.socket, syncmon.service: no findings"
# The syncmon wrap recipes of docs/wrap.md, with the tools they run in the scratch root too.
for tool in rclone restic rsync; do
    path=$(type -P "$tool") || { echo "test-deploy: $tool not found (scripts/install-deps.sh --test)" >&2; exit 2; }
    cp "$path" "$root/usr/bin/$tool"
done
cp deploy/systemd/wrap/*.service deploy/systemd/wrap/*.timer "$root/etc/systemd/system/"
recipes=$(cd deploy/systemd/wrap && ls *.service *.timer)
# shellcheck disable=SC2086
if ! (cd "$root/etc/systemd/system" && systemd-analyze verify --root="$root" $recipes) >"$work/verify-wrap.txt" 2>&1 || [ -s "$work/verify-wrap.txt" ]; then
    cat "$work/verify-wrap.txt" >&2; echo "test-deploy: systemd-analyze verify of the wrap recipes failed" >&2; exit 1
fi
# docs/wrap.md shows each recipe file as it is shipped.
"$python" - deploy/systemd/wrap/* <<'PY'
import sys
doc = open("docs/wrap.md").read()
missing = [path for path in sys.argv[1:] if open(path).read().strip() not in doc]
if missing:
    sys.exit("test-deploy: docs/wrap.md does not show these as shipped: " + ", ".join(missing))
PY
echo "wrap recipes ($(echo $recipes | wc -w) units): no findings, shown in docs/wrap.md as shipped"
systemd-analyze security --offline=yes --root="$root" syncmon.service 2>/dev/null | tail -n 1 || true
# The exposure must not get worse than 1.2 (deploy/README.md, "Hardening"): --threshold takes it x10.
if ! systemd-analyze security --offline=yes --root="$root" --threshold=12 syncmon.service >/dev/null 2>&1; then
    systemd-analyze security --offline=yes --root="$root" syncmon.service 2>&1 | grep -E '✗|Overall' >&2 || true
    echo "test-deploy: systemd-analyze security rates syncmon.service worse than 1.2" >&2; exit 1
fi

step "unit sandbox (systemd as PID 1 in namespaces)"
# On by default (about 12 s); SYNCMON_UNIT_SANDBOX=0 leaves it out on a machine that cannot
# build the container. Under CI a sandbox that cannot run is a failure, not a skip.
if [ "${SYNCMON_UNIT_SANDBOX:-1}" != 1 ]; then
    [ -n "${CI:-}" ] && { echo "test-deploy: SYNCMON_UNIT_SANDBOX=0 under CI" >&2; exit 1; }
    echo "left out (SYNCMON_UNIT_SANDBOX=0)"
else
    status=0
    scripts/test-unit-sandbox.sh "$binary" || status=$?
    if [ "$status" -eq 77 ] && [ -z "${CI:-}" ]; then
        echo "skipped: cannot run here"
    elif [ "$status" -ne 0 ]; then
        exit "$status"
    fi
fi

step "integration: syncmon daemon + Prometheus"
free_port() { "$python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
syncmon_port=$(free_port)
prometheus_port=$(free_port)
# --host-network online: the alerts must not depend on this machine's routes, and the live
# /metrics below then carries a syncmon_host_network_up sample for promtool.
"$binary" daemon --listen "127.0.0.1:$syncmon_port" --events-socket "$work/events.sock" \
    --state-dir "$work/state" --log-target stderr --log-level notice --host-network online >"$work/syncmon.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
    curl -fsS "http://127.0.0.1:$syncmon_port/healthz" >/dev/null 2>&1 && [ -S "$work/events.sock" ] && break
    sleep 0.1
done
curl -fsS "http://127.0.0.1:$syncmon_port/healthz" >/dev/null || { cat "$work/syncmon.log" >&2; echo "test-deploy: syncmon did not start" >&2; exit 1; }

cat >"$work/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
rule_files:
  - $PWD/deploy/prometheus/syncmon-alerts.yml
  - $PWD/deploy/prometheus/syncmon-rules.yml
scrape_configs:
  - job_name: syncmon
    static_configs:
      - targets: ["127.0.0.1:$syncmon_port"]
EOF
"$promtool" check config "$work/prometheus.yml" >/dev/null
"$prometheus" --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
    --web.listen-address="127.0.0.1:$prometheus_port" --log.level=warn >"$work/prometheus.log" 2>&1 &
pids+=($!)
for _ in $(seq 150); do
    curl -fsS "http://127.0.0.1:$prometheus_port/-/ready" >/dev/null 2>&1 && break
    sleep 0.2
done
curl -fsS "http://127.0.0.1:$prometheus_port/-/ready" >/dev/null || { cat "$work/prometheus.log" >&2; echo "test-deploy: Prometheus did not start" >&2; exit 1; }

if ! "$python" scripts/deploy-integration.py --prometheus "http://127.0.0.1:$prometheus_port" \
    --events-socket "$work/events.sock" --dashboard dashboards/syncmon.json \
    --fixtures Tests/Fixtures/replay --runbook docs/runbook.md; then
    echo "--- syncmon log" >&2; tail -n 30 "$work/syncmon.log" >&2
    echo "--- prometheus log" >&2; tail -n 30 "$work/prometheus.log" >&2
    exit 1
fi

step "live /metrics: promtool check metrics, OpenMetrics reference parser"
# The daemon now holds the whole fed fleet (every summary, stalls, errors, rejections).
curl -fsS "http://127.0.0.1:$syncmon_port/metrics" >"$work/metrics.txt"
grep -q '^syncmon_status{' "$work/metrics.txt" || { echo "test-deploy: no syncmon_status in /metrics" >&2; exit 1; }
grep -q '^syncmon_host_network_up 1$' "$work/metrics.txt" || { echo "test-deploy: no syncmon_host_network_up 1 in /metrics" >&2; exit 1; }
if grep -q '^syncmon_summary' "$work/metrics.txt"; then echo "test-deploy: /metrics still has syncmon_summary" >&2; exit 1; fi
# Any finding fails, lint included: promtool must exit 0 and print nothing (docs/metrics.md#promtool).
status=0
"$promtool" check metrics <"$work/metrics.txt" >"$work/promtool-metrics.txt" 2>&1 || status=$?
if [ "$status" -ne 0 ] || [ -s "$work/promtool-metrics.txt" ]; then
    cat "$work/promtool-metrics.txt" >&2
    echo "test-deploy: promtool check metrics exited $status on the live /metrics; it must print nothing" >&2; exit 1
fi
echo "promtool check metrics: exit 0, no output ($(grep -c '^[a-z]' "$work/metrics.txt") samples)"
curl -fsS -H 'Accept: application/openmetrics-text; version=1.0.0' "http://127.0.0.1:$syncmon_port/metrics" >"$work/metrics.om"
"$python" - "$work/metrics.om" <<'PY'
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
families = list(text_string_to_metric_families(open(sys.argv[1]).read()))
names = {family.name for family in families}
assert "syncmon_status" in names and "syncmon_summary" not in names, sorted(names)
print(f"OpenMetrics reference parser: {len(families)} families, {sum(len(f.samples) for f in families)} samples")
PY

printf '\ntest-deploy: all checks passed in %ss\n' $((SECONDS - started))
