"""Soak runs of syncmon (run by scripts/soak.sh): a simulated fleet's day, and RSS flatness.

day-replay  `syncmon simulate --stdout --speedup` records a fleet's day (healthy engines and one
            of each injected fault); `syncmon replay` evaluates it at every checkpoint (a prefix
            of the stream, the clock advanced to the checkpoint). Healthy engines must never show
            anything but an OK summary without stalls; each fault must show its verdict.
day-live    `syncmon simulate` against a live daemon, restarted with SIGTERM mid-stream (state in
            --state-dir): /api/v1/status polled every second, the daemon's log and /metrics read
            at the end, with the same rules.
rss         1,000 engines at a steady event rate, /metrics scraped every second (gzip, as
            Prometheus asks; rss.gzip=0 for plain text), the daemon's VmRSS sampled every second:
            after a warm-up, the median of every window (rss.window seconds) stays below the first
            window's median + rss.tolerance_pct (5 %; CI's debug build 10 %); a fall is reported. The raw
            minimum and maximum are reported beside it.
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


def memory_kib(pid):
    """VmRSS, RssAnon and RssFile of a process, in KiB (/proc/PID/status)."""
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for entry in f:
            name, _, rest = entry.partition(":")
            if name in ("VmRSS", "RssAnon", "RssFile"):
                fields[name] = int(rest.split()[0])
    return fields.get("VmRSS", 0), fields.get("RssAnon", 0), fields.get("RssFile", 0)


def cpu_seconds(pid):
    """User and system CPU time of a process so far (/proc/PID/stat, clock ticks)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def flatness(samples, warmup, window):
    """The RSS criterion: after `warmup` seconds, the samples in windows of `window` seconds;
    the median of each window (the level RSS sits at, whatever a scrape in flight adds for a
    moment) within +-5 % of the first window's. Also the raw extremes, which are reported and
    not judged: a sample taken while an 8 MiB scrape is being rendered and sent includes its
    buffers."""
    steady = [(at, kib) for at, kib in samples if at >= warmup]
    windows = {}
    for at, kib in steady:
        windows.setdefault(int((at - warmup) // window), []).append(kib)
    levels = [(index, median(values), min(values), max(values)) for index, values in sorted(windows.items())
              if len(values) >= max(3, window // 4)]
    if not levels:
        return None
    reference = levels[0][1]
    medians = [m for _, m, _, _ in levels]
    raw = [kib for _, kib in steady]
    return {
        "window_s": window, "windows": len(levels), "reference_kib": round(reference),
        "window_median_kib": {"first": round(medians[0]), "last": round(medians[-1]),
                              "min": round(min(medians)), "max": round(max(medians))},
        "window_median_pct": {"min": round((min(medians) - reference) / reference * 100, 2),
                              "max": round((max(medians) - reference) / reference * 100, 2),
                              "last": round((medians[-1] - reference) / reference * 100, 2)},
        "raw_kib": {"min": min(raw), "max": max(raw)},
        "raw_pct": {"min": round((min(raw) - reference) / reference * 100, 2),
                    "max": round((max(raw) - reference) / reference * 100, 2)},
        "raw_outside_5pct": round(sum(1 for kib in raw if abs(kib - reference) > reference * 0.05) / len(raw) * 100, 1),
        "series": [[index * window + warmup, round(m), low, high] for index, m, low, high in levels],
    }


def rss(work, seconds, warmup, sample_every, engines, rate, window, tolerance_pct, gzip, record):
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

    began = time.monotonic()
    cpu_began = cpu_seconds(daemon.pid)
    scraping = [False]
    samples = []

    out = open(record, "w") if record else None
    if out:
        out.write("seconds,rss_kib,anon_kib,file_kib,scrape_in_flight\n")

    def sampler():
        # Its own thread, so a slow scrape does not delay or skip samples; each sample notes
        # whether a scrape was in flight when it was taken. The file is written as it goes, so a
        # long run can be looked at while it runs.
        due = began
        while not halt.is_set():
            at = time.monotonic() - began
            total, anon, mapped = memory_kib(daemon.pid)
            samples.append((round(at, 1), total))
            if out:
                out.write(f"{at:.1f},{total},{anon},{mapped},{int(scraping[0])}\n")
                out.flush()
            due += sample_every
            halt.wait(max(0, due - time.monotonic()))

    threads = [threading.Thread(target=sender, args=(i,), daemon=True) for i in range(connections)]
    threads.append(threading.Thread(target=sampler, daemon=True))
    for thread in threads:
        thread.start()
    latencies, sizes = [], []
    headers = {"Accept-Encoding": "gzip"} if gzip else {}
    next_scrape = began
    while time.monotonic() - began < seconds:
        scraping[0] = True
        status, body, latency = daemon.get("/metrics", timeout=10, headers=headers)
        scraping[0] = False
        check(status == 200, f"/metrics answered {status}")
        check(not gzip or body[:2] == b"\x1f\x8b", "/metrics was not gzipped although asked")
        latencies.append(latency)
        sizes.append(len(body))
        next_scrape += 1
        time.sleep(max(0, next_scrape - time.monotonic()))
    halt.set()
    for thread in threads:
        thread.join()
    cpu = cpu_seconds(daemon.pid) - cpu_began
    metrics, _ = daemon.metrics()
    check(metrics.value("syncmon_tracked_engines") == engines, "not every engine is tracked")
    check(daemon.alive(), "the daemon died")
    if out:
        out.close()
    flat = flatness(samples, warmup, window)
    check(flat is not None, "too few samples after the warm-up")
    figures = {
        "seconds": seconds, "warmup_s": warmup, "engines": engines, "gzip": bool(gzip), "events_sent": sent[0],
        "events_received": int(metrics.value("syncmon_events_received_total")),
        "events_per_s": round(sent[0] / seconds), "scrapes": len(latencies),
        "scrape_bytes": sizes[-1],
        "scrape_p50_ms": round(percentile(latencies, 0.5) * 1000, 1),
        "scrape_p99_ms": round(percentile(latencies, 0.99) * 1000, 1),
        "scrape_max_ms": round(max(latencies) * 1000, 1),
        "daemon_cpu_pct": round(cpu / seconds * 100, 1),
        "rss_kib_first": samples[0][1], "rss": flat,
        "samples": samples,
    }
    daemon.terminate()
    shown = {k: v for k, v in figures.items() if k != "samples"}
    log(f"rss figures: {json.dumps(shown)}")
    try:
        # Growth is what a leak looks like; a fall (the kernel reclaiming pages of a busy machine,
        # seen at -14 % with every CI phase running) is reported, not judged.
        check(flat["window_median_pct"]["max"] <= tolerance_pct,
              f"RSS grew past +{tolerance_pct} % of {flat['reference_kib']} KiB after the warm-up: medians of {window} s windows "
              f"from {flat['window_median_kib']['min']} to {flat['window_median_kib']['max']} KiB")
        check(figures["events_received"] >= sent[0], "events sent were not all counted")
    except Failure as failure:
        failure.figures = figures  # the figures go to the JSON of a failed run too
        raise
    return figures


PROFILES = {
    # CI: a couple of minutes on a loaded 2-core machine.
    "ci": {"day-replay": dict(hours=2, step_minutes=10, engines=20, rate=5, seed=11),
           "day-live": dict(seconds=60, restarts=2, engines=20, rate=40, seed=11),
           # The debug build (what CI builds) renders 1,000 pairs in most of a second, so a scrape and a
           # state save overlap often and the heap's high-water mark can still step by a save's
           # ~4 MiB while the run settles: +-10 % (7 MiB at its ~70 MiB) still fails a scrape's
           # buffers kept, and the hour on the release build holds +-5 %.
           "rss": dict(seconds=75, warmup=25, sample_every=1, engines=1000, rate=2000, window=10, tolerance_pct=10,
                       gzip=1, record="")},
    # The report: a whole simulated day, ten live minutes with five restarts, an hour of RSS.
    "long": {"day-replay": dict(hours=24, step_minutes=10, engines=20, rate=5, seed=11),
             "day-live": dict(seconds=600, restarts=5, engines=20, rate=40, seed=11),
             "rss": dict(seconds=3600, warmup=300, sample_every=1, engines=1000, rate=2000, window=60, tolerance_pct=5,
                         gzip=1, record="")},
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
            results[part] = {"outcome": "fail", "error": str(error), **getattr(error, "figures", {})}
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
