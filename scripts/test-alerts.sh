#!/usr/bin/env bash
# The alerts end to end, with the real components an operator runs: a live `syncmon daemon`,
# Debian's Prometheus evaluating the shipped alerting rules, Debian's Alertmanager
# (prometheus-alertmanager) routing them, and a webhook receiver (python3 http.server) that
# records every notification. One engine's export fails with an actionable error
# (quotaExceeded) and another's import stops making progress; both alerts must be delivered as
# firing — SyncmonSyncError (critical) and SyncmonSyncStalled (warning, reason no_progress),
# with the engine, database, job and instance labels — and, once the engines succeed again,
# as resolved.
#
# The rules are deploy/prometheus/syncmon-alerts.yml with every `for:` cut to 2s (a transform of
# the shipped file, so the test follows it); syncmon's no_progress threshold is 2s
# (--no-progress-after); scrape and evaluation every second; Alertmanager groups for 1s.
# Everything listens on 127.0.0.1, on free ports. Takes ~25 s.
# Usage: scripts/test-alerts.sh   (binary: $SYNCMON_BINARY, default .build/debug/syncmon;
#                                  Python: $PYTHON, default Debian's /usr/bin/python3)
set -euo pipefail
cd "$(dirname "$0")/.."

binary=${SYNCMON_BINARY:-.build/debug/syncmon}
prometheus=${PROMETHEUS:-prometheus}
promtool=${PROMTOOL:-promtool}
alertmanager=${ALERTMANAGER:-prometheus-alertmanager}
python=${PYTHON:-/usr/bin/python3}
for tool in "$prometheus" "$promtool" "$alertmanager" "$python" curl; do
    command -v "$tool" >/dev/null || { echo "test-alerts: $tool not found (scripts/install-deps.sh --test)" >&2; exit 2; }
done
"$python" -c 'import yaml' 2>/dev/null || { echo "test-alerts: $python cannot import yaml (scripts/install-deps.sh --test)" >&2; exit 2; }
[ -x "$binary" ] || { echo "test-alerts: no syncmon binary at $binary (build it, or set SYNCMON_BINARY)" >&2; exit 2; }
binary=$(readlink -f "$binary")

work=$(mktemp -d /tmp/syncmon-test-alerts.XXXXXX)
pids=()
cleanup() {
    local pid
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
started=$SECONDS
logs() {
    local name
    for name in syncmon prometheus alertmanager webhook; do
        echo "--- $name log" >&2; tail -n 20 "$work/$name.log" >&2 || true
    done
    echo "--- notifications" >&2; cat "$work/notifications.ndjson" >&2 || true
}
fail() { echo "test-alerts: FAIL: $*" >&2; logs; exit 1; }
free_port() { "$python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_for() {  # wait_for SECONDS CMD... — polls CMD until it succeeds
    local deadline=$((SECONDS + $1)); shift
    until "$@" >/dev/null 2>&1; do [ $SECONDS -lt "$deadline" ] || return 1; sleep 0.2; done
}
syncmon_port=$(free_port)
prometheus_port=$(free_port)
alertmanager_port=$(free_port)
webhook_port=$(free_port)

# The shipped alerting rules with every `for:` at 2s; nothing else changes.
"$python" - deploy/prometheus/syncmon-alerts.yml "$work/syncmon-alerts.yml" <<'PY'
import sys, yaml
rules = yaml.safe_load(open(sys.argv[1]))
shortened = 0
for group in rules["groups"]:
    for rule in group["rules"]:
        if "for" in rule:
            rule["for"] = "2s"
            shortened += 1
assert shortened, "no `for:` to shorten"
yaml.safe_dump(rules, open(sys.argv[2], "w"), sort_keys=False, width=1000)
print(f"rules: {shortened} alerts with for: 2s")
PY
"$promtool" check rules "$work/syncmon-alerts.yml" >/dev/null

# The webhook receiver: one JSON line per notification.
cat >"$work/webhook.py" <<'PY'
import http.server, json, sys
out = open(sys.argv[2], "a", buffering=1)
class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        out.write(json.dumps(json.loads(body)) + "\n")
        self.send_response(200)
        self.end_headers()
    def log_message(self, *args):
        pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Receiver).serve_forever()
