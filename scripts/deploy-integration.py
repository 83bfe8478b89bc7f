#!/usr/bin/env python3
"""The end-to-end half of scripts/test-deploy.sh: a live syncmon daemon, fed recorded streams, is
scraped by a real Prometheus with the shipped rules loaded; every dashboard query and every rule
expression is then evaluated through Prometheus' HTTP API. Python 3 standard library only.

scripts/test-deploy.sh starts (and stops) the daemon and Prometheus and calls:

    scripts/deploy-integration.py --prometheus URL --events-socket PATH \
        --dashboard dashboards/syncmon.json --fixtures Tests/Fixtures/replay --runbook docs/runbook.md

What it feeds: recorded fixtures from Tests/Fixtures/replay, each engine renamed with a prefix so
they do not mix, their times moved so that "now" is the moment each fixture's expectation
describes (its last event + its --advance). It sends them on one push connection, which it keeps
open until the end (engines that sent engineStarted are tied to it), in two phases with scrapes
in between, so that counters grow between samples and rate() has something to show.
"""

import argparse
import datetime
import json
import re
import socket
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

# (fixture, engine prefix, phase, lag override in seconds or None = the fixture's --advance)
FIXTURES = [
    ("ck-realistic-day", "day", "split", 60),
    ("ck-no-network", "offline", "A", None),
    ("ck-account-not-available", "noaccount", "A", None),
    ("ck-engine-down", "down", "A", None),
    ("ck-engine-stopped", "stopped", "A", None),
    ("ck-not-syncing", "stalled", "A", None),
    ("ck-pending-not-draining", "pending", "A", None),
    ("container-happy", "container", "A", None),
    ("ck-two-databases", "twodb", "A", None),
    ("ck-in-progress", "busy", "A", 0),          # in progress, heartbeats every 20 s: keep it young
    ("multi-engine-fleet", "fleet", "A", None),
    ("ck-export-actionable-error", "error", "B", None),
    ("ck-throttled", "throttled", "B", 60),      # retryAfter 900 s: leave most of it
    ("ck-retry-loop", "retry", "split", None),  # transient errors in both phases: rates > 0
    ("ck-conflict-only", "conflict", "B", None),
    ("ck-export-transient-retrying", "retrying", "B", None),
    ("container-transient-retrying", "ctretry", "B", None),
    ("bad-json-mixed", None, "B", None),          # bad lines: sent as they are (not renamed)
    ("bad-envelope-mixed", None, "B", None),
]

# Summaries the fed fleet must show (checked on the "Pairs by summary" query).
EXPECTED_SUMMARIES = {"succeeded", "in_progress", "not_started", "error", "stalled", "engine_down",
                      "no_network", "account_not_available", "throttled", "retrying", "stopped"}

# Dashboard panels whose queries may legitimately return nothing for this stream, and why.
ALLOWED_EMPTY_PANELS = {
    "Subscribe sources": "the daemon runs without --subscribe, so syncmon_source_up has no series",
}

# Alert expressions that must return series for this stream (their conditions hold right now;
# the `for:` durations keep them pending, which is checked too). The others may be empty:
ALERTS_WITH_DATA = {"SyncmonSyncStalled", "SyncmonSyncError", "SyncmonEngineDown",
                    "SyncmonThrottledTooLong", "SyncmonAccountNotAvailable", "SyncmonEventsRejected"}
ALERTS_MAY_BE_EMPTY = {
    "SyncmonDown": "syncmon is up",
    "SyncmonAbsent": "the syncmon target exists",
    "SyncmonRestarting": "syncmon started once",
    "SyncmonSourceDown": "no --subscribe source",
    "SyncmonNoRecentImport": "depends on the fixtures' import ages (6 h threshold)",
    "SyncmonNoRecentExport": "depends on the fixtures' export ages (1 h threshold)",
    "SyncmonPendingChangesGrowing": "needs 30 minutes of growth",
    "SyncmonCanaryNotWriting": "the canary writes",
}
# Engines whose network is down (offline-…, twodb-notes/public): no sync alert may name them.
NETWORK_DOWN = [("offline-notes", "private"), ("twodb-notes", "public")]

RATE_INTERVAL = "1m"   # what Grafana would use for $__rate_interval here: > 4 × the 1 s scrape
TIME_KEYS = re.compile(rb'"(time|started|ended)"\s*:\s*"([0-9]{4}-[0-9]{2}-[0-9]{2}T[^"]+)"')
ENGINE_KEY = re.compile(rb'"engine"\s*:\s*"([^"]*)"')

