"""Runs inside the detection sandbox (scripts/detection/units.sh pipes it to python3 there).

  inside.py healthy SECONDS
      samples every column once a second for SECONDS; prints one JSON object: the looks taken and
      the alarms each column raised (syncmon: a pair error, engine_down or stalled; node_exporter:
      a unit in state failed; the dead man's switch: a job past its last ping + period + grace).
  inside.py measure NAME ENGINE EXPECTED THRESHOLD DESCRIPTION PERIOD GRACE COMMAND...
      runs COMMAND (the fault), polls every 0.25 s; prints one JSON row of the matrix.
"""
import json
import subprocess
import sys
import time
import urllib.request

from common import ALARMS, codes, get, verdict

UNITS = {"unison": "unison-dm.service", "crashy": "crashy.service", "victim": "victim.service",
         "backup": "backup.service", "mirror": "mirror.service", "bisync": "bisync.service",
         "offsite": "offsite.service", "vault": "vault.service", "pull": "pull.service",
         "archive": "archive.service", "photos": "photos.service", "bisync2": "bisync2.service",
         "courier": "courier.service", "flaky": "flaky.service", "coffer": "coffer.service",
         "lsyncd": "lsyncd-dm.service", "unison2": "unison2-dm.service"}
JOBS = {"backup", "mirror", "bisync", "offsite", "vault", "pull", "archive", "photos", "bisync2", "courier", "coffer"}
def syncmon_rows():
    document = get("http://127.0.0.1:9478/api/v1/status")
    return {row["engine"]: row for row in document["engines"]}


def node_failed():
    """The units node_exporter's systemd collector shows in state failed."""
    failed = set()
    with urllib.request.urlopen("http://127.0.0.1:9100/metrics", timeout=5) as answer:
        text = answer.read().decode()
    for line in text.splitlines():
        if line.startswith("node_systemd_unit_state{") and 'state="failed"' in line and line.endswith(" 1"):
            failed.add(line.split('name="', 1)[1].split('"', 1)[0])
    return failed


def unit_state(unit):
    output = subprocess.run(["systemctl", "show", "-p", "ActiveState,SubState,Result,ExecMainStatus,ExecMainExitTimestampMonotonic", unit],
                            capture_output=True, text=True).stdout
    return dict(line.split("=", 1) for line in output.splitlines() if "=" in line)


def last_ping(unit):
    """The dead man's switch's last ping: the job's last exit with status 0 (monotonic seconds)."""
    state = unit_state(unit)
    exited = int(state.get("ExecMainExitTimestampMonotonic", "0") or 0)
    if exited and state.get("ExecMainStatus") == "0" and state.get("Result") == "success":
        return exited / 1e6
    return None


def healthy(seconds):
    pings = {job: last_ping(UNITS[job]) for job in JOBS}
    looks, alarms = 0, {"syncmon": [], "node_exporter": [], "dead_mans_switch": []}
    period, grace = 3, 6
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        now = time.monotonic()
        rows = syncmon_rows()
        for engine, row in rows.items():
            # crashy is stopped in the healthy run: its fault comes later.
            if row.get("summary") in ALARMS:
                alarms["syncmon"].append(f"{engine}: {verdict(row)}")
        for unit in node_failed() & set(UNITS.values()):
            alarms["node_exporter"].append(unit)
        for job in JOBS:
            ping = last_ping(UNITS[job])
            if ping:
                pings[job] = ping
            if pings[job] is not None and now > pings[job] + period + grace:
                alarms["dead_mans_switch"].append(job)
        looks += 1
        time.sleep(max(0.0, 1.0 - (time.monotonic() - now)))
    print(json.dumps({"healthy_seconds": seconds, "looks": looks, "pairs": len(UNITS),
                      "alarms": {column: len(items) for column, items in alarms.items()},
                      "examples": {column: items[:5] for column, items in alarms.items()}}))


def measure(name, engine, expected, threshold, description, period, grace, command):
    unit = UNITS[engine]
    # "error:resyncRequired": the summary, and the failure code the tool's own words give.
    summary, _, code = expected.partition(":")
    ping = last_ping(unit) if engine in JOBS else None
    states = {}
    node_looks = node_hits = 0
    started = time.monotonic()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    syncmon_after = node_after = None
    syncmon_saw, engine_said = None, None
    deadline = started + threshold + 30
    while True:
        now = time.monotonic()
        row = syncmon_rows().get(engine, {})
        state = unit_state(unit)
        states[state.get("ActiveState")] = states.get(state.get("ActiveState"), 0) + 1
        failed = unit in node_failed()
        node_looks += 1
        node_hits += failed
        if engine in JOBS:
            ping = last_ping(unit) or ping
        if syncmon_after is None and row.get("summary") == summary and (not code or code in codes(row)):
            syncmon_after, syncmon_saw = now - started, verdict(row)
            engine_said = {key: state.get(key) for key in ("ActiveState", "SubState", "Result", "ExecMainStatus")}
        if node_after is None and failed:
            node_after = now - started
        # Sampled on after syncmon's answer for 5 s: what a scrape would have shown meanwhile.
        if (syncmon_after is not None and now - started > syncmon_after + 5) or now > deadline:
            break
        time.sleep(0.25)
    dead_mans_switch = None
    if engine in JOBS and ping is not None:
        dead_mans_switch = round(ping + period + grace - started, 1)
    print(json.dumps({
        "fault": name, "description": description, "engine": engine, "unit": unit,
        "expected": expected, "threshold_s": threshold,
        "syncmon": syncmon_saw or verdict(syncmon_rows().get(engine, {})),
        "syncmon_after_s": None if syncmon_after is None else round(syncmon_after, 2),
        "engine_said": engine_said or {key: unit_state(unit).get(key) for key in ("ActiveState", "SubState", "Result", "ExecMainStatus")},
        "active_states_seen": states,
        "node_exporter_failed_after_s": None if node_after is None else round(node_after, 2),
        "node_exporter_failed_share": round(node_hits / node_looks, 2) if node_looks else None,
        "dead_mans_switch_after_s": dead_mans_switch,
        "job": engine in JOBS,
    }))


if __name__ == "__main__":
    if sys.argv[1] == "healthy":
        healthy(float(sys.argv[2]))
    else:
        name, engine, expected, threshold, description, period, grace = sys.argv[2:9]
        measure(name, engine, expected, float(threshold), description, float(period), float(grace), sys.argv[9:])
