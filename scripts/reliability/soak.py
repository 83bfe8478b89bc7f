"""Soak runs of syncmon (run by scripts/soak.sh): a simulated fleet's day, and RSS flatness.

day-replay  `syncmon simulate --stdout --speedup` records a fleet's day (healthy engines and one
            of each injected fault); `syncmon replay` evaluates it at every checkpoint (a prefix
            of the stream, the clock advanced to the checkpoint). Healthy engines must never show
            anything but an OK summary without stalls; each fault must show its verdict.
day-live    `syncmon simulate` against a live daemon, restarted with SIGTERM mid-stream (state in
            --state-dir): /api/v1/status polled every second, the daemon's log and /metrics read
            at the end, with the same rules.
rss         1,000 engines at a steady event rate, /metrics scraped every second, the daemon's
            VmRSS sampled: after a warm-up it stays within +-5 %.
"""

import argparse
import bisect
import json
import os
import re
import subprocess
import sys
import threading
import time
from datetime import datetime, timezone

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import (Daemon, Failure, OK_SUMMARIES, Pusher, Workdir, binary, check, engine_setup, healthy_cycle,  # noqa: E402
                 percentile, say)

# What each injected fault must be seen as, at least once.
EXPECTED = {
    "hung-fetch": lambda row: row["summary"] == "stalled" and "no_progress" in row["stalled"],
    "crash": lambda row: row["summary"] == "engine_down",
    "quota-exceeded": lambda row: row["summary"] == "error",
}


def log(text):
    say("soak", text)


def scenario(engine):
    """`sim-hung-fetch-04` -> `hung-fetch`."""
    return re.sub(r"^sim-|-\d+$", "", engine)


class Verdicts:
    """Every verdict seen per engine, and the false ones of healthy engines."""

    def __init__(self):
        self.seen = {}
        self.false = []
        self.observations = 0

    def observe(self, when, rows):
        self.observations += 1
        for key, row in rows.items():
            engine = row["engine"]
            self.seen.setdefault(engine, set()).add((row["summary"], tuple(row["stalled"])))
            if scenario(engine) == "healthy" and (row["summary"] not in OK_SUMMARIES or row["stalled"]):
                self.false.append((when, key, row["summary"], row["stalled"]))

    def report(self):
        healthy = [e for e in self.seen if scenario(e) == "healthy"]
        false_stalls = [f for f in self.false if f[3] or f[2] == "stalled"]
        false_errors = [f for f in self.false if f not in false_stalls]
        faults = {}
        for engine, seen in sorted(self.seen.items()):
            kind = scenario(engine)
            if kind in EXPECTED:
                faults[engine] = any(EXPECTED[kind]({"summary": s, "stalled": list(st)}) for s, st in seen)
        return {
            "observations": self.observations, "healthy_engines": len(healthy),
            "false_stalls": len(false_stalls), "false_errors": len(false_errors),
            "false_examples": [list(map(str, f)) for f in self.false[:5]],
            "faults_detected": sum(faults.values()), "faults_injected": len(faults),
            "undetected": [e for e, ok in faults.items() if not ok],
            "verdicts_by_scenario": {k: sorted({s for e, seen in self.seen.items() if scenario(e) == k for s, _ in seen})
                                     for k in sorted({scenario(e) for e in self.seen})},
        }


def checked(figures, what):
    check(figures["healthy_engines"] > 0, f"{what}: no healthy engine seen")
    check(figures["false_stalls"] == 0 and figures["false_errors"] == 0,
          f"{what}: healthy engines showed {figures['false_stalls']} stalls, {figures['false_errors']} errors: "
          f"{figures['false_examples']}")
    check(figures["faults_injected"] >= 3, f"{what}: only {figures['faults_injected']} faulty engines")
    check(not figures["undetected"], f"{what}: faults not detected: {figures['undetected']}")
    return figures


def day_replay(work, hours, step_minutes, engines, rate, seed):
    start = "2026-03-01T00:00:00Z"
    stream = os.path.join(work.path, "day.ndjson")
    with open(stream, "wb") as out:
        subprocess.run([binary(), "simulate", "--stdout", "--speedup", "--duration", f"{hours}h", "--seed", str(seed),
                        "--engines", str(engines), "--rate", str(rate), "--start", start], stdout=out, check=True)
    with open(stream, "rb") as f:
        lines = f.read().splitlines(keepends=True)
    times = []
    for raw in lines:
        stamp = re.search(rb'"time":"([^"]+)"', raw).group(1).decode()
        times.append(datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp())
    check(all(a <= b for a, b in zip(times, times[1:])), "the recorded stream is not in time order")
    origin = datetime.fromisoformat(start.replace("Z", "+00:00")).timestamp()
    verdicts = Verdicts()
    began = time.monotonic()
    checkpoint = origin + step_minutes * 60
    count = 0
    while checkpoint <= origin + hours * 3600 + 1e-6:
        end = bisect.bisect_right(times, checkpoint)
        advance = max(0.0, checkpoint - times[end - 1])
        result = subprocess.run([binary(), "replay", "-", "--json", "--advance", f"{advance:.6f}"],
                                input=b"".join(lines[:end]), capture_output=True)
        check(b"none rejected" in result.stderr, f"replay rejected lines: {result.stderr[-300:]}")
        rows = {f"{r['engine']}/{r['database']}": r for r in json.loads(result.stdout)["engines"]}
        verdicts.observe(datetime.fromtimestamp(checkpoint, timezone.utc).strftime("%H:%M"), rows)
        checkpoint += step_minutes * 60
        count += 1
    figures = verdicts.report()
    figures.update({"simulated_hours": hours, "lines": len(lines), "checkpoints": count,
                    "seconds": round(time.monotonic() - began, 1)})
    return checked(figures, "replay")


