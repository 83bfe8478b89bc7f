#!/usr/bin/env python3
"""Turn recordings of two real Syncthing 1.19.2 instances into the adapter's test fixtures.

    scripts/syncthing/fixtures.py RECORDINGS_DIR Tests/Fixtures/syncthing

The recordings (one directory per scenario, made by a long-poll recorder on loopback) hold each
instance's events as received (`events-A.jsonl`), a log of every poll (`poll-A.log`: answer
time, ids; transport errors; restarts), the actions taken (`actions.log`) and REST snapshots
(`snapshots/<name>-A-<kind>.json`). Per scenario this writes:

  timeline            one step a line, in time order:
                        <time> <A|B> snapshot <name>   read the snapshot <A|B>.<name>/
                        <time> <A|B> answer <first> <last>   a poll answered these event ids
                        <time> <A|B> answer            a poll answered []
                        <time> <A|B> failed <reason>   a poll failed (refused, timed out)
                        <time> - action <text>         what was done (for the reader)
  A.events.jsonl      the events as recorded; only ConfigSaved's data is cut to folders/devices
  A.<name>/           a snapshot, one file per REST answer, named after the request
                      (system-status, connections, config, latest-event, db-status.<folder>,
                      folder-errors.<folder>, completion.<folder>.<device>)

Trimming never renumbers or drops an event: ids stay consecutive, as the adapter checks.
ConfigSaved's data (and /rest/config) carry the GUI's API key in clear: cutting them to folders and
devices keeps keys out of the repository.
Snapshots are used where the adapter needs them: at the start of a scenario (the scenario's own
`before`, else the previous scenario's last one), and after each failure (the scenario's first
snapshot taken after it). The recorder did not save `/rest/config` outside startup; the
configuration did not change outside the pause scenarios, so startup's is used (paused flags
from the snapshot's connections). `latest-event` is what `/rest/events?since=0&limit=1` answers:
the last event seen before the snapshot, or [] after a restart (a new subscription is empty);
it is only written for the snapshots that ask for it (a start, a restart). An event that came
between two recordings is not in either: it stands as `{"id": N, "type": "NotRecorded"}`.
"""
import json
import os
import re
import sys

SCENARIOS = [
    "0-startup", "a-healthy", "a2-progress", "b-stop-B-20s", "b2-kill-B", "c-pause-device-patch",
    "c2-pause-device-post", "c3-pause-folder", "d-marker-removed", "d2-marker-removed-watcher",
    "d3-marker-removed-rescan-timer", "e-pull-blocked-chattr", "e2-pull-blocked-tempdir",
    "e3-recover-by-folder-restart", "b3-hang-B-sigstop", "e4-short-puller-pause",
]  # in the order they were recorded
# The scenarios turned into fixtures.
FIXTURES = [
    "a-healthy", "a2-progress", "b-stop-B-20s", "b3-hang-B-sigstop", "c-pause-device-patch",
    "c3-pause-folder", "d-marker-removed", "d3-marker-removed-rescan-timer", "e-pull-blocked-chattr",
    "e2-pull-blocked-tempdir", "e3-recover-by-folder-restart", "e4-short-puller-pause",
]
ENGINES = ["A", "B"]
OMIT = object()  # a snapshot the adapter takes without asking for the latest event
FOLDER = "shared"


