"""Fault injection against a real `syncmon daemon` (run by scripts/test-faults.sh).

Each fault is one function that starts its own daemon in its own directory, injects the fault,
checks the outcome and returns a dict of figures for the report. A check that does not hold
raises `Failure`; the run goes on with the next fault and exits 1 at the end.

Run inside a private mount namespace (test-faults.sh does `unshare --mount`): the tmpfs state
directories and the private journald of the journald test are mounted there, so they vanish with
the run and never touch the host's journal.
"""

import argparse
import json
import multiprocessing
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import (Daemon, Failure, Metrics, OK_SUMMARIES, Pusher, Workdir, binary, check, engine_setup,  # noqa: E402
                 healthy_cycle, line, percentile, say)


def log(text):
    say("faults", text)


class Scraper:
    """Scrapes /metrics over and over on fresh connections, in a process of its own (so the
    test's own busy threads cannot slow its measurements), and keeps each one's latency."""

    def __init__(self, daemon, period=0.2, path="/metrics"):
        self.target, self.period, self.path = daemon, period, path
        context = multiprocessing.get_context("fork")
        self.halt = context.Event()
        self.results = context.Queue()
        self.process = context.Process(target=self.run, daemon=True)

    def start(self):
        self.process.start()

    def run(self):
        latencies, errors = [], []
        while not self.halt.is_set():
            try:
                status, _, seconds = self.target.get(self.path, timeout=15)
                latencies.append(seconds)
                if status != 200:
                    errors.append(f"status {status}")
            except OSError as error:
                errors.append(str(error))
            self.halt.wait(self.period)
        self.results.put((latencies, errors))

    def finish(self, limit=1.0):
        self.halt.set()
        latencies, errors = self.results.get(timeout=30)
        self.process.join()
        figures = {"scrapes": len(latencies), "p50_ms": round(percentile(latencies, 0.5) * 1000, 1),
                   "p99_ms": round(percentile(latencies, 0.99) * 1000, 1),
                   "max_ms": round(max(latencies, default=0) * 1000, 1)}
        check(not errors, f"scrapes failed: {errors[:5]}")
        check(latencies, "no scrape was made")
        check(max(latencies) < limit, f"a scrape took {max(latencies):.3f} s (limit {limit} s): {figures}")
        return figures


def fill_pairs(daemon, count, prefix="bg"):
    """`count` healthy pairs, so the state file and /metrics have a realistic size."""
    pusher = Pusher(daemon.socket)
    batch = []
    for index in range(count):
        batch += engine_setup(f"{prefix}-{index}") + healthy_cycle(f"{prefix}-{index}")
    pusher.send(batch)
    pusher.close()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        metrics, _ = daemon.metrics()
        if metrics.value("syncmon_tracked_engines") >= count:
            return
        time.sleep(0.1)
    raise Failure(f"the {count} background pairs did not all arrive")


# ---------------------------------------------------------------------------------------------
# kill -9 in a loop


def kill_loop(work, rounds=6, engines=50, tick=0.02):
    """kill -9 during a steady stream, `rounds` times: the restarted daemon lost at most ~1 s.

    A sender writes `stateUpdate` for `engines` engines every `tick` seconds, the pending count
    being the tick number, and notes when it sent each tick. After a SIGKILL and a restart the
    status shows the last tick the state file had: the events lost are those sent between that
    tick and the kill.
    """
    daemon = Daemon(work.path).start()
    fill_pairs(daemon, 1000 - engines)
    names = [f"k9-{i}" for i in range(engines)]
    sent_at = {}
    counter = [0]
    losses = []
    for round_ in range(rounds):
        stop = threading.Event()

        def sender():
            try:
                pusher = Pusher(daemon.socket)
                while not stop.is_set():
                    counter[0] += 1
                    value = counter[0]
                    pusher.send([line(name, "stateUpdate", pendingRecordZoneChanges=value) for name in names])
                    sent_at[value] = time.time()
                    time.sleep(tick)
            except OSError:
                pass  # the daemon was killed under it

        thread = threading.Thread(target=sender, daemon=True)
        thread.start()
        # Kill at a random moment against the save cadence.
        time.sleep(2.5 + random.random() * 1.5)
        last_sent = counter[0]
        killed_at = time.time()
        daemon.kill()
        stop.set()
        thread.join()
        daemon.start()
        rows = daemon.status()
        persisted = [rows[f"{name}/private"]["pending"]["recordZone"] for name in names]
        value = min(persisted)
        lost = killed_at - sent_at[value] if value in sent_at else float("inf")
        losses.append(lost)
        log(f"kill -9 round {round_ + 1}: last tick sent {last_sent}, persisted {value} "
            f"({last_sent - value} ticks), {lost:.3f} s of events lost")
        check(len(rows) == 1000, f"restored {len(rows)} pairs, not 1000")
    daemon.terminate()
    figures = {"rounds": rounds, "lost_max_s": round(max(losses), 3), "lost_mean_s": round(sum(losses) / len(losses), 3),
               "lost_s": [round(x, 3) for x in losses]}
    check(max(losses) <= 1.5, f"a kill -9 lost more than 1.5 s of events: {figures}")
    return figures