def day_live(work, seconds, restarts, engines, rate, seed):
    thresholds = ["--no-progress-after", "15s"]
    daemon = Daemon(work.path, args=thresholds).start()
    simulate = subprocess.Popen(
        [binary(), "simulate", "--events-socket", daemon.socket, "--engines", str(engines), "--rate", str(rate),
         "--duration", f"{seconds}s", "--heartbeat", "5s", "--seed", str(seed)],
        stdout=subprocess.DEVNULL, stderr=open(os.path.join(work.path, "simulate.stderr"), "wb"))
    verdicts = Verdicts()
    began = time.monotonic()
    next_restart = [seconds * (k + 1) / (restarts + 1) for k in range(restarts)]
    gaps = []
    try:
        while simulate.poll() is None:
            elapsed = time.monotonic() - began
            if next_restart and elapsed >= next_restart[0]:
                next_restart.pop(0)
                down = time.monotonic()
                code = daemon.terminate()
                check(code == 0, f"the daemon exited {code} on SIGTERM")
                daemon.start()
                gaps.append(round(time.monotonic() - down, 2))
                log(f"live: daemon restarted at {elapsed:.0f} s (down {gaps[-1]} s)")
            try:
                verdicts.observe(f"{elapsed:.0f}s", daemon.status(timeout=2))
            except (OSError, Failure):
                pass
            time.sleep(1)
        check(simulate.returncode == 0, f"simulate exited {simulate.returncode}")
        metrics, _ = daemon.metrics()
    finally:
        if simulate.poll() is None:
            simulate.kill()
    # The log: no stall raised and no error or down verdict for any healthy engine, all starts.
    logged = []
    for start in range(1, daemon.starts + 1):
        for entry in daemon.log(start).splitlines():
            if "sim-healthy-" in entry and entry.split(" ", 1)[0] in ("WARNING", "ERROR", "CRITICAL"):
                logged.append(entry)
    stalled = [(l["engine"], l["reason"]) for l, v in metrics.series("syncmon_stalled")
               if v == 1 and scenario(l["engine"]) == "healthy"]
    rejected = metrics.value("syncmon_events_rejected_total")
    figures = verdicts.report()
    figures.update({"seconds": seconds, "restarts": len(gaps), "restart_gaps_s": gaps, "log_warnings_healthy": len(logged),
                    "log_examples": logged[:3], "metrics_stalled_healthy": len(stalled), "rejected": int(rejected),
                    "events_received": int(metrics.value("syncmon_events_received_total"))})
    check(not logged, f"live: the log has warnings for healthy engines: {logged[:3]}")
    check(not stalled, f"live: /metrics shows healthy engines stalled: {stalled[:3]}")
    check(rejected == 0, "live: lines were rejected")
    daemon.terminate()
    return checked(figures, "live")