PY
: >"$work/notifications.ndjson"
"$python" "$work/webhook.py" "$webhook_port" "$work/notifications.ndjson" >"$work/webhook.log" 2>&1 &
pids+=($!)

# The daemon: no_progress after 2s; a fixed host network view, so the stall is not suppressed
# by this machine's routes.
"$binary" daemon --listen "127.0.0.1:$syncmon_port" --events-socket "$work/events.sock" \
    --state-dir "$work/state" --config /dev/null --log-target stderr --log-level notice \
    --host-network online --no-progress-after 2s >"$work/syncmon.log" 2>&1 &
pids+=($!)

cat >"$work/alertmanager.yml" <<EOF
route:
  receiver: webhook
  group_by: [alertname, engine, database]
  group_wait: 1s
  group_interval: 1s
  repeat_interval: 1h
receivers:
  - name: webhook
    webhook_configs:
      - url: http://127.0.0.1:$webhook_port/
        send_resolved: true
EOF
"$alertmanager" --config.file="$work/alertmanager.yml" --storage.path="$work/alertmanager" \
    --web.listen-address="127.0.0.1:$alertmanager_port" --cluster.listen-address= \
    --log.level=warn >"$work/alertmanager.log" 2>&1 &
pids+=($!)

cat >"$work/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
rule_files:
  - $work/syncmon-alerts.yml
alerting:
  alertmanagers:
    - static_configs:
        - targets: ["127.0.0.1:$alertmanager_port"]
scrape_configs:
  - job_name: syncmon
    static_configs:
      - targets: ["127.0.0.1:$syncmon_port"]
EOF
"$promtool" check config "$work/prometheus.yml" >/dev/null
"$prometheus" --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
    --web.listen-address="127.0.0.1:$prometheus_port" --rules.alert.resend-delay=1s \
    --log.level=warn >"$work/prometheus.log" 2>&1 &
pids+=($!)

wait_for 20 curl -fsS "http://127.0.0.1:$syncmon_port/healthz" || fail "syncmon did not start"
wait_for 20 test -S "$work/events.sock" || fail "no events socket"
wait_for 30 curl -fsS "http://127.0.0.1:$alertmanager_port/-/ready" || fail "Alertmanager did not start"
wait_for 30 curl -fsS "http://127.0.0.1:$prometheus_port/-/ready" || fail "Prometheus did not start"
target_up() {
    curl -fsS "http://127.0.0.1:$prometheus_port/api/v1/query?query=up%7Bjob%3D%22syncmon%22%7D%3D%3D1" | grep -q '"value"'
}
am_known() {
    curl -fsS "http://127.0.0.1:$prometheus_port/api/v1/alertmanagers" | grep -q "127.0.0.1:$alertmanager_port"
}
wait_for 30 target_up || fail "Prometheus does not scrape syncmon"
wait_for 30 am_known || fail "Prometheus does not know the Alertmanager"
echo "ok: syncmon :$syncmon_port, Prometheus :$prometheus_port, Alertmanager :$alertmanager_port, webhook :$webhook_port ($((SECONDS - started))s)"

