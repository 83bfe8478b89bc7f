"""The detection matrix's simulated fleet (docs/detection.md): `syncmon simulate` generates DAYS of
ENGINES healthy engines (cycles, realistic batches, rare conflicts, heartbeats every 30 s) and
`syncmon replay --changes` runs them through the daemon's state machines with the default
thresholds, looked at as the daemon looks (around each event and whenever a threshold can be
crossed). Every change of a healthy engine to an alarm is a false alarm. The fleet sends one event
per engine every 10 s: at one every 50 s a simulated engine's first fetch came more than the
default minute after its setup, a not_syncing the stream really shows. Prints one healthy-run row
(JSON) for render.py.
  python3 scripts/detection/month.py BINARY DAYS ENGINES"""
import json
import subprocess
import sys
import tempfile
import time

from common import ALARMS

binary, days, engines = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
began = time.monotonic()
with tempfile.NamedTemporaryFile(suffix=".ndjson") as changes:
    simulate = subprocess.Popen(
        [binary, "simulate", "--stdout", "--speedup", "--duration", f"{days * 24}h", "--engines", str(engines),
         "--scenario", "healthy", "--seed", "35", "--rate", str(engines // 10), "--start", "2026-01-01T00:00:00Z"],
        stdout=subprocess.PIPE)
    replay = subprocess.run([binary, "replay", "-", "--changes", changes.name, "--json"],
                            stdin=simulate.stdout, capture_output=True)
    simulate.stdout.close()
    if simulate.wait() != 0 or b"none rejected" not in replay.stderr:
        sys.exit(f"month: simulate exited {simulate.returncode}; replay said {replay.stderr.decode()[-300:]}")
    moves = [json.loads(line) for line in open(changes.name) if line.strip()]
lines = int(replay.stderr.decode().split(" lines", 1)[0].rsplit(" ", 1)[-1])
alarms = [m for m in moves if m["to"] in ALARMS]
print(json.dumps({
    "setup": f"simulated: {engines} engines, {days} days (syncmon simulate into syncmon replay --changes)",
    "healthy_seconds": days * 86400, "looks": len(moves), "pairs": engines,
    "alarms": {"syncmon": len(alarms), "engine": None, "node_exporter": None, "dead_mans_switch": None},
    "examples": {"syncmon": [f"{m['time']} {m['engine']}: {m['from']} -> {m['to']} {m['stalled']}" for m in alarms[:5]]},
    "lines": lines, "wall_s": round(time.monotonic() - began, 1),
}))