def rss(work, seconds, warmup, sample_every, engines, rate):
    daemon = Daemon(work.path).start()
    halt = threading.Event()
    sent = [0]
    connections = 4

    def sender(index):
        names = [f"rss-{i}" for i in range(index, engines, connections)]
        pusher = Pusher(daemon.socket)
        pusher.send([x for n in names for x in engine_setup(n)])
        cycles = [healthy_cycle(n) for n in names]
        position = [i % 7 for i in range(len(names))]
        per_tick = rate / connections / 20  # 20 writes a second
        owed = 0.0
        tick = time.monotonic()
        cursor = 0
        while not halt.is_set():
            owed += per_tick
            batch = []
            while owed >= 1:
                e = cursor % len(names)
                batch.append(cycles[e][position[e]])
                position[e] = (position[e] + 1) % 7
                cursor += 1
                owed -= 1
            if batch:
                pusher.send(batch)
                sent[0] += len(batch)
            tick += 0.05
            halt.wait(max(0, tick - time.monotonic()))
        pusher.close()

    threads = [threading.Thread(target=sender, args=(i,), daemon=True) for i in range(connections)]
    for thread in threads:
        thread.start()
    latencies, samples = [], []
    began = time.monotonic()
    next_scrape = next_sample = began
    while time.monotonic() - began < seconds:
        now = time.monotonic()
        if now >= next_scrape:
            status, _, latency = daemon.get("/metrics", timeout=10)
            check(status == 200, f"/metrics answered {status}")
            latencies.append(latency)
            next_scrape += 1
        if now >= next_sample:
            samples.append((round(now - began, 1), daemon.rss_kib()))
            next_sample += sample_every
        time.sleep(max(0, min(next_scrape, next_sample) - time.monotonic()))
    halt.set()
    for thread in threads:
        thread.join()
    metrics, _ = daemon.metrics()
    check(metrics.value("syncmon_tracked_engines") == engines, "not every engine is tracked")
    check(daemon.alive(), "the daemon died")
    steady = [kib for at, kib in samples if at >= warmup]
    check(len(steady) >= 3, "too few samples after the warm-up")
    reference = sum(steady[:3]) / 3
    low, high = min(steady), max(steady)
    figures = {
        "seconds": seconds, "warmup_s": warmup, "engines": engines, "events_sent": sent[0],
        "events_received": int(metrics.value("syncmon_events_received_total")),
        "events_per_s": round(sent[0] / seconds), "scrapes": len(latencies),
        "scrape_p50_ms": round(percentile(latencies, 0.5) * 1000, 1),
        "scrape_p99_ms": round(percentile(latencies, 0.99) * 1000, 1),
        "scrape_max_ms": round(max(latencies) * 1000, 1),
        "rss_kib": {"first": samples[0][1], "after_warmup": steady[0], "end": steady[-1], "min": low, "max": high},
        "rss_spread_pct": round((high - low) / reference * 100, 2),
        "rss_drift_pct": round((steady[-1] - reference) / reference * 100, 2),
        "samples": samples,
    }
    daemon.terminate()
    shown = {k: v for k, v in figures.items() if k != "samples"}
    log(f"rss figures: {json.dumps(shown)}; samples (s, KiB): {samples}")
    check(low >= reference * 0.95 and high <= reference * 1.05,
          f"RSS left +-5 % of {reference:.0f} KiB after the warm-up: min {low}, max {high}")
    check(figures["events_received"] >= sent[0], "events sent were not all counted")
    return figures


PROFILES = {
    # CI: a couple of minutes on a loaded 2-core machine.
    "ci": {"day-replay": dict(hours=2, step_minutes=10, engines=20, rate=5, seed=11),
           "day-live": dict(seconds=60, restarts=2, engines=20, rate=40, seed=11),
           "rss": dict(seconds=75, warmup=25, sample_every=2, engines=1000, rate=2000)},
    # The report: a whole simulated day, ten live minutes with five restarts, an hour of RSS.
    "long": {"day-replay": dict(hours=24, step_minutes=10, engines=20, rate=5, seed=11),
             "day-live": dict(seconds=600, restarts=5, engines=20, rate=40, seed=11),
             "rss": dict(seconds=3600, warmup=300, sample_every=5, engines=1000, rate=2000)},
}
RUNS = {"day-replay": day_replay, "day-live": day_live, "rss": rss}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", choices=sorted(PROFILES), default="ci")
    parser.add_argument("--only", action="append", choices=sorted(RUNS), help="run only these parts (repeatable)")
    parser.add_argument("--set", action="append", default=[], metavar="PART.KEY=VALUE",
                        help="override a setting, e.g. rss.seconds=600")
    parser.add_argument("--json", help="write the figures to this file")
    options = parser.parse_args()
    profile = {part: dict(settings) for part, settings in PROFILES[options.profile].items()}
    for override in options.set:
        key, value = override.split("=", 1)
        part, name = key.split(".", 1)
        profile[part][name] = type(profile[part][name])(value)
    results, failed = {}, []
    for part in options.only or list(RUNS):
        work = Workdir(part)
        began = time.monotonic()
        log(f"{part}: {profile[part]}")
        try:
            figures = RUNS[part](work, **profile[part])
            results[part] = {"outcome": "pass", "wall_s": round(time.monotonic() - began, 1), **figures}
            shown = {k: v for k, v in figures.items() if k != "samples"}
            log(f"PASS {part} ({results[part]['wall_s']} s): {json.dumps(shown)}")
        except Exception as error:  # noqa: BLE001 - every part runs; failures are reported at the end
            results[part] = {"outcome": "fail", "error": str(error)}
            failed.append(part)
            log(f"FAIL {part}: {error}")
        finally:
            Daemon.stop_all()
            work.close()
    if options.json:
        with open(options.json, "w") as f:
            json.dump(results, f, indent=2)
    if failed:
        log(f"failed: {', '.join(failed)}")
        sys.exit(1)
    log("all parts passed")


if __name__ == "__main__":
    main()