# ---------------------------------------------------------------------------------------------
# journald stopped and started


class PrivateJournald:
    """A systemd-journald of our own, in this mount namespace: /run/systemd/journal and
    /run/log/journal are fresh tmpfs mounts that only this process tree sees."""

    def __init__(self):
        for path in ("/run/systemd/journal", "/run/log/journal"):
            os.makedirs(path, exist_ok=True)
            subprocess.run(["mount", "-t", "tmpfs", "-o", "mode=0755,size=64m", "tmpfs", path], check=True)
        self.process = None

    def start(self):
        self.process = subprocess.Popen(["/lib/systemd/systemd-journald"], stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            probe = f"probe-{time.time_ns()}"
            sent = subprocess.run(["logger", "--journald"], input=f"MESSAGE=probe\nSYNCMON_PROBE={probe}\n",
                                  text=True, capture_output=True).returncode == 0
            if sent and self.read(f"SYNCMON_PROBE={probe}"):
                return
            time.sleep(0.1)
        raise Failure("the private journald did not answer")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)

    @staticmethod
    def read(*matches):
        result = subprocess.run(["journalctl", "--no-pager", "-o", "json", *matches], capture_output=True, text=True)
        return [json.loads(x) for x in result.stdout.splitlines() if x.strip()]


def journald_outage(work, per_phase=40):
    """journald stops and comes back while the daemon logs: nothing is lost.

    Each new engine makes the daemon log one entry (its first verdict). Engines of phase A are
    logged while journald runs, phase B while it is stopped, phase C after it is back; every one
    must be found, A and C in the journal, B on stderr.
    """
    journal = PrivateJournald()
    journal.start()
    tag = f"jd{os.getpid()}"
    daemon = Daemon(work.path, log_target="journald").start()

    def emit(phase, count):
        names = [f"{tag}-{phase}-{i}" for i in range(count)]
        for name in names:
            pusher = Pusher(daemon.socket)
            pusher.send(engine_setup(name))
            pusher.close()
            time.sleep(0.02)
        return names

    def in_journal():
        return {e.get("SYNCMON_ENGINE") for e in journal.read("SYSLOG_IDENTIFIER=syncmon") if e.get("SYNCMON_ENGINE")}

    def wait_journal(names, timeout=10):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if set(names) <= in_journal():
                return True
            time.sleep(0.1)
        return False

    a = emit("a", per_phase)
    check(wait_journal(a), "phase A entries did not reach the journal")
    journal.stop()
    stopped = time.monotonic()
    b = emit("b", per_phase)
    time.sleep(0.5)
    stderr = daemon.log()
    check("journald unavailable, logging to stderr until it is back" in stderr, "no switch-to-stderr warning on stderr")
    check(stderr.count("journald unavailable") == 1, "the switch to stderr was announced more than once")
    missing_b = [n for n in b if f"syncmon.engine={n} " not in stderr and not stderr.count(f"syncmon.engine={n}\n")]
    check(not missing_b, f"entries logged while journald was stopped are not on stderr: {missing_b[:5]}")
    journal.start()
    restarted = time.monotonic()
    c = emit("c", per_phase)
    back = wait_journal(c)
    check(back, "entries after journald came back did not reach the journal")
    found = in_journal()
    after = daemon.log()
    lost = [n for n in a + b + c if n not in found and f"syncmon.engine={n}" not in after]
    check(not lost, f"entries lost: {lost[:5]}")
    check(not any(f"syncmon.engine={n}" in after for n in c), "entries after journald came back still went to stderr")
    check(daemon.alive(), "the daemon died")
    daemon.terminate()
    journal.stop()
    return {"entries": 3 * per_phase, "in_journal": len([n for n in a + b + c if n in found]),
            "on_stderr": len(missing_b) == 0 and len(b), "lost": 0, "outage_s": round(restarted - stopped, 2)}


