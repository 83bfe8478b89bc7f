"""Looks and measurements of scripts/detection/syncthing.sh (the environment gives the URLs).

  syncthing.py settle TIMEOUT        until a/shared and b/shared are healthy, B in sync (exit 1 if not)
  syncthing.py healthy SECONDS       one JSON object: looks taken, syncmon's and Syncthing's alarms
  syncthing.py fault NAME ENGINE EXPECTED THRESHOLD DESCRIPTION INJECT UNDO
                                     one JSON row of the matrix (EXPECTED "unseen": nothing to see)
"""
import json
import os
import subprocess
import sys
import time

from common import ALARMS, get, verdict

HEALTHY = {"succeeded", "in_progress"}


def rows():
    try:
        return {row["engine"]: row for row in get(os.environ["SYNCMON_URL"] + "/api/v1/status")["engines"] if row["database"] == "shared"}
    except OSError:
        return {}


def syncthing(engine):
    """What the engine's own Syncthing says of the folder: its state, completion and errors."""
    name = engine.upper()
    url, key = os.environ[f"{name}_URL"], os.environ[f"{name}_APIKEY"]
    try:
        status = get(url + "/rest/db/status?folder=shared", key)
        completion = get(url + "/rest/db/completion?folder=shared", key)
        errors = get(url + "/rest/folder/errors?folder=shared", key).get("errors") or []
    except OSError as error:
        return {"text": f"API unreachable ({type(error).__name__})", "alarm": False}
    text = f"`{status.get('state')}`, {completion.get('completion', 0):.0f} %"
    if status.get("error"):
        text += f", folder error \"{status['error'][:60]}\""
    if errors:
        text += f", {len(errors)} file error(s)"
    return {"text": text, "alarm": bool(status.get("state") == "error" or errors)}


def settle(timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        current = rows()
        fine = all(current.get(engine, {}).get("summary") in HEALTHY and not current[engine].get("stalled") for engine in "ab")
        if fine and "100 %" in syncthing("b")["text"] and "`idle`" in syncthing("b")["text"]:
            return 0
        time.sleep(0.5)
    return 1


def healthy(seconds):
    looks, alarms, engine_alarms, examples = 0, 0, 0, []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        began = time.monotonic()
        for engine, row in rows().items():
            if row.get("summary") in ALARMS:
                alarms += 1
                examples.append(f"{engine}: {verdict(row)}")
        engine_alarms += sum(syncthing(engine)["alarm"] for engine in "ab")
        looks += 1
        time.sleep(max(0.0, 1.0 - (time.monotonic() - began)))
    print(json.dumps({"setup": "syncthing", "healthy_seconds": seconds, "looks": looks, "pairs": 2,
                      "alarms": {"syncmon": alarms, "engine": engine_alarms, "node_exporter": None, "dead_mans_switch": None},
                      "examples": {"syncmon": examples[:5]}}))


def fault(name, engine, expected, threshold, description, inject, undo):
    started = time.monotonic()
    subprocess.run(inject, shell=True, check=True, stdout=subprocess.DEVNULL)
    after, saw, said = None, None, None
    deadline = started + threshold + (40 if expected != "unseen" else 45)
    while time.monotonic() < deadline:
        now = time.monotonic()
        row = rows().get(engine, {})
        hit = row.get("summary") == expected if expected != "unseen" else row.get("summary") in ALARMS
        if hit:
            after, saw, said = now - started, verdict(row), syncthing(engine)["text"]
            break
        time.sleep(0.25)
    if said is None:
        saw, said = verdict(rows().get(engine, {})), syncthing(engine)["text"]
    subprocess.run(undo, shell=True, check=False, stdout=subprocess.DEVNULL)
    print(json.dumps({
        "fault": name, "description": description, "engine": f"{engine}/shared", "expected": expected,
        "threshold_s": threshold, "syncmon": saw, "syncmon_after_s": None if after is None else round(after, 2),
        "engine_text": said, "node_exporter_text": "— (not a unit)", "dead_mans_switch_text": "— (not a job)",
    }))


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "settle":
        sys.exit(settle(float(sys.argv[2])))
    elif mode == "healthy":
        healthy(float(sys.argv[2]))
    else:
        name, engine, expected, threshold, description, inject, undo = sys.argv[2:9]
        fault(name, engine, expected, float(threshold), description, inject, undo)
