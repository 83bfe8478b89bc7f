"""Shared helpers of the reliability scripts (scripts/soak.sh, scripts/test-faults.sh).

Only the standard library: the scripts run on a bare Debian 12 with python3. Everything here
talks to a real `syncmon daemon` the way an operator or an engine would: HTTP on loopback, lines
on the push socket, /proc for its memory.
"""

import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OK_SUMMARIES = {"succeeded", "in_progress", "not_started", "throttled", "retrying", "stopped"}


def binary():
    """The syncmon executable: $SYNCMON, else the debug build."""
    return os.environ.get("SYNCMON") or os.path.join(ROOT, ".build", "debug", "syncmon")


def say(prefix, text):
    print(f"{prefix}: {text}", flush=True)


class Failure(Exception):
    """A check that did not hold."""


def check(condition, text):
    if not condition:
        raise Failure(text)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values, fraction):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


class Workdir:
    """A unique temporary directory, removed on close (unless $SYNCMON_KEEP is set)."""

    def __init__(self, name):
        self.path = tempfile.mkdtemp(prefix=f"syncmon-{name}-")

    def close(self):
        if not os.environ.get("SYNCMON_KEEP"):
            shutil.rmtree(self.path, ignore_errors=True)


class Daemon:
    """One `syncmon daemon` child with its own socket, state directory and port.

    `start` returns once /healthz answers and the push socket exists; `kill`/`terminate` wait
    for the exit. Every daemon started is stopped by `stop_all` (the scripts call it on exit).
    """

    running = []

    def __init__(self, directory, state_dir=None, args=(), config=None, log_target="stderr", env=None):
        self.directory = directory
        self.state_dir = state_dir or os.path.join(directory, "state")
        self.socket = os.path.join(directory, "events.sock")
        self.args = list(args)
        self.config = config
        self.log_target = log_target
        self.env = env
        self.port = None
        self.process = None
        self.starts = 0

    @property
    def pid(self):
        return self.process.pid

    def stderr_path(self, start=None):
        return os.path.join(self.directory, f"daemon-{start or self.starts}.stderr")

    def start(self, timeout=20):
        self.starts += 1
        for _ in range(4):
            self.port = free_port()
            command = [
                binary(), "daemon", "--events-socket", self.socket, "--state-dir", self.state_dir,
                "--listen", f"127.0.0.1:{self.port}", "--host-network", "off", "--log-target", self.log_target,
            ]
            if self.config is not None:
                path = os.path.join(self.directory, "syncmon.conf")
                with open(path, "w") as f:
                    f.write(self.config)
                command += ["--config", path]
            command += self.args
            environment = {k: v for k, v in os.environ.items()
                           if k not in ("NOTIFY_SOCKET", "JOURNAL_STREAM", "LISTEN_FDS", "LISTEN_PID", "WATCHDOG_USEC")}
            environment.update(self.env or {})
            with open(self.stderr_path(), "ab") as err:
                self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=err, stderr=err, env=environment)
            Daemon.running.append(self)
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline and self.process.poll() is None:
                try:
                    if self.get("/healthz", timeout=1)[0] == 200 and os.path.exists(self.socket):
                        return self
                except OSError:
                    pass
                time.sleep(0.02)
            log = self.log()
            self.kill()
            if "Address already in use" not in log:
                raise Failure(f"daemon did not become ready; stderr:\n{log[-3000:]}")
        raise Failure("daemon did not become ready: no free port")

    def log(self, start=None):
        try:
            with open(self.stderr_path(start), errors="replace") as f:
                return f.read()
        except FileNotFoundError:
            return ""

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def kill(self):
        """SIGKILL: no chance to save anything."""
        if self.alive():
            self.process.send_signal(signal.SIGKILL)
        return self.wait()

    def terminate(self, timeout=20):
        if self.alive():
            self.process.send_signal(signal.SIGTERM)
        return self.wait(timeout)

    def wait(self, timeout=20):
        if self.process is None:
            return None
        try:
            code = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait()
        if self in Daemon.running:
            Daemon.running.remove(self)
        return code

    @classmethod
    def stop_all(cls):
        for daemon in list(cls.running):
            daemon.kill()

    # HTTP

    def get(self, path, timeout=5, headers=None):
        """(status, body, seconds) of one GET on a fresh connection."""
        began = time.monotonic()
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request("GET", path, headers=headers or {})
            response = connection.getresponse()
            body = response.read()
            return response.status, body, time.monotonic() - began
        finally:
            connection.close()

    def metrics(self, timeout=5):
        status, body, seconds = self.get("/metrics", timeout=timeout)
        check(status == 200, f"/metrics answered {status}")
        return Metrics(body.decode()), seconds

    def status(self, engine=None, timeout=5):
        status, body, _ = self.get("/api/v1/status" + (f"?engine={engine}" if engine else ""), timeout=timeout)
        check(status == 200, f"/api/v1/status answered {status}")
        return {f"{row['engine']}/{row['database']}": row for row in json.loads(body)["engines"]}

    # /proc

    def rss_kib(self):
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def open_descriptors(self):
        return len(os.listdir(f"/proc/{self.pid}/fd"))


SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


class Metrics:
    """A text exposition, parsed enough to read samples by name and labels."""

    def __init__(self, text):
        self.samples = []
        for line in text.splitlines():
            if not line or line.startswith("#"):
                continue
            match = SAMPLE.match(line)
            if match:
                labels = dict(LABEL.findall(match.group(2) or ""))
                self.samples.append((match.group(1), labels, float(match.group(3))))

    def value(self, name, **labels):
        """The sum of the samples of `name` whose labels include `labels` (0 when none)."""
        return sum(v for n, l, v in self.samples if n == name and all(l.get(k) == w for k, w in labels.items()))

    def series(self, name):
        return [(l, v) for n, l, v in self.samples if n == name]


class Pusher:
    """One push connection: writes lines as an engine would."""

    def __init__(self, path, timeout=10):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        # Connect as `syncmon emit` does: a blocking connect bounded by SO_SNDTIMEO, which waits
        # for room when the daemon's backlog is full. Python's settimeout() would make the
        # socket non-blocking first, and a non-blocking Unix connect to a full backlog fails at
        # once with EAGAIN (a burst of connects beyond net.core.somaxconn does that).
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, struct.pack("ll", timeout, 0))
        self.sock.connect(path)
        self.sock.settimeout(timeout)

    def send(self, lines):
        data = "".join(line + "\n" for line in lines) if isinstance(lines, list) else lines
        self.sock.sendall(data.encode() if isinstance(data, str) else data)

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        self.sock.close()


def line(engine, type_, **fields):
    """One event line, without `time` (the daemon uses the receive time)."""
    event = {"v": 1, "engine": engine, "type": type_}
    event.update(fields)
    return json.dumps(event, separators=(",", ":"))


def healthy_cycle(engine, rng=random):
    """The seven lines of one healthy fetch-and-send cycle (ends with nothing pending)."""
    return [
        line(engine, "willFetchChanges", reason="scheduled"),
        line(engine, "fetchedRecordZoneChanges", zone="Z", modifications=rng.randint(0, 20), deletions=rng.randint(0, 3)),
        line(engine, "didFetchChanges", reason="scheduled"),
        line(engine, "willSendChanges", reason="scheduled"),
        line(engine, "sentRecordZoneChanges", savedRecords=rng.randint(0, 5), deletedRecords=0,
             failedRecordSaves=[], failedRecordDeletes=[]),
        line(engine, "didSendChanges", reason="scheduled"),
        line(engine, "stateUpdate", pendingRecordZoneChanges=0, pendingDatabaseChanges=0),
    ]


def engine_setup(engine):
    """What an engine says first: account and network available (setup succeeds)."""
    return [line(engine, "accountStatus", status="available"), line(engine, "networkStatus", available=True)]
