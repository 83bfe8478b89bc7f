"""Runs inside the detection sandbox (scripts/detection/units.sh pipes it to python3 there).

  inside.py sample SECONDS
      the one looker: until SECONDS pass or the file stop appears in LOOKS, takes a look at syncmon's
      status, node_exporter's failed units and the units' own states every 0.25 s, each on a thread
      of its own, and keeps the newest of each in LOOKS (written whole, then renamed).
  inside.py healthy SECONDS
      reads the looks once a second for SECONDS; prints one JSON object: the looks taken and the
      alarms each column raised (syncmon: a pair error, engine_down or stalled; node_exporter: a
      unit in state failed; the dead man's switch: a job past its last ping + period + grace).
  inside.py measure NAME ENGINE EXPECTED THRESHOLD DESCRIPTION PERIOD GRACE COMMAND...
      runs COMMAND (the fault), reads the looks every 0.25 s; prints one JSON row of the matrix.

The faults are measured side by side; one looker serves them all, so that seventeen measurements
do not scrape node_exporter (whose systemd collector asks systemd over D-Bus) seventeen times over:
on a slow machine that made its answers take longer than any timeout.
"""
import json
import os
import subprocess
import sys
import threading
import time
import urllib.request

from common import ALARMS, codes, get, verdict

LOOKS = "/run/syncmon-detection"
UNITS = {"unison": "unison-dm.service", "crashy": "crashy.service", "victim": "victim.service",
         "backup": "backup.service", "mirror": "mirror.service", "bisync": "bisync.service",
         "offsite": "offsite.service", "vault": "vault.service", "pull": "pull.service",
         "archive": "archive.service", "photos": "photos.service", "bisync2": "bisync2.service",
         "courier": "courier.service", "flaky": "flaky.service", "coffer": "coffer.service",
         "lsyncd": "lsyncd-dm.service", "unison2": "unison2-dm.service", "keeper": "keeper.service",
         "lsyncd2": "lsyncd2-dm.service", "ferry": "ferry.service", "uplink": "uplink.service"}
JOBS = {"backup", "mirror", "bisync", "offsite", "vault", "pull", "archive", "photos", "bisync2", "courier", "coffer",
        "keeper", "ferry", "uplink"}
# rclone's own metrics (`--rc --rc-enable-metrics`), served only while rclone runs.
RCLONE_METRICS = {"offsite": "http://127.0.0.1:5572/metrics", "courier": "http://127.0.0.1:5573/metrics"}
# lsyncd's status file (statusFile, rewritten every second): "There are N delays".
LSYNCD_STATUS = {"lsyncd2": "/run/lsyncd2.status"}
PROPERTIES = "Id,ActiveState,SubState,Result,ExecMainStatus,ExecMainExitTimestampMonotonic"


def syncmon_rows():
    document = get("http://127.0.0.1:9478/api/v1/status")
    return {row["engine"]: row for row in document["engines"]}


def node_failed():
    """The units node_exporter's systemd collector shows in state failed."""
    failed = []
    with urllib.request.urlopen("http://127.0.0.1:9100/metrics", timeout=30) as answer:
        text = answer.read().decode()
    for line in text.splitlines():
        if line.startswith("node_systemd_unit_state{") and 'state="failed"' in line and line.endswith(" 1"):
            failed.append(line.split('name="', 1)[1].split('"', 1)[0])
    return failed


def rclone_metrics():
    """Each rclone job's own metrics: rclone_errors_total, or None when nothing answers (rclone is
    between runs, or gone)."""
    errors = {}
    for engine, url in RCLONE_METRICS.items():
        try:
            with urllib.request.urlopen(url, timeout=1) as answer:
                text = answer.read().decode()
        except OSError:
            errors[engine] = None
            continue
        values = [float(line.split()[-1]) for line in text.splitlines() if line.startswith("rclone_errors_total")]
        errors[engine] = values[0] if values else 0.0
    return errors


def lsyncd_delays(engine):
    """The delays lsyncd's status file lists for ENGINE, or None without a file."""
    try:
        with open(LSYNCD_STATUS[engine]) as file:
            for line in file:
                if line.startswith("There are ") and "delays" in line:
                    return int(line.split()[2])
        return 0
    except (OSError, ValueError):
        return None