# ---------------------------------------------------------------------------------------------
# state directory full, then read-only


def state_dir_faults(work):
    """A full state directory, then a read-only one: the daemon serves on, counts failed saves,
    and saves again within a few seconds of there being room."""
    state = os.path.join(work.path, "state")
    os.makedirs(state)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", state], check=True)
    try:
        daemon = Daemon(work.path, state_dir=state).start()
        fill_pairs(daemon, 100)
        wait_for(lambda: daemon.metrics()[0].value("syncmon_state_last_save_timestamp_seconds") > 0, 5, "first save")
        figures = {}
        for fault in ("full", "read-only"):
            if fault == "full":
                filler = os.path.join(state, "filler")
                subprocess.run(["dd", "if=/dev/zero", f"of={filler}", "bs=64k"], capture_output=True)
            else:
                subprocess.run(["mount", "-o", "remount,ro", state], check=True)
            before, _ = daemon.metrics()
            failures0 = before.value("syncmon_state_save_failures_total")
            name = f"during-{fault}".replace("-only", "only")
            scraper = Scraper(daemon)
            scraper.start()
            pusher = Pusher(daemon.socket)
            pusher.send(engine_setup(name) + healthy_cycle(name))
            pusher.close()
            began = time.monotonic()
            wait_for(lambda: daemon.metrics()[0].value("syncmon_state_save_failures_total") >= failures0 + 2, 10,
                     f"save failures counted ({fault})")
            detected = time.monotonic() - began
            rows = daemon.status()
            check(rows.get(f"{name}/private", {}).get("summary") == "succeeded", f"events not applied while {fault}")
            # Room again.
            if fault == "full":
                os.remove(filler)
            else:
                subprocess.run(["mount", "-o", "remount,rw", state], check=True)
            freed = time.monotonic()
            last = daemon.metrics()[0].value("syncmon_state_last_save_timestamp_seconds")
            wait_for(lambda: daemon.metrics()[0].value("syncmon_state_last_save_timestamp_seconds") > last, 10,
                     f"saved again after {fault}")
            recovered = time.monotonic() - freed
            with open(os.path.join(state, "state.json")) as f:
                check(name in f.read(), f"the state saved after {fault} lacks the engine added meanwhile")
            after, _ = daemon.metrics()
            latency = scraper.finish()
            check(daemon.alive(), "the daemon died")
            failures = after.value("syncmon_state_save_failures_total") - failures0
            figures[fault] = {"failures_counted": int(failures), "first_failures_after_s": round(detected, 2),
                              "saved_again_after_s": round(recovered, 2), "scrape_max_ms": latency["max_ms"]}
            log(f"state dir {fault}: {figures[fault]}")
            check(recovered <= 6, f"saving resumed only {recovered:.1f} s after the room came back")
        check("cannot save state; retrying" in daemon.log(), "no 'cannot save state' entry")
        check("state saved again" in daemon.log(), "no 'state saved again' entry")
        daemon.terminate()
        return figures
    finally:
        subprocess.run(["umount", "-l", state], capture_output=True)