def read_lines(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [line.rstrip("\n") for line in f if line.strip()]


def trim_config(config):
    return {
        "folders": [
            {"id": f["id"], "label": f.get("label"), "type": f.get("type"), "paused": f.get("paused"),
             "devices": [{"deviceID": d["deviceID"]} for d in f.get("devices") or []]}
            for f in config.get("folders") or []
        ],
        "devices": [
            {"deviceID": d["deviceID"], "name": d.get("name"), "paused": d.get("paused")}
            for d in config.get("devices") or []
        ],
    }


def trim_event(line):
    event = json.loads(line)
    if event.get("type") == "ConfigSaved" and isinstance(event.get("data"), dict):
        event["data"] = trim_config(event["data"])
        return json.dumps(event, separators=(",", ":"))
    return line


def polls(path, engine):
    """Answers and failures of one poll log, as timeline steps."""
    steps = []
    failing = False
    for line in read_lines(path):
        match = re.match(r"(\S+) (\S+) POLL .*HTTP 200 n=(\d+) ids=(\S+)\.\.(\S+)", line)
        if match:
            time, _, count, first, last = match.groups()
            steps.append((time, engine, "answer" + ("" if count == "0" else f" {first} {last}")))
            failing = False
            continue
        match = re.match(r"(\S+) (\S+) POLL .*TRANSPORT-ERROR (\S+)", line)
        if match and not failing:
            time, _, reason = match.groups()
            kind = "refused" if "Refused" in reason else "timeout" if "Timeout" in reason else "reset"
            steps.append((time, engine, f"failed {kind}"))
            failing = True
    return steps


def actions(path):
    steps = []
    for line in read_lines(path):
        time, _, text = line.partition(" ")
        if not re.match(r"\d{4}-\d\d-\d\dT", time):
            continue  # command output the recorder appended (lsattr, …)
        if text.startswith("rec_begin") or text.startswith("rec_end") or text.startswith("snapshot "):
            continue
        steps.append((time, "-", "action " + text))
    return steps


def rec_begin(recordings, scenario):
    for line in read_lines(os.path.join(recordings, scenario, "actions.log")):
        if " rec_begin " in line:
            return line.split(" ")[0]
    raise SystemExit(f"{scenario}: no rec_begin")


def snapshot_times(recordings, scenario):
    """(time, name) of each snapshot of a scenario, in order."""
    result = []
    for line in read_lines(os.path.join(recordings, scenario, "actions.log")):
        match = re.match(r"(\S+) snapshot (\S+)$", line)
        if match:
            result.append((match.group(1), match.group(2)))
    return result


def snapshot_files(recordings, scenario, name, engine):
    directory = os.path.join(recordings, scenario, "snapshots")
    prefix = f"{name}-{engine}-"
    if not os.path.exists(os.path.join(directory, prefix + "system-status.json")):
        return None
    return lambda kind: os.path.join(directory, prefix + kind + ".json")


def write_json(path, value):
    with open(path, "w") as f:
        json.dump(value, f, indent=1, sort_keys=True)
        f.write("\n")


def write_snapshot(out_dir, engine, name, files, startup_config, latest_event):
    """One snapshot directory with the answers the adapter asks for."""
    directory = os.path.join(out_dir, f"{engine}.{name}")
    os.makedirs(directory, exist_ok=True)
    status = json.load(open(files("system-status")))
    write_json(os.path.join(directory, "system-status.json"),
               {k: status[k] for k in ("myID", "startTime", "uptime")})
    connections = json.load(open(files("system-connections")))
    write_json(os.path.join(directory, "connections.json"), {"connections": {
        device: {k: c.get(k) for k in ("connected", "paused", "address", "clientVersion")}
        for device, c in connections["connections"].items()}})
    config = trim_config(startup_config)
    for device in config["devices"]:
        device["paused"] = bool(connections["connections"].get(device["deviceID"], {}).get("paused"))
    write_json(os.path.join(directory, "config.json"), config)
    if latest_event is not OMIT:
        write_json(os.path.join(directory, "latest-event.json"), [latest_event] if latest_event else [])
    write_json(os.path.join(directory, f"db-status.{FOLDER}.json"), json.load(open(files("db-status"))))
    errors = json.load(open(files("folder-errors")))
    write_json(os.path.join(directory, f"folder-errors.{FOLDER}.json"), errors)
    peer = [d["deviceID"] for d in config["devices"] if d["deviceID"] != status["myID"]][0]
    write_json(os.path.join(directory, f"completion.{FOLDER}.{peer}.json"), json.load(open(files("db-completion-peer"))))


def main():
    recordings, out_root = sys.argv[1], sys.argv[2]
    startup_config = {e: json.load(open(os.path.join(recordings, "0-startup", "snapshots", f"after-startup-{e}-config.json")))
                      for e in ENGINES}
    for scenario in FIXTURES:
        index = SCENARIOS.index(scenario)
        out_dir = os.path.join(out_root, scenario)
        os.makedirs(out_dir, exist_ok=True)
        begin = rec_begin(recordings, scenario)
        steps = []
        for engine in ENGINES:
            lines = read_lines(os.path.join(recordings, scenario, f"events-{engine}.jsonl"))
            with open(os.path.join(out_dir, f"{engine}.events.jsonl"), "w") as f:
                for line in lines:
                    f.write(trim_event(line) + "\n")
            # The last event this engine's poller saw before the scenario: the `since` its poll
            # log begins with. An event that came between two recordings was not saved; it
            # stands as an event of a type the adapter ignores, with its id.
            latest = None
            match = re.search(r"STATUS .* since=(\d+)", "\n".join(read_lines(os.path.join(recordings, scenario, f"poll-{engine}.log"))))
            since = int(match.group(1)) if match else 0
            if since:
                for previous in reversed(SCENARIOS[:index]):
                    for line in read_lines(os.path.join(recordings, previous, f"events-{engine}.jsonl")):
                        if json.loads(line)["id"] == since:
                            latest = json.loads(trim_event(line))
                    if latest:
                        break
                latest = latest or {"id": since, "type": "NotRecorded", "data": None}
            # Start: the scenario's own `before`, else the previous scenario's last snapshot.
            own = dict((name, time) for time, name in snapshot_times(recordings, scenario))
            files = snapshot_files(recordings, scenario, "before", engine) if "before" in own else None
            source = "before"
            if files is None:
                for previous in reversed(SCENARIOS[:index]):
                    taken = [name for _, name in snapshot_times(recordings, previous)
                             if snapshot_files(recordings, previous, name, engine)]
                    if taken:
                        files = snapshot_files(recordings, previous, taken[-1], engine)
                        source = f"{previous}.{taken[-1]}"
                        break
            write_snapshot(out_dir, engine, "start", files, startup_config[engine], latest)
            steps.append((begin, engine, f"snapshot start  # {source}"))
            # After a failure: the scenario's first snapshot taken after it, of this engine.
            engine_polls = polls(os.path.join(recordings, scenario, f"poll-{engine}.log"), engine)
            steps.extend(engine_polls)
            failures = [time for time, _, step in engine_polls if step.startswith("failed")]
            if failures:
                for time, name in snapshot_times(recordings, scenario):
                    files = snapshot_files(recordings, scenario, name, engine)
                    if time > failures[0] and files:
                        write_snapshot(out_dir, engine, name, files, startup_config[engine], None)
                        steps.append((time, engine, f"snapshot {name}  # available"))
                        break
            # Snapshots the adapter may ask for mid-scenario (a resumed folder, a cleared error).
            for time, name in snapshot_times(recordings, scenario):
                files = snapshot_files(recordings, scenario, name, engine)
                if files and name in ("resumed", "after-fix", "after", "recovered") and not failures:
                    write_snapshot(out_dir, engine, name, files, startup_config[engine], OMIT)
                    steps.append((time, engine, f"snapshot {name}  # available"))
        steps.extend(actions(os.path.join(recordings, scenario, "actions.log")))
        steps.sort(key=lambda step: (step[0], step[1]))
        with open(os.path.join(out_dir, "timeline"), "w") as f:
            f.write(f"# {scenario}: recorded from two Syncthing 1.19.2 instances (scripts/syncthing/fixtures.py)\n")
            for time, engine, step in steps:
                f.write(f"{time} {engine} {step}\n")


if __name__ == "__main__":
    main()