def unit_states():
    """Every unit's state, from one systemctl show (its blocks are separated by blank lines)."""
    output = subprocess.run(["systemctl", "show", "-p", PROPERTIES, *UNITS.values()],
                            capture_output=True, text=True, check=True, timeout=30).stdout
    states = {}
    for block in output.split("\n\n"):
        state = dict(line.split("=", 1) for line in block.splitlines() if "=" in line)
        if "Id" in state:
            states[state["Id"]] = state
    return states


def keep_looking(name, take, until):
    """One column's looks, every 0.25 s until `until()`: a failed look is said once and skipped."""
    said = set()
    while not until():
        started = time.monotonic()
        try:
            value = take()
        except Exception as error:  # a look that fails is a look not taken, never the end
            if type(error).__name__ not in said:
                said.add(type(error).__name__)
                print(f"inside.py: a look at {name} failed: {error!r}", file=sys.stderr)
        else:
            with open(f"{LOOKS}/{name}.json.new", "w") as file:
                json.dump({"at": time.monotonic(), "value": value}, file)
            os.replace(f"{LOOKS}/{name}.json.new", f"{LOOKS}/{name}.json")
        time.sleep(max(0.0, 0.25 - (time.monotonic() - started)))


def sample(seconds):
    os.makedirs(LOOKS, exist_ok=True)
    end = time.monotonic() + seconds
    until = lambda: time.monotonic() > end or os.path.exists(f"{LOOKS}/stop")
    threads = [threading.Thread(target=keep_looking, args=(name, take, until))
               for name, take in (("syncmon", syncmon_rows), ("node", node_failed), ("units", unit_states),
                                   ("rclone", rclone_metrics))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def look(name):
    """The newest look at a column: {"at": monotonic seconds, "value": ...}, or None before the first."""
    try:
        with open(f"{LOOKS}/{name}.json") as file:
            return json.load(file)
    except FileNotFoundError:
        return None


def wait_for_looks(seconds=60):
    end = time.monotonic() + seconds
    while not all(look(name) for name in ("syncmon", "node", "units", "rclone")):
        if time.monotonic() > end:
            sys.exit("inside.py: no look at every column within 60 s (is the sampler running?)")
        time.sleep(0.25)


def last_ping(state):
    """The dead man's switch's last ping: the job's last exit with status 0 (monotonic seconds)."""
    exited = int(state.get("ExecMainExitTimestampMonotonic", "0") or 0)
    if exited and state.get("ExecMainStatus") == "0" and state.get("Result") == "success":
        return exited / 1e6
    return None


def engine_said(state):
    return {key: state.get(key) for key in ("ActiveState", "SubState", "Result", "ExecMainStatus")}


def healthy(seconds):
    wait_for_looks()
    states = look("units")["value"]
    pings = {job: last_ping(states.get(UNITS[job], {})) for job in JOBS}
    looks, alarms = 0, {"syncmon": [], "engine": [], "node_exporter": [], "dead_mans_switch": []}
    period, grace = 3, 6
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        now = time.monotonic()
        for engine, row in look("syncmon")["value"].items():
            if row.get("summary") in ALARMS:
                alarms["syncmon"].append(f"{engine}: {verdict(row)}")
        for unit in set(look("node")["value"]) & set(UNITS.values()):
            alarms["node_exporter"].append(unit)
        # The engines' own alarms: rclone's errors in its metrics (where it serves them).
        for engine, errors in look("rclone")["value"].items():
            if errors:
                alarms["engine"].append(f"{engine}: rclone_errors_total {errors:g}")
        states = look("units")["value"]
        for job in JOBS:
            ping = last_ping(states.get(UNITS[job], {}))
            if ping:
                pings[job] = ping
            if pings[job] is not None and now > pings[job] + period + grace:
                alarms["dead_mans_switch"].append(job)
        looks += 1
        time.sleep(max(0.0, 1.0 - (time.monotonic() - now)))
    print(json.dumps({"healthy_seconds": seconds, "looks": looks, "pairs": len(UNITS),
                      "alarms": {column: len(items) for column, items in alarms.items()},
                      "examples": {column: items[:5] for column, items in alarms.items()}}))


class Fresh:
    """A column's looks taken after the fault, each handed out once."""

    def __init__(self, name, after):
        self.name, self.seen = name, after

    def next(self):
        newest = look(self.name)
        if newest is None or newest["at"] <= self.seen:
            return None
        self.seen = newest["at"]
        return newest


def measure(name, engine, expected, threshold, description, period, grace, command):
    wait_for_looks()
    unit = UNITS[engine]
    # "error:resyncRequired": the summary, and the failure code the tool's own words give.
    summary, _, code = expected.partition(":")
    state = look("units")["value"].get(unit, {})
    ping = last_ping(state) if engine in JOBS else None
    states = {}
    node_looks = node_hits = 0
    started = time.monotonic()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    syncmon_looks, node_looks_fresh, unit_looks = Fresh("syncmon", started), Fresh("node", started), Fresh("units", started)
    pings_after = 0
    rclone_looks, rclone_answered, rclone_seen, rclone_errors_after = Fresh("rclone", started), 0, 0, None
    delays_before, delays_then = (lsyncd_delays(engine), None) if engine in LSYNCD_STATUS else (None, None)
    syncmon_after = node_after = None
    syncmon_saw, said = None, None
    deadline = started + threshold + 30
    while True:
        now = time.monotonic()
        if units := unit_looks.next():
            state = units["value"].get(unit, {})
            states[state.get("ActiveState")] = states.get(state.get("ActiveState"), 0) + 1
            if engine in JOBS:
                latest = last_ping(state)
                if latest and latest > started and latest != ping:
                    pings_after += 1
                ping = latest or ping
        if node := node_looks_fresh.next():
            failed = unit in node["value"]
            node_looks += 1
            node_hits += failed
            if node_after is None and failed:
                node_after = node["at"] - started
        if engine in RCLONE_METRICS and (rclone := rclone_looks.next()):
            errors = rclone["value"].get(engine)
            rclone_seen += 1
            rclone_answered += errors is not None
            if rclone_errors_after is None and errors:
                rclone_errors_after = rclone["at"] - started
        if (syncmon := syncmon_looks.next()) and syncmon_after is None:
            row = syncmon["value"].get(engine, {})
            if row.get("summary") == summary and (not code or code in codes(row)):
                syncmon_after, syncmon_saw, said = syncmon["at"] - started, verdict(row), engine_said(state)
                if engine in LSYNCD_STATUS:
                    delays_then = lsyncd_delays(engine)
        # Read on after syncmon's answer for 5 s: what a scrape would have shown meanwhile; for a
        # job, until its switch fires or two more pings show that it never will.
        switch_settled = engine not in JOBS or ping is None or now > ping + period + grace or pings_after >= 2
        if (syncmon_after is not None and now - started > syncmon_after + 5 and switch_settled) or now > deadline:
            break
        time.sleep(0.25)
    dead_mans_switch = None
    if engine in JOBS and ping is not None:
        dead_mans_switch = round(ping + period + grace - started, 1)
    print(json.dumps({
        "fault": name, "description": description, "engine": engine, "unit": unit,
        "expected": expected, "threshold_s": threshold,
        "syncmon": syncmon_saw or verdict(look("syncmon")["value"].get(engine, {})),
        "syncmon_after_s": None if syncmon_after is None else round(syncmon_after, 2),
        "engine_said": said or engine_said(look("units")["value"].get(unit, {})),
        "active_states_seen": states,
        "node_exporter_failed_after_s": None if node_after is None else round(node_after, 2),
        "node_exporter_failed_share": round(node_hits / node_looks, 2) if node_looks else None,
        "dead_mans_switch_after_s": dead_mans_switch,
        "job": engine in JOBS,
        "pings_after_fault": pings_after,
        **({"rclone_metrics": {"looks": rclone_seen, "answered": rclone_answered,
                               "errors_after_s": None if rclone_errors_after is None else round(rclone_errors_after, 2)}}
           if engine in RCLONE_METRICS else {}),
        **({"lsyncd_delays": {"before": delays_before, "when_syncmon_answered": delays_then}} if engine in LSYNCD_STATUS else {}),
    }))


if __name__ == "__main__":
    if sys.argv[1] == "sample":
        sample(float(sys.argv[2]))
    elif sys.argv[1] == "healthy":
        healthy(float(sys.argv[2]))
    else:
        name, engine, expected, threshold, description, period, grace = sys.argv[2:9]
        measure(name, engine, expected, float(threshold), description, float(period), float(grace), sys.argv[9:])