def wait_for(condition, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if condition():
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise Failure(f"timed out waiting for: {what}")


# ---------------------------------------------------------------------------------------------
# 300 concurrent push connections


def many_connections(work, connections=300, cycles=15):
    """300 push connections open at once, each writing its own engine's events."""
    daemon = Daemon(work.path, config="max-connections = 400\n").start()
    scraper = Scraper(daemon)
    scraper.start()
    opened = threading.Barrier(connections + 1)
    done = threading.Barrier(connections + 1)
    errors = []
    per_connection = 2 + 7 * cycles

    def engine(index):
        name = f"conn-{index}"
        try:
            pusher = Pusher(daemon.socket)
            opened.wait(30)
            pusher.send(engine_setup(name))
            for _ in range(cycles):
                pusher.send(healthy_cycle(name))
                time.sleep(0.01)
            done.wait(30)
            pusher.close()
        except threading.BrokenBarrierError:
            pass  # another connection failed first; its error is the one reported
        except Exception as error:  # noqa: BLE001 - reported as a failure below
            errors.append(f"{name}: {error!r}")
            opened.abort()
            done.abort()

    threads = [threading.Thread(target=engine, args=(i,), daemon=True) for i in range(connections)]
    for thread in threads:
        thread.start()
    began = time.monotonic()
    try:
        opened.wait(60)
        done.wait(60)
    except threading.BrokenBarrierError:
        pass  # a connection failed and broke the barrier: its error is reported just below
    for thread in threads:
        thread.join()
    check(not errors, f"{len(errors)} connections failed, first: {errors[:5]}")
    total = connections * per_connection
    wait_for(lambda: daemon.metrics()[0].value("syncmon_events_received_total", transport="push") >= total, 15,
             "every event counted")
    elapsed = time.monotonic() - began
    metrics, _ = daemon.metrics()
    received = metrics.value("syncmon_events_received_total", transport="push")
    check(received == total, f"received {received}, sent {total}")
    check(metrics.value("syncmon_events_rejected_total") == 0, "events were rejected")
    check(metrics.value("syncmon_tracked_engines") == connections, "not every engine is tracked")
    rows = daemon.status()
    wrong = [k for k, r in rows.items() if r["summary"] != "succeeded"]
    check(not wrong, f"engines not succeeded: {wrong[:5]}")
    latency = scraper.finish()
    check(daemon.alive(), "the daemon died")
    daemon.terminate()
    with open("/proc/sys/net/core/somaxconn") as limit:
        somaxconn = int(limit.read())
    return {"connections": connections, "events": total, "received": int(received), "somaxconn": somaxconn,
            "seconds": round(elapsed, 2), **latency}


# ---------------------------------------------------------------------------------------------
# slow and garbage HTTP clients


def hostile_http(work, seconds=15, slowloris=200, non_readers=3, garbage=40, oversized=20, pairs=300):
    """Slowloris heads, clients that never read a /metrics answer, random bytes and oversized
    heads, all at once against a daemon with 1,000 pairs: other scrapes stay under 1 s."""
    daemon = Daemon(work.path).start()
    fill_pairs(daemon, pairs)
    size = len(daemon.get("/metrics")[1])
    scraper = Scraper(daemon, period=0.25)
    scraper.start()
    halt = threading.Event()
    outcomes = {"slowloris_open": 0, "non_readers": 0, "garbage_answers": {}, "oversized_431": 0}
    lock = threading.Lock()
    sockets = []

    def connect():
        s = socket.create_connection(("127.0.0.1", daemon.port), timeout=10)
        sockets.append(s)
        return s

    def dribble():
        try:
            s = connect()
            s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
            with lock:
                outcomes["slowloris_open"] += 1
            while not halt.wait(1.0):
                s.sendall(b"X-a: b\r\n")
        except OSError:
            pass  # cut off by the daemon: fine

    def never_read():
        try:
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.settimeout(10)
            s.connect(("127.0.0.1", daemon.port))
            sockets.append(s)
            s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
            with lock:
                outcomes["non_readers"] += 1
            halt.wait(seconds)
        except OSError:
            pass

    def noise():
        rng = random.Random()
        while not halt.is_set():
            try:
                s = connect()
                s.sendall(os.urandom(rng.randint(1, 4096)))
                s.shutdown(socket.SHUT_WR)
                answer = s.recv(64).split(b"\r\n")[0].decode(errors="replace")[:24]
                with lock:
                    outcomes["garbage_answers"][answer] = outcomes["garbage_answers"].get(answer, 0) + 1
                s.close()
            except OSError:
                pass
            halt.wait(0.2)

    def oversize():
        while not halt.is_set():
            try:
                s = connect()
                s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20000 + b"\r\n\r\n")
                answer = s.recv(64)
                if answer.startswith(b"HTTP/1.1 431"):
                    with lock:
                        outcomes["oversized_431"] += 1
                s.close()
            except OSError:
                pass
            halt.wait(0.5)

    threads = ([threading.Thread(target=dribble, daemon=True) for _ in range(slowloris)]
               + [threading.Thread(target=never_read, daemon=True) for _ in range(non_readers)]
               + [threading.Thread(target=noise, daemon=True) for _ in range(garbage // 10)]
               + [threading.Thread(target=oversize, daemon=True) for _ in range(oversized // 10)])
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    halt.set()
    for s in sockets:
        try:
            s.close()
        except OSError:
            pass
    for thread in threads:
        thread.join(15)
    latency = scraper.finish()
    check(daemon.alive(), "the daemon died")
    check(outcomes["oversized_431"] > 0, "oversized heads were not answered 431")
    status, _, _ = daemon.get("/healthz")
    check(status == 200, "/healthz does not answer 200 afterwards")
    daemon.terminate()
    return {"metrics_bytes": size, **outcomes, **latency}


# ---------------------------------------------------------------------------------------------
# mutated event lines


def mutate(rng, text):
    """One random mutation of a valid line."""
    data = bytearray(text.encode())
    kind = rng.randrange(10)
    if kind == 0:  # flip a byte
        data[rng.randrange(len(data))] = rng.getrandbits(8)
    elif kind == 1:  # delete a span
        i = rng.randrange(len(data))
        del data[i:i + rng.randint(1, 8)]
    elif kind == 2:  # insert random bytes (never a newline: that would make two lines)
        i = rng.randrange(len(data))
        data[i:i] = bytes(b if b != 10 else 32 for b in (rng.getrandbits(8) for _ in range(rng.randint(1, 4))))
    elif kind == 3:  # truncate
        data = data[:rng.randrange(1, len(data))]
    elif kind == 4:  # duplicate a span
        i = rng.randrange(len(data))
        data[i:i] = data[i:i + rng.randint(1, 16)]
    elif kind == 5:  # a value of the wrong type
        event = json.loads(text)
        key = rng.choice(sorted(event))
        event[key] = rng.choice([None, -1, 1.5, "x", [], {}, True, 2 ** 70, "", "é" * 70])
        data = bytearray(json.dumps(event).encode())
    elif kind == 6:  # a key dropped
        event = json.loads(text)
        del event[rng.choice(sorted(event))]
        data = bytearray(json.dumps(event).encode())
    elif kind == 7:  # another version or type
        event = json.loads(text)
        event[rng.choice(["v", "type"])] = rng.choice([2, 0, "1", "fetchEverything", "heartbeat"])
        data = bytearray(json.dumps(event).encode())
    elif kind == 8:  # deep nesting or a long line
        data = bytearray(b'{"v":1,"x":' + b"[" * rng.choice([10, 70, 200]) + b"]" * 10 + b"}") if rng.random() < 0.5 \
            else bytearray(text[:-1].encode() + b',"pad":"' + b"a" * rng.choice([1000, 70000]) + b'"}')
    else:  # invalid UTF-8 inside a string
        i = text.index('"engine":"') + 10
        data[i:i] = bytes([0xC3, 0x28])
    return bytes(data).replace(b"\n", b" ")


def mutated_lines(work, count=200_000):
    """200,000 mutated lines: the daemon lives, counts every reject by the reason `syncmon
    replay` gives for the same lines, and the valid engines beside them keep their verdicts."""
    rng = random.Random(int(os.environ.get("SYNCMON_FAULT_SEED", "7")))
    bases = []
    for index in range(20):
        name = f"fuzz-{index}"
        bases += [line(name, "engineStarted", heartbeatSeconds=3600), line(name, "error", phase="export",
                  error={"code": "quotaExceeded", "retryAfter": 5})]
        bases += engine_setup(name) + healthy_cycle(name)
        bases.append(line(name, "containerEvent", id="op-1", kind="import", started="2026-01-01T00:00:00Z",
                          ended="2026-01-01T00:00:05Z", succeeded=True, time="2026-01-01T00:00:05Z", seq=5))
    path = os.path.join(work.path, "mutated.ndjson")
    with open(path, "wb") as f:
        for _ in range(count):
            f.write(mutate(rng, rng.choice(bases)) + b"\n")
    replay = subprocess.run([binary(), "replay", path, "--json"], capture_output=True, text=True)
    summary = replay.stderr.strip().splitlines()[-1]
    expected = {reason: int(n) for reason, n in
                __import__("re").findall(r"(malformed|too_large|unsupported_version|invalid_field|unknown_type): (\d+)",
                                         summary)}
    log(f"replay of the same lines: {summary}")

    # Mutated engine names that stay valid make new pairs: at most 300 (the rest are rejected
    # as engine_limit), so /metrics stays the size the 1 s limit is about on a debug build.
    daemon = Daemon(work.path, args=["--max-engines", "300"]).start()
    control = Pusher(daemon.socket)
    control.send(engine_setup("ctl-ok") + engine_setup("ctl-quota"))
    time.sleep(0.2)
    scraper = Scraper(daemon)
    scraper.start()
    began = time.monotonic()
    with open(path, "rb") as f:
        data = f.read()
    fuzz = Pusher(daemon.socket, timeout=60)
    chunk = 1 << 20
    for offset in range(0, len(data), chunk):
        fuzz.sock.sendall(data[offset:offset + chunk])
        control.send(healthy_cycle("ctl-ok"))
    control.send([
        line("ctl-quota", "willSendChanges"),
        line("ctl-quota", "sentRecordZoneChanges", savedRecords=0, deletedRecords=0,
             failedRecordSaves=[{"code": "quotaExceeded"}], failedRecordDeletes=[]),
        line("ctl-quota", "didSendChanges"),
    ])
    fuzz.close()
    control.close()
    lines = sum(1 for x in data.split(b"\n") if x.strip())
    wait_for(lambda: daemon.metrics()[0].value("syncmon_events_received_total", transport="push") >= lines + 4 + 7 * (
        (len(data) + chunk - 1) // chunk) + 3, 60, "every line counted")
    elapsed = time.monotonic() - began
    metrics, _ = daemon.metrics()
    rejected = {l["reason"]: int(v) for l, v in metrics.series("syncmon_events_rejected_total")}
    for reason, n in expected.items():
        check(rejected.get(reason, 0) == n, f"{reason}: daemon counted {rejected.get(reason, 0)}, replay {n}")
    check(rejected.get("engine_limit", 0) > 0, "no engine_limit rejections although mutated names exceed the limit")
    for reason in ("forbidden",):
        check(rejected.get(reason, 0) == 0, f"unexpected {reason} rejections")
    rows = daemon.status()
    check(rows["ctl-ok/private"]["summary"] == "succeeded", f"ctl-ok is {rows['ctl-ok/private']['summary']}")
    check(rows["ctl-quota/private"]["summary"] == "error", f"ctl-quota is {rows['ctl-quota/private']['summary']}")
    latency = scraper.finish()
    check(daemon.alive(), "the daemon died")
    check("rejected" in daemon.log(), "no rejection entry logged")
    entries = daemon.log().count("event line(s) on push")
    daemon.terminate()
    return {"lines": lines, "seconds": round(elapsed, 2), "rejected": rejected, "rejection_log_entries": entries,
            "tracked": int(metrics.value("syncmon_tracked_engines")), **latency}


FAULTS = {
    "kill-loop": kill_loop,
    "journald": journald_outage,
    "state-dir": state_dir_faults,
    "connections": many_connections,
    "http": hostile_http,
    "mutations": mutated_lines,
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("faults", nargs="*", choices=[[]] + list(FAULTS), help="which (default: all)")
    parser.add_argument("--json", help="write the figures to this file")
    options = parser.parse_args()
    results, failed = {}, []
    for name in options.faults or list(FAULTS):
        work = Workdir(name)
        began = time.monotonic()
        try:
            figures = FAULTS[name](work)
            results[name] = {"outcome": "pass", "seconds": round(time.monotonic() - began, 1), **figures}
            log(f"PASS {name} ({results[name]['seconds']} s): {json.dumps(figures)}")
        except Exception as error:  # noqa: BLE001 - every fault runs, failures are reported at the end
            results[name] = {"outcome": "fail", "error": str(error)}
            failed.append(name)
            log(f"FAIL {name}: {type(error).__name__}: {error}")
            for daemon in list(Daemon.running):
                log(f"daemon stderr (tail):\n{daemon.log()[-2000:]}")
        finally:
            Daemon.stop_all()
            work.close()
    if options.json:
        with open(options.json, "w") as f:
            json.dump(results, f, indent=2)
    if failed:
        log(f"{len(failed)} fault(s) failed: {', '.join(failed)}")
        sys.exit(1)
    log("every fault passed")


if __name__ == "__main__":
    main()