emit() { "$binary" emit --events-socket "$work/events.sock" "$@" || fail "syncmon emit $*"; }
# delivered ALERT ENGINE STATUS: the webhook received ALERT for ENGINE with that status, with
# the labels an operator routes on; prints the time it first arrived.
delivered() {
    "$python" - "$work/notifications.ndjson" "$@" <<'PY'
import json, sys
path, alert, engine, status = sys.argv[1:5]
for line in open(path):
    notification = json.loads(line)
    for entry in notification["alerts"]:
        labels = entry["labels"]
        if labels.get("alertname") == alert and labels.get("engine") == engine and entry["status"] == status:
            for key in ("database", "job", "instance", "severity"):
                assert labels.get(key), f"{alert} without label {key}: {labels}"
            sys.exit(0)
sys.exit(1)
PY
}
label_of() {  # label_of ALERT ENGINE LABEL — from the first firing notification
    "$python" - "$work/notifications.ndjson" "$@" <<'PY'
import json, sys
path, alert, engine, key = sys.argv[1:5]
for line in open(path):
    for entry in json.loads(line)["alerts"]:
        labels = entry["labels"]
        if labels.get("alertname") == alert and labels.get("engine") == engine:
            print(labels.get(key, "")); sys.exit(0)
PY
}

# The failing engine: an export cycle that fails with quotaExceeded (actionable: status error).
# The stalling engine: an import that starts and then shows no progress.
t_fail=$SECONDS
emit --engine quota willSendChanges
emit --engine quota error phase=export error.code=quotaExceeded
emit --engine quota didSendChanges
emit --engine hung willFetchChanges
wait_for 90 delivered SyncmonSyncError quota firing || fail "SyncmonSyncError was not delivered as firing"
t_error_firing=$((SECONDS - t_fail))
wait_for 90 delivered SyncmonSyncStalled hung firing || fail "SyncmonSyncStalled was not delivered as firing"
t_stalled_firing=$((SECONDS - t_fail))
[ "$(label_of SyncmonSyncError quota severity)" = critical ] || fail "SyncmonSyncError is not critical"
[ "$(label_of SyncmonSyncStalled hung severity)" = warning ] || fail "SyncmonSyncStalled is not warning"
[ "$(label_of SyncmonSyncStalled hung reason)" = no_progress ] || fail "SyncmonSyncStalled reason is not no_progress"
[ "$(label_of SyncmonSyncError quota job)" = syncmon ] || fail "SyncmonSyncError job is not syncmon"
# Neither alert names the other engine: each follows its own engine's state.
delivered SyncmonSyncError hung firing && fail "SyncmonSyncError fired for the stalled engine"
delivered SyncmonSyncStalled quota firing && fail "SyncmonSyncStalled fired for the failing engine"
echo "ok: firing delivered: SyncmonSyncError (quota, critical) after ${t_error_firing}s, SyncmonSyncStalled (hung, no_progress, warning) after ${t_stalled_firing}s"

# Recovery: the export succeeds, the import makes progress and completes.
t_recover=$SECONDS
emit --engine quota willSendChanges
emit --engine quota sentRecordZoneChanges savedRecords=1 deletedRecords=0 "failedRecordSaves=[]" "failedRecordDeletes=[]"
emit --engine quota didSendChanges
emit --engine hung fetchedRecordZoneChanges zone=z modifications=1 deletions=0
emit --engine hung didFetchChanges
wait_for 90 delivered SyncmonSyncError quota resolved || fail "SyncmonSyncError was not delivered as resolved"
t_error_resolved=$((SECONDS - t_recover))
wait_for 90 delivered SyncmonSyncStalled hung resolved || fail "SyncmonSyncStalled was not delivered as resolved"
t_stalled_resolved=$((SECONDS - t_recover))
echo "ok: resolved delivered: SyncmonSyncError after ${t_error_resolved}s, SyncmonSyncStalled after ${t_stalled_resolved}s"
others=$("$python" - "$work/notifications.ndjson" <<'PY'
import json, sys
names = {entry["labels"]["alertname"] for line in open(sys.argv[1]) for entry in json.loads(line)["alerts"]}
print(" ".join(sorted(names - {"SyncmonSyncError", "SyncmonSyncStalled"})) or "none")
PY
)
echo "notifications: $(wc -l <"$work/notifications.ndjson"); other alerts delivered: $others"
printf 'test-alerts: all checks passed in %ss\n' $((SECONDS - started))