failures = []


def fail(message):
    failures.append(message)
    print(f"  FAIL: {message}")


def parse_time(text):
    try:
        moment = datetime.datetime.fromisoformat(text.replace("z", "Z").replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else None  # RFC 3339 needs a zone; leave others alone


def format_time(moment):
    return moment.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def parse_duration(text):
    total, matched = 0.0, False
    for amount, unit in re.findall(r"([0-9.]+)([hms]?)", text):
        total += float(amount) * {"h": 3600, "m": 60, "s": 1, "": 1}[unit]
        matched = True
    return total if matched else 0.0


class Fixture:
    def __init__(self, directory, name, prefix, lag):
        with open(f"{directory}/{name}.jsonl", "rb") as file:
            data = file.read()
        if not data.endswith(b"\n"):
            data += b"\n"
        self.lines = data.splitlines(keepends=True)
        self.prefix = prefix
        with open(f"{directory}/{name}.expect.json") as file:
            arguments = json.load(file).get("arguments", [])
        advance = parse_duration(arguments[arguments.index("--advance") + 1]) if "--advance" in arguments else 0
        self.lag = advance if lag is None else lag
        times = [parse_time(m.group(2).decode()) for line in self.lines for m in TIME_KEYS.finditer(line)
                 if m.group(1) == b"time"]
        times = [t for t in times if t is not None]
        self.last = max(times) if times else None

    def rewritten(self, lines, now):
        """The lines with their times moved so that now = last event + lag, engines prefixed."""
        offset = (now - datetime.timedelta(seconds=self.lag) - self.last) if self.last else None

        def shift(match):
            moment = parse_time(match.group(2).decode())
            if moment is None or offset is None:
                return match.group(0)
            return b'"' + match.group(1) + b'":"' + format_time(moment + offset).encode() + b'"'

        def rename(match):
            return b'"engine":"' + self.prefix.encode() + b"-" + match.group(1) + b'"'

        out = []
        for line in lines:
            line = TIME_KEYS.sub(shift, line)
            if self.prefix:
                line = ENGINE_KEY.sub(rename, line, count=1)
            out.append(line)
        return b"".join(out)


class Prometheus:
    def __init__(self, url):
        self.url = url.rstrip("/")

    def get(self, path, **params):
        query = urllib.parse.urlencode(params, doseq=True)
        try:
            with urllib.request.urlopen(f"{self.url}{path}?{query}", timeout=10) as response:
                return json.load(response)
        except urllib.error.HTTPError as error:
            body = error.read().decode(errors="replace")
            try:
                return json.loads(body)
            except ValueError:
                return {"status": "error", "error": f"HTTP {error.code}: {body[:300]}"}

    def query(self, expr):
        return self.get("/api/v1/query", query=expr)

    def value(self, expr):
        answer = self.query(expr)
        result = answer.get("data", {}).get("result", []) if answer.get("status") == "success" else []
        return float(result[0]["value"][1]) if result else None


def wait(what, predicate, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if predicate():
                return True
        except (OSError, ValueError, KeyError):
            pass
        time.sleep(0.25)
    fail(f"timed out after {timeout:.0f}s waiting for {what}")
    return False


def substitute(expr):
    expr = expr.replace("$__rate_interval", RATE_INTERVAL).replace("${__rate_interval}", RATE_INTERVAL)
    return re.sub(r"\$\{?(job|instance|engine|datasource)\}?", ".+", expr)


def anchors(markdown_path):
    """GitHub-style anchors of the Markdown headings."""
    found = set()
    with open(markdown_path) as file:
        for line in file:
            match = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
            if match:
                text = re.sub(r"[`*_]", "", match.group(1)).strip().lower()
                found.add(re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", text)))
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--prometheus", required=True)
    parser.add_argument("--events-socket", required=True)
    parser.add_argument("--dashboard", required=True)
    parser.add_argument("--fixtures", required=True)
    parser.add_argument("--runbook", required=True)
    parser.add_argument("--job", default="syncmon")
    args = parser.parse_args()
    prom = Prometheus(args.prometheus)
    started = time.monotonic()

    print("prometheus: waiting for the first scrape of syncmon")
    if not wait("up{job=syncmon} == 1", lambda: prom.value(f'up{{job="{args.job}"}}') == 1, 60):
        return 1

    fixtures = [(Fixture(args.fixtures, name, prefix, lag), phase) for name, prefix, phase, lag in FIXTURES]
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.connect(args.events_socket)

    def send(phase):
        now = datetime.datetime.now(datetime.timezone.utc)
        sent = 0
        for fixture, fixture_phase in fixtures:
            lines = fixture.lines
            if fixture_phase == "split":
                half = len(lines) // 2
                lines = lines[:half] if phase == "A" else lines[half:]
            elif fixture_phase != phase:
                continue
            data = fixture.rewritten(lines, now)
            connection.sendall(data)
            sent += len(lines)
        return sent

    def received():
        return prom.value(f'sum(syncmon_events_received_total{{job="{args.job}"}})') or 0

    sent_a = send("A")
    print(f"feed: phase A, {sent_a} lines")
    # Received counts accepted and rejected lines alike; wait for Prometheus to have scraped them.
    wait("phase A in Prometheus", lambda: received() >= sent_a * 0.9, 30)
    time.sleep(2)
    sent_b = send("B")
    print(f"feed: phase B, {sent_b} lines")
    wait("phase B in Prometheus", lambda: received() >= (sent_a + sent_b) * 0.9, 30)
    # A few rule evaluations (1 s) and scrapes after the last line.
    time.sleep(4)
    print(f"feed: {received():.0f} lines received by syncmon as Prometheus sees it")

    # --------------------------------------------------------------- rules
    print("rules: loaded and healthy")
    groups = prom.get("/api/v1/rules").get("data", {}).get("groups", [])
    rules = [rule for group in groups for rule in group["rules"]]
    alerting = [r for r in rules if r["type"] == "alerting"]
    recording = [r for r in rules if r["type"] == "recording"]
    print(f"  {len(groups)} groups, {len(alerting)} alerting and {len(recording)} recording rules")
    if not alerting or not recording:
        fail("the shipped rules are not loaded")
    for rule in rules:
        if rule.get("health") != "ok" or rule.get("lastError"):
            fail(f"rule {rule.get('name')}: health {rule.get('health')} {rule.get('lastError', '')}")

    runbook = anchors(args.runbook)
    for rule in alerting:
        annotations, labels = rule.get("annotations", {}), rule.get("labels", {})
        url = annotations.get("runbook_url", "")
        anchor = url.split("#", 1)[1] if "#" in url else ""
        if not url.startswith("docs/runbook.md#") or anchor not in runbook:
            fail(f"{rule['name']}: runbook_url {url!r} does not point at a heading of {args.runbook}")
        if labels.get("severity") not in ("critical", "warning", "info"):
            fail(f"{rule['name']}: severity {labels.get('severity')!r}")
        if not annotations.get("summary", "").endswith(".") or "{{" in annotations.get("summary", ""):
            fail(f"{rule['name']}: summary must be static and end with a period")
        if "{{" not in annotations.get("description", ""):
            fail(f"{rule['name']}: description must be templated")
        if not rule["name"].startswith("Syncmon"):
            fail(f"{rule['name']}: alert names start with Syncmon")

    print("rules: every expression evaluated on the live data")
    evaluated = 0
    for rule in rules:
        answer = prom.query(rule["query"])
        evaluated += 1
        if answer.get("status") != "success":
            fail(f"{rule['name']}: {answer.get('error')}")
            continue
        result = answer["data"]["result"]
        if rule["type"] == "alerting":
            name = rule["name"]
            note = "" if result else f"  (empty: {ALERTS_MAY_BE_EMPTY.get(name, 'NOT ALLOWED')})"
            print(f"  {name}: {len(result)} series{note}")
            if name in ALERTS_WITH_DATA and not result:
                fail(f"{name}: its expression returns nothing, but the fed stream holds its condition")
            if not result and name not in ALERTS_MAY_BE_EMPTY and name not in ALERTS_WITH_DATA:
                fail(f"{name}: empty and not listed in ALERTS_MAY_BE_EMPTY")
        elif not result:
            print(f"  {rule['name']}: empty")
    unknown = (ALERTS_WITH_DATA | set(ALERTS_MAY_BE_EMPTY)) - {r["name"] for r in alerting}
    if unknown:
        fail(f"listed alerts that do not exist: {sorted(unknown)}")

    print("alerts: Prometheus' own evaluation (pending, as every `for:` is longer than this test)")
    active = prom.get("/api/v1/alerts").get("data", {}).get("alerts", [])
    by_name = {}
    for alert in active:
        by_name.setdefault(alert["labels"]["alertname"], []).append(alert)
    for name in sorted(ALERTS_WITH_DATA):
        alerts = by_name.get(name, [])
        print(f"  {name}: {len(alerts)} {sorted({a['state'] for a in alerts})}")
        if not alerts:
            fail(f"{name}: not pending in Prometheus")
        for alert in alerts:
            labels = alert["labels"]
            needed = {"job", "instance", "severity"} | ({"engine", "database"} if name != "SyncmonEventsRejected" else {"reason"})
            if not needed <= set(labels):
                fail(f"{name}: labels {sorted(labels)} lack {sorted(needed - set(labels))}")
    for alert in active:
        labels = alert["labels"]
        if (labels.get("engine"), labels.get("database")) in NETWORK_DOWN:
            fail(f"{labels['alertname']} names {labels['engine']}/{labels['database']}, whose network is unavailable")
    print(f"  engines with the network down ({', '.join(e + '/' + d for e, d in NETWORK_DOWN)}) appear in no alert")

    # --------------------------------------------------------------- dashboard
    print("dashboard: variables")
    with open(args.dashboard) as file:
        dashboard = json.load(file)
    for variable in dashboard["templating"]["list"]:
        if variable.get("type") != "query":
            continue
        query = variable["query"]["query"] if isinstance(variable["query"], dict) else variable["query"]
        match = re.match(r"\s*label_values\((.*),\s*(\w+)\s*\)\s*$", query, re.S)
        if not match:
            fail(f"variable {variable['name']}: not label_values(): {query}")
            continue
        answer = prom.get(f"/api/v1/label/{match.group(2)}/values", **{"match[]": substitute(match.group(1))})
        values = answer.get("data") or []
        print(f"  ${variable['name']}: {len(values)} values {values[:6]}{' …' if len(values) > 6 else ''}")
        if answer.get("status") != "success" or not values:
            fail(f"variable {variable['name']}: {answer.get('error') or 'no values'}")

    print("dashboard: every query, instant and over the last minute")
    panels = []

    def walk(items):
        for item in items:
            panels.append(item)
            walk(item.get("panels", []))
    walk(dashboard["panels"])
    queries = 0
    end = time.time()
    for panel in panels:
        for target in panel.get("targets", []):
            expr = substitute(target["expr"])
            queries += 1
            instant = prom.query(expr)
            ranged = prom.get("/api/v1/query_range", query=expr, start=end - 60, end=end, step=2)
            label = f"{panel['title']} [{target['refId']}]"
            if instant.get("status") != "success" or ranged.get("status") != "success":
                fail(f"{label}: {instant.get('error') or ranged.get('error')}")
                continue
            result = instant["data"]["result"]
            numbers = [float(series["value"][1]) for series in result]
            real = [n for n in numbers if n == n]  # not NaN
            if not result or not real:
                if panel["title"] in ALLOWED_EMPTY_PANELS:
                    print(f"  {label}: empty (allowed: {ALLOWED_EMPTY_PANELS[panel['title']]})")
                else:
                    fail(f"{label}: no data{' (only NaN)' if result else ''}")
                continue
            print(f"  {label}: {len(result)} series, {len(ranged['data']['result'])} over the last minute")
            if panel["title"] == "Pairs by summary":
                present = {s["metric"]["status"] for s in result if float(s["value"][1]) > 0}
                missing = EXPECTED_SUMMARIES - present
                print(f"    summaries present: {sorted(present)}")
                if missing:
                    fail(f"the fed fleet should show summaries {sorted(missing)} too")
            if "rate(" in target["expr"] and not any(n > 0 for n in real):
                fail(f"{label}: every rate is 0 (the two-phase feed should make counters grow)")
    missing_panels = set(ALLOWED_EMPTY_PANELS) - {p["title"] for p in panels}
    if missing_panels:
        fail(f"ALLOWED_EMPTY_PANELS names panels that do not exist: {sorted(missing_panels)}")

    connection.close()
    print(f"summary: {len(rules)} rule expressions and {queries} dashboard queries evaluated in "
          f"{time.monotonic() - started:.0f}s; {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
