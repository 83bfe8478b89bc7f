#!/usr/bin/env python3
"""The fleet test's harness (scripts/test-fleet.sh sets up the namespaces and runs this inside the
monitoring one). Python 3 standard library and PyYAML only.

Starts six syncmon daemons (one per host namespace, with `ip netns exec`), feeds each its own mix
of engines, starts two site Prometheus servers, a global one federating them, a Prometheus agent
remote-writing into VictoriaMetrics, and checks the fleet rules against what the hosts were sent.
Every wait polls with a deadline; nothing sleeps for correctness.
"""

import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import yaml

SITES = {"a": ["h1", "h2", "h3"], "b": ["h4", "h5", "h6"]}
HOSTS = [host for hosts in SITES.values() for host in hosts]
SITE_OF = {host: site for site, hosts in SITES.items() for host in hosts}
ADDRESS = {host: f"10.77.0.1{index}" for index, host in enumerate(HOSTS, start=1)}
PORT = {"global": 19090, "a": 19091, "b": 19092, "agent": 19093, "vm": 18428, "vmalert": 18880}
# h5 runs with a small max-engines and is sent far more pairs.
MAX_ENGINES = 40
BULK_PAIRS = 3000
SIMULATED = 8  # h6: syncmon simulate, a random mix of scenarios
# What each deterministic host is sent, as (engine, database) -> the summary it must read.
# h3's pairs come from `syncmon wrap`; h6's from `syncmon simulate` (statuses vary, the count not).
EXPECTED = {
    "h1": {("notes", "private"): "succeeded", ("photos", "private"): "error"},
    "h2": {("docs", "private"): "succeeded", ("calendar", "private"): "succeeded"},
    "h3": {("backup", "private"): "succeeded", ("mirror", "private"): "error"},
    "h4": {("ok", "private"): "succeeded", ("hung", "private"): "stalled", ("gone", "private"): "engine_down"},
    "h5": {(f"bulk-{index:04d}", "private"): "succeeded" for index in range(MAX_ENGINES)},
}
# What the global server federates (docs/fleet.md): per host 14 series, per site a few dozen; not
# the per-pair records (instance_pair:…, syncmon-rules.yml's job_instance_engine:…).
FEDERATE_MATCH = ('{__name__=~"instance_status:syncmon_pairs:sum|instance:syncmon_pairs:sum'
                  '|instance:syncmon_host_stale:bool|site(_[a-z]+)?:syncmon_.+"}')
CANARY = ("shared", "folder")
CANARY_HOSTS = ("h3", "h4")  # one in each site: the folder is late across sites


class Failure(Exception):
    pass


def log(message):
    print(message, flush=True)


def wait(what, probe, timeout):
    """Polls probe() until it returns something other than None or False; returns that."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        try:
            last = probe()
        except (OSError, urllib.error.URLError, ValueError, KeyError) as error:
            last = error
        else:
            if last is not None and last is not False:
                return last
        if time.monotonic() > deadline:
            raise Failure(f"timed out after {timeout}s waiting for {what} (last: {last!r})")
        time.sleep(0.2)


def http_get(url, timeout=3.0):
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return response.read()


class Server:
    """A Prometheus-compatible query API (Prometheus or VictoriaMetrics)."""

    def __init__(self, name, port):
        self.name = name
        self.url = f"http://127.0.0.1:{port}"

    def query(self, expr):
        body = http_get(f"{self.url}/api/v1/query?" + urllib.parse.urlencode({"query": expr}))
        answer = json.loads(body)
        if answer.get("status") != "success":
            raise Failure(f"{self.name}: {expr}: {answer}")
        return answer["data"]["result"]

    def values(self, expr, *keys):
        """{(label values of keys…): value} of an instant vector."""
        return {tuple(sample["metric"].get(key, "") for key in keys): float(sample["value"][1])
                for sample in self.query(expr)}


class Processes:
    """Every process the harness starts, by name, stopped at exit."""

    def __init__(self, work):
        self.work = work
        self.running = {}

    def start(self, name, argv, namespace=None):
        if namespace:
            argv = ["ip", "netns", "exec", namespace] + argv
        output = open(os.path.join(self.work, f"{name}.log"), "ab")
        self.running[name] = subprocess.Popen(argv, stdout=output, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        return self.running[name]

    def stop(self, name, sig=signal.SIGTERM):
        process = self.running.pop(name)
        process.send_signal(sig)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def stop_all(self):
        for name in list(self.running):
            self.stop(name)

    def tail(self, name, lines=15):
        try:
            with open(os.path.join(self.work, f"{name}.log"), errors="replace") as file:
                return "".join(file.readlines()[-lines:])
        except OSError:
            return ""


class Fleet:
    def __init__(self, arguments):
        self.binary = arguments.binary
        self.work = arguments.work
        self.repo = arguments.repo
        self.prefix = arguments.namespace_prefix
        self.canary = os.environ.get("SYNCMON_FLEET_CANARY", "1") == "1"
        self.processes = Processes(self.work)
        self.site = {site: Server(f"site {site}", PORT[site]) for site in SITES}
        self.glob = Server("global", PORT["global"])
        self.vm = Server("VictoriaMetrics", PORT["vm"])
        self.started = time.monotonic()
        self.cut = set()  # canary sync directions stopped, as (from, to)
        self.stopping = threading.Event()

    # --- paths and processes -----------------------------------------------------------------

    def path(self, *parts):
        return os.path.join(self.work, *parts)

    def socket_of(self, host):
        return self.path(host, "events.sock")

    def daemon_argv(self, host):
        argv = [self.binary, "daemon", "--listen", f"{ADDRESS[host]}:9478",
                "--events-socket", self.socket_of(host), "--state-dir", self.path(host, "state"),
                "--log-target", "stderr", "--log-level", "notice", "--host-network", "online",
                "--no-progress-after", "2s"]
        if host == "h5":
            argv += ["--max-engines", str(MAX_ENGINES)]
        if self.canary and host in CANARY_HOSTS:
            argv += ["--config", self.path(host, "canary.conf")]
        else:
            argv += ["--config", "/dev/null"]
        return argv

    def start_daemon(self, host):
        self.processes.start(f"syncmon-{host}", self.daemon_argv(host), namespace=self.prefix + host)

    def syncmon(self, *arguments):
        result = subprocess.run([self.binary, *arguments], capture_output=True, text=True, timeout=60)
        if result.returncode != 0 and arguments[0] == "emit":
            raise Failure(f"syncmon {' '.join(arguments)}: exit {result.returncode}: {result.stderr.strip()}")
        return result

    def emit(self, host, engine, *event):
        self.syncmon("emit", "--events-socket", self.socket_of(host), "--engine", engine, *event)

    def scrape(self, host):
        return http_get(f"http://{ADDRESS[host]}:9478/metrics").decode()

    def healthy(self, host):
        try:
            return http_get(f"http://{ADDRESS[host]}:9478/healthz", timeout=1) is not None and os.path.exists(self.socket_of(host))
        except (OSError, urllib.error.URLError):
            return False

    # --- configuration -----------------------------------------------------------------------

    def rules_with_short_for(self, name):
        """A shipped rule file with every `for:` at 2s (the test's time scale); nothing else changes."""
        rules = yaml.safe_load(open(os.path.join(self.repo, "deploy/prometheus", name)))
        for group in rules["groups"]:
            for rule in group["rules"]:
                if "for" in rule:
                    rule["for"] = "2s"
        path = self.path(name)
        with open(path, "w") as file:
            yaml.safe_dump(rules, file, sort_keys=False, width=1000)
        return path

    def write_targets(self, site, hosts):
        path = self.path(f"targets-{site}.json")
        with open(path + ".tmp", "w") as file:
            json.dump([{"targets": [f"{ADDRESS[host]}:9478" for host in hosts]}], file)
        os.rename(path + ".tmp", path)  # file_sd reads it whole or not at all
        return path

    def write_configs(self):
        base = {"scrape_interval": "1s", "scrape_timeout": "1s", "evaluation_interval": "1s"}
        site_rules = self.rules_with_short_for("syncmon-fleet.yml")
        for site, hosts in SITES.items():
            config = {
                "global": dict(base, external_labels={"site": site}),
                "rule_files": [site_rules],
                "scrape_configs": [{
                    "job_name": "syncmon",
                    "file_sd_configs": [{"files": [self.write_targets(site, hosts)], "refresh_interval": "1s"}],
                }],
            }
            self.dump(f"prometheus-{site}.yml", config)
        self.dump("prometheus-global.yml", {
            "global": base,
            "rule_files": [self.rules_with_short_for("syncmon-fleet-global.yml")],
            "scrape_configs": [{
                "job_name": "syncmon-federate",
                "honor_labels": True,
                "metrics_path": "/federate",
                "params": {"match[]": [FEDERATE_MATCH, 'ALERTS{alertname=~"SyncmonFleet.*"}']},
                "static_configs": [{"targets": [f"127.0.0.1:{PORT[site]}"], "labels": {"site": site}} for site in SITES],
            }],
        })
        self.dump("prometheus-agent.yml", {
            "global": {"scrape_interval": "1s", "scrape_timeout": "1s"},
            "scrape_configs": [{
                "job_name": "syncmon",
                "static_configs": [{"targets": [f"{ADDRESS[host]}:9478" for host in hosts], "labels": {"site": site}}
                                   for site, hosts in SITES.items()],
            }],
            "remote_write": [{"url": f"http://127.0.0.1:{PORT['vm']}/api/v1/write",
                              "queue_config": {"batch_send_deadline": "1s"}}],
        })
        # vmalert evaluates the shipped recording rules over the raw series in VictoriaMetrics and
        # writes the records back (docs/fleet.md): the same rules without a site server.
        rules = yaml.safe_load(open(os.path.join(self.repo, "deploy/prometheus/syncmon-fleet.yml")))
        records = [dict(group, rules=[rule for rule in group["rules"] if "record" in rule]) for group in rules["groups"]]
        self.dump("vmalert-rules.yml", {"groups": [group for group in records if group["rules"]]})
        for name in ("prometheus-a.yml", "prometheus-b.yml", "prometheus-global.yml"):
            self.check(["promtool", "check", "config", self.path(name)])

    def dump(self, name, config):
        with open(self.path(name), "w") as file:
            yaml.safe_dump(config, file, sort_keys=False)

    def check(self, argv):
        result = subprocess.run(argv, capture_output=True, text=True)
        if result.returncode != 0:
            raise Failure(f"{' '.join(argv)}: {result.stdout}{result.stderr}")

    def start_prometheus(self, name):
        self.processes.start(f"prometheus-{name}", [
            "prometheus", f"--config.file={self.path(f'prometheus-{name}.yml')}",
            f"--storage.tsdb.path={self.path(f'tsdb-{name}')}", f"--web.listen-address=127.0.0.1:{PORT[name]}",
            "--log.level=warn"])

    def start_servers(self):
        self.write_configs()
        self.processes.start("victoria-metrics", [
            "victoria-metrics", f"-storageDataPath={self.path('vm')}", f"-httpListenAddr=127.0.0.1:{PORT['vm']}",
            "-retentionPeriod=1d", "-search.latencyOffset=0s", "-search.disableCache", "-loggerLevel=WARN"])
        vm = f"http://127.0.0.1:{PORT['vm']}"
        self.processes.start("vmalert", [
            "vmalert", f"-rule={self.path('vmalert-rules.yml')}", f"-datasource.url={vm}", f"-remoteWrite.url={vm}",
            "-evaluationInterval=1s", f"-httpListenAddr=127.0.0.1:{PORT['vmalert']}", "-loggerLevel=WARN"])
        for name in ("a", "b", "global"):
            self.start_prometheus(name)
        self.processes.start("prometheus-agent", [
            "prometheus", "--enable-feature=agent", f"--config.file={self.path('prometheus-agent.yml')}",
            f"--storage.agent.path={self.path('agent')}", f"--web.listen-address=127.0.0.1:{PORT['agent']}",
            "--log.level=warn"])
        for name in ("a", "b", "global", "agent"):
            wait(f"Prometheus {name} ready", lambda name=name: http_get(f"http://127.0.0.1:{PORT[name]}/-/ready", 1), 60)
        wait("VictoriaMetrics ready", lambda: http_get(f"http://127.0.0.1:{PORT['vm']}/health", 1), 60)

    # --- the hosts' engines ------------------------------------------------------------------

    def feed_h1(self):
        self.emit("h1", "notes", "willFetchChanges")
        self.emit("h1", "notes", "didFetchChanges")
        # photos succeeded once, then fails with an actionable error: status error, ranked by age.
        self.emit("h1", "photos", "willSendChanges")
        self.emit("h1", "photos", "didSendChanges")
        self.emit("h1", "photos", "willSendChanges")
        self.emit("h1", "photos", "error", "phase=export", "error.code=quotaExceeded")
        self.emit("h1", "photos", "didSendChanges")

    def feed_h2(self):
        for engine in ("docs", "calendar"):
            self.emit("h2", engine, "willFetchChanges")
            self.emit("h2", engine, "didFetchChanges")

    def feed_h3(self):
        source, target = self.path("h3", "data"), self.path("h3", "copy")
        os.makedirs(source, exist_ok=True)
        with open(os.path.join(source, "file"), "w") as file:
            file.write("data\n")
        sock = self.socket_of("h3")
        result = self.syncmon("wrap", "--events-socket", sock, "--engine", "backup", "--phase", "export", "--", "rsync", "-a", source + "/", target + "/")
        if result.returncode != 0:
            raise Failure(f"syncmon wrap rsync: exit {result.returncode}: {result.stderr.strip()}")
        # rsync's exit 23 (some files could not be transferred): the wrapped job fails.
        result = self.syncmon("wrap", "--events-socket", sock, "--engine", "mirror", "--phase", "export", "--",
                              "rsync", "-a", self.path("h3", "missing") + "/", target + "/")
        if result.returncode == 0:
            raise Failure("syncmon wrap of a failing rsync exited 0")

    def feed_h4(self):
        self.emit("h4", "ok", "willSendChanges")
        self.emit("h4", "ok", "didSendChanges")
        self.emit("h4", "hung", "willFetchChanges")  # no progress: stalled after 2s
        self.emit("h4", "gone", "engineStarted", "heartbeatSeconds=1")  # the connection closes: engine_down

    def feed_h5(self):
        """BULK_PAIRS pairs on one connection against max-engines MAX_ENGINES."""
        now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        lines = []
        for index in range(BULK_PAIRS):
            for kind in ("willFetchChanges", "didFetchChanges"):
                lines.append(json.dumps({"v": 1, "engine": f"bulk-{index:04d}", "type": kind, "time": now}))
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.connect(self.socket_of("h5"))
            connection.sendall(("\n".join(lines) + "\n").encode())

    def start_h6(self):
        self.processes.start("simulate-h6", [
            self.binary, "simulate", "--events-socket", self.socket_of("h6"), "--engines", str(SIMULATED),
            "--seed", "6", "--rate", "10", "--heartbeat", "1s", "--prefix", "h6"])

    # --- the canary (on unless SYNCMON_FLEET_CANARY=0) -------------------------------------------------

    def prepare_canary(self):
        for host in CANARY_HOSTS:
            folder = self.path(host, "shared")
            os.makedirs(folder, exist_ok=True)
            with open(self.path(host, "canary.conf"), "w") as file:
                file.write(f"[canary {CANARY[0]}/{CANARY[1]}]\npath = {folder}\ninterval = 1s\n"
                           f"late-after = 3s\nhost = {host}\n")

    def sync_loop(self, source, target):
        """One direction of the folder's sync: the source host's canary file to the target's folder,
        by rsync (temporary file, then rename), every 0.3 s until cut."""
        while not self.stopping.is_set():
            if (source, target) not in self.cut:
                mine = self.path(source, "shared", ".syncmon", f"canary-{source}.json")
                theirs = self.path(target, "shared", ".syncmon")
                if os.path.exists(mine) and os.path.isdir(theirs):
                    subprocess.run(["rsync", "-a", mine, theirs + "/"], capture_output=True)
            self.stopping.wait(0.3)

    # --- checks ------------------------------------------------------------------------------

    def expected_pairs(self, host):
        count = SIMULATED if host == "h6" else len(EXPECTED[host])
        return count + (1 if self.canary and host in CANARY_HOSTS else 0)

    def expected_statuses(self, hosts):
        counts = {}
        for host in hosts:
            for status in EXPECTED[host].values():
                counts[status] = counts.get(status, 0) + 1
            if self.canary and host in CANARY_HOSTS:
                counts["succeeded"] = counts.get("succeeded", 0) + 1
        return counts

    def check_metrics(self):
        """Every host's /metrics: promtool-clean, no label naming the host; the series per host
        and per pair, measured."""
        rows = []
        for host in HOSTS:
            text = self.scrape(host)
            result = subprocess.run(["promtool", "check", "metrics"], input=text, capture_output=True, text=True)
            if result.returncode != 0 or result.stdout.strip() or result.stderr.strip():
                raise Failure(f"{host}: promtool check metrics exit {result.returncode}: {result.stdout}{result.stderr}")
            samples = [line for line in text.splitlines() if line and not line.startswith("#")]
            for line in samples:
                labels = re.findall(r'[{,]([a-zA-Z_]\w*)="', line)
                for forbidden in ("instance", "host", "hostname", "job", "site"):
                    if forbidden in labels:
                        raise Failure(f"{host}: /metrics has a label {forbidden} of its own: {line}")
            pairs = {re.search(r'engine="([^"]*)",database="([^"]*)"', line).groups()
                     for line in samples if line.startswith("syncmon_status{")}
            per_pair = [line for line in samples if 'engine="' in line]
            rows.append((host, len(samples), len(pairs), len(samples) - len(per_pair), len(per_pair)))
            if host == "h5":
                families = {}
                for line in per_pair:
                    family = re.sub(r"_(bucket|sum|count)$", "", re.match(r"[a-zA-Z_:][\w:]*", line).group(0))
                    families[family] = families.get(family, 0) + 1
                breakdown = ", ".join(f"{name} {count / len(pairs):g}" for name, count in
                                      sorted(families.items(), key=lambda item: -item[1]))
        log("ok: every host's /metrics: promtool check metrics exit 0, no output; no instance/host/job/site label")
        log(f"    per pair on h5 (one import cycle each), by family: {breakdown}")
        log("    host  samples  pairs  per-host  per-pair  per-pair/pair")
        for host, total, pairs, host_series, pair_series in rows:
            log(f"    {host:4}  {total:7}  {pairs:5}  {host_series:8}  {pair_series:8}  {pair_series / max(pairs, 1):8.1f}")
        return rows

    def instance_counts(self, server, extra=""):
        return server.values(f'instance_status:syncmon_pairs:sum{{job="syncmon"{extra}}}', "instance", "status")

    def counts_match(self, server, hosts, extra=""):
        """instance_status:syncmon_pairs:sum on server matches what the deterministic hosts were sent."""
        values = self.instance_counts(server, extra)
        for host in hosts:
            if host == "h6":
                continue
            instance = f"{ADDRESS[host]}:9478"
            expected = self.expected_statuses([host])
            got = {status: value for (inst, status), value in values.items() if inst == instance and value}
            if got != {status: float(count) for status, count in expected.items()}:
                return None
        return True

    def total_pairs(self, server, host, extra=""):
        values = server.values(f'instance:syncmon_pairs:sum{{instance="{ADDRESS[host]}:9478"{extra}}}', "instance")
        return next(iter(values.values()), None)

    def site_counts(self, server, site):
        values = server.values(f'site_status:syncmon_pairs:sum{{site="{site}"}}', "status")
        return {status: value for (status,), value in values.items() if value}

    def phase_counts(self):
        """Per host and per site on the site servers and through federation, against what was sent."""
        for site, hosts in SITES.items():
            wait(f"site {site}: pairs per status per host as sent", lambda: self.counts_match(self.site[site], hosts), 60)
            for host in hosts:
                wait(f"site {site}: {host}'s pairs", lambda: self.total_pairs(self.site[site], host) == self.expected_pairs(host), 60)
        wait("global: pairs per status per host as sent, with site labels",
             lambda: all(self.counts_match(self.glob, hosts, f',site="{site}"') for site, hosts in SITES.items()), 60)
        expected_a = {status: float(count) for status, count in self.expected_statuses(SITES["a"]).items()}
        wait("global: site a's pairs per status", lambda: self.site_counts(self.glob, "a") == expected_a, 60)
        log(f"ok: site a through federation: {self.fmt(self.site_counts(self.glob, 'a'))}")
        # Site b has h6's simulated engines: its per-status sum must equal its hosts' sums at one
        # evaluation, and its total the pairs sent.
        total_b = sum(self.expected_pairs(host) for host in SITES["b"])
        wait("global: site b's total pairs", lambda: sum(self.site_counts(self.glob, "b").values()) == total_b, 60)
        log(f"ok: site b through federation: {self.fmt(self.site_counts(self.glob, 'b'))} ({total_b} pairs, h6 simulated)")
        total = sum(self.expected_pairs(host) for host in HOSTS)
        wait("global: fleet-wide pairs", lambda: sum(self.glob.values("fleet_status:syncmon_pairs:sum", "status").values()) == total, 60)
        log(f"ok: fleet-wide through federation: {total} pairs on {len(HOSTS)} hosts")
        # VictoriaMetrics holds the raw series (the agent adds `site` as a target label): the
        # site rules' expressions evaluated there give the same numbers.
        wait("VictoriaMetrics: pairs per site", lambda: {
            site: sum(self.vm.values(f'sum by (site, job, status) (syncmon_status{{site="{site}"}})', "status").values())
            for site in SITES} == {site: sum(self.expected_pairs(h) for h in hosts) for site, hosts in SITES.items()}, 60)
        wait("VictoriaMetrics: site a's pairs per status", lambda: {
            status: value for (status,), value in self.vm.values('sum by (site, job, status) (syncmon_status{site="a"})', "status").items()
            if value} == expected_a, 60)
        wait("VictoriaMetrics: site a's pairs per status recorded by vmalert", lambda: {
            status: value for (status,), value in self.vm.values('site_status:syncmon_pairs:sum{site="a"}', "status").items()
            if value} == expected_a, 60)
        log("ok: VictoriaMetrics (agent remote write): the same pairs per site and per status, "
            "raw and as recorded by vmalert with the shipped rules")

    @staticmethod
    def fmt(counts):
        return ", ".join(f"{status} {int(value)}" for status, value in sorted(counts.items()))

    def phase_limit(self):
        """h5 over max-engines: rejections counted, the rules bounded."""
        # Each event of a pair over the limit is rejected: two per pair, each time they are sent.
        rejected = 2 * (BULK_PAIRS - MAX_ENGINES)
        counter = f'syncmon_events_rejected_total{{reason="engine_limit",instance="{ADDRESS["h5"]}:9478"}}'
        wait("site b: h5's rejections stored", lambda: self.site["b"].values(counter).get(()) == rejected, 30)
        # Sent once more, the rejections grow between two scrapes: the site's rate sees them.
        self.feed_h5()

        def rejections():
            match = re.search(r'^syncmon_events_rejected_total\{reason="engine_limit"\} (\d+)', self.scrape("h5"), re.M)
            return int(match.group(1)) if match else 0
        wait(f"h5: {2 * rejected} engine_limit rejections in /metrics", lambda: rejections() == 2 * rejected, 30)
        count = rejections()
        wait("site b: h5's pairs bounded by max-engines", lambda: self.total_pairs(self.site["b"], "h5") == MAX_ENGINES, 30)
        wait("site b: rejections per reason", lambda: self.site["b"].values(
            'site_reason:syncmon_events_rejected:rate5m{reason="engine_limit"}', "reason").get(("engine_limit",), 0) > 0, 30)
        series = len(self.site["b"].query(f'{{instance="{ADDRESS["h5"]}:9478"}}'))
        log(f"ok: h5 sent {BULK_PAIRS} pairs against max-engines {MAX_ENGINES}: {MAX_ENGINES} tracked, "
            f"{count} events rejected (engine_limit), {series} series stored for it, fleet rules bounded")

    def phase_restart(self):
        """h2's syncmon killed (SIGKILL) and restarted under 1 s scrapes until Prometheus has
        scraped it mid-restart (a failed scrape, up == 0) at least once; at most ten times."""
        site = self.site["a"]
        instance = f"{ADDRESS['h2']}:9478"
        failed = f'min_over_time(up{{instance="{instance}"}}[1m])'
        restarts = 0
        while restarts < 5:
            # Prometheus scrapes on a fixed phase: kill just before the next scrape is due and start
            # again just after it, so that scrape meets the restart. (Timing of the fault only;
            # every check below waits for its condition.)
            last = float(site.query(f'timestamp(up{{instance="{instance}"}})')[0]["value"][1])
            due = last + 1.0
            while due < time.time() + 0.3:
                due += 1.0
            time.sleep(max(0.0, due - 0.15 - time.time()))
            self.processes.stop("syncmon-h2", signal.SIGKILL)
            time.sleep(max(0.0, due + 0.3 - time.time()))
            self.start_daemon("h2")
            restarts += 1
            wait("h2 back", lambda: self.healthy("h2"), 30)
            # Two scrapes after the restart, then look whether one of them failed.
            wait("two scrapes of h2", lambda: site.values(f'count_over_time(up{{instance="{instance}"}}[3s])').get((), 0) >= 2, 30)
            if site.values(failed).get(()) == 0:
                break
        else:
            raise Failure(f"no scrape of h2 failed in {restarts} restarts")
        # The state file brings the pairs back at start (docs/operations.md, "Persisted state");
        # pairs it lacks come back when their engines report again, as reconnecting engines do.
        restored = len({line.split(",status=")[0] for line in self.scrape("h2").splitlines() if line.startswith("syncmon_status{")})
        if restored != len(EXPECTED["h2"]):
            self.feed_h2()
        wait("site a: h2's pairs after the restarts", lambda: self.counts_match(site, ["h2"]) and
             site.values(f'up{{instance="{instance}"}}', "instance").get((instance,)) == 1.0, 60)
        most = site.values(f'max_over_time(instance:syncmon_pairs:sum{{instance="{instance}"}}[2m])', "instance")
        if max(most.values()) > self.expected_pairs("h2"):
            raise Failure(f"h2's pair count went above what it was sent across the restarts: {most}")
        log(f"ok: h2 killed and restarted {restarts} time(s) until a 1 s scrape failed on it: its pairs never above "
            f"{self.expected_pairs('h2')}, {restored} restored from its state file, up and counts back")

    def phase_canary(self):
        """Two hosts sharing a folder through an rsync loop; one direction cut, then restored."""
        glob = self.glob
        selector = f'{{engine="{CANARY[0]}",database="{CANARY[1]}"}}'
        wait("global: the folder's canary on both hosts", lambda: sum(
            glob.values(f"site_folder:syncmon_canary_hosts:count{selector}", "site").values()) == 2, 60)
        wait("global: the folder not late while both directions sync", lambda: glob.values(
            f"fleet_folder:syncmon_canary_late:sum{selector}", "engine").get((CANARY[0],)) == 0, 60)
        self.cut.add(CANARY_HOSTS)
        started = time.monotonic()
        wait("global: the folder late on both hosts after one direction was cut", lambda: glob.values(
            f"fleet_folder:syncmon_canary_late:sum{selector}", "engine").get((CANARY[0],)) == 2, 60)
        late_after = time.monotonic() - started
        wait("global: SyncmonFleetFolderLateAcrossSites firing", lambda: glob.query(
            'ALERTS{alertname="SyncmonFleetFolderLateAcrossSites",alertstate="firing"}'), 30)
        self.cut.clear()
        wait("global: the folder clear again after the sync came back", lambda: glob.values(
            f"fleet_folder:syncmon_canary_late:sum{selector}", "engine").get((CANARY[0],)) == 0, 60)
        log(f"ok: canary: {CANARY_HOSTS[0]}→{CANARY_HOSTS[1]} cut: late on both hosts in the fleet view after "
            f"{late_after:.1f}s, SyncmonFleetFolderLateAcrossSites fired; clear again once it synced")

    def phase_stale(self):
        """h6 stopped: stale on its site and through federation; then the counts are exact everywhere."""
        self.processes.stop("simulate-h6")
        self.processes.stop("syncmon-h6")
        instance = f"{ADDRESS['h6']}:9478"
        started = time.monotonic()
        wait("site b: h6 stale", lambda: self.site["b"].values(
            f'instance:syncmon_host_stale:bool{{instance="{instance}"}}', "instance").get((instance,)) == 1, 30)
        seen = time.monotonic() - started
        wait("site b: one stale host", lambda: self.site["b"].values("site:syncmon_hosts_stale:sum", "job").get(("syncmon",)) == 1, 30)
        wait("global: h6 stale, with its site", lambda: self.glob.values(
            f'instance:syncmon_host_stale:bool{{instance="{instance}",site="b"}}', "instance").get((instance,)) == 1, 30)
        wait("global: SyncmonFleetHostStale firing for h6 (federated from site b)", lambda: self.glob.query(
            f'ALERTS{{alertname="SyncmonFleetHostStale",alertstate="firing",instance="{instance}",site="b"}}'), 30)
        wait("VictoriaMetrics: h6 stale by the same rule, recorded by vmalert", lambda: self.vm.values(
            f'instance:syncmon_host_stale:bool{{instance="{instance}",site="b"}}', "instance").get((instance,)) == 1, 60)
        wait("global: one stale host fleet-wide", lambda: self.glob.values("fleet:syncmon_hosts_stale:sum").get(()) == 1, 30)
        log(f"ok: h6 stopped: stale on site b after {seen:.1f}s, through federation with site=\"b\", "
            "SyncmonFleetHostStale firing, and in VictoriaMetrics by the shipped rule under vmalert")
        # Without h6's simulated engines every count is known: fleet-wide, exact.
        expected = {status: float(count) for status, count in self.expected_statuses(HOSTS[:5]).items()}
        wait("global: fleet-wide pairs per status", lambda: {
            status: value for (status,), value in self.glob.values("fleet_status:syncmon_pairs:sum", "status").items() if value} == expected, 30)
        expected_b = {status: float(count) for status, count in self.expected_statuses(["h4", "h5"]).items()}
        wait("global: site b's pairs per status", lambda: self.site_counts(self.glob, "b") == expected_b, 30)
        wait("VictoriaMetrics: fleet-wide pairs per status", lambda: {
            status: value for (status,), value in self.vm.values("sum by (status) (syncmon_status)", "status").items() if value} == expected, 60)
        log(f"ok: fleet-wide pairs per status, federation and VictoriaMetrics alike: {self.fmt(expected)}")

    def phase_absent(self):
        """h1 dropped from site a's service discovery: `up` goes away, the host reads stale."""
        self.write_targets("a", ["h2", "h3"])
        instance = f"{ADDRESS['h1']}:9478"
        wait("site a: h1 gone from the scrape", lambda: not self.site["a"].query(f'up{{instance="{instance}"}}'), 30)
        wait("site a: h1 stale although it has no `up`", lambda: self.site["a"].values(
            f'instance:syncmon_host_stale:bool{{instance="{instance}"}}', "instance").get((instance,)) == 1, 30)
        log("ok: h1 dropped from site a's targets: stale by last_over_time(up[1h]) with no `up` series")

    def phase_site_down(self):
        """Site b's Prometheus stopped: the global view says so, it does not show zeros."""
        self.processes.stop("prometheus-b")
        wait("global: site b's federation down", lambda: self.glob.values(
            'up{job="syncmon-federate",site="b"}', "site").get(("b",)) == 0, 30)
        # Federated samples carry their own timestamps, so Prometheus writes no staleness markers
        # when the federation scrape fails: the raw site series stay for the 5 m look-back. The
        # dashboard's per-site panel joins them with site:syncmon_federated:bool: it has to drop site b.
        per_site = self.dashboard_expr("Pairs by summary per site")
        wait("global: the dashboard's site b counts gone, not zero", lambda: not self.glob.query(per_site.replace('site=~".*"', 'site="b"')), 30)
        wait("global: fleet-wide sums withheld", lambda: not self.glob.query("fleet_status:syncmon_pairs:sum"), 30)
        wait("global: one site down", lambda: self.glob.values("fleet:syncmon_sites_down:count").get(()) == 1, 30)
        wait("global: SyncmonFleetSiteDown firing", lambda: self.glob.query(
            'ALERTS{alertname="SyncmonFleetSiteDown",alertstate="firing",site="b"}'), 30)
        if not self.glob.query(per_site.replace('site=~".*"', 'site="a"')):
            raise Failure("global: site a's counts went away with site b")
        log("ok: site b's Prometheus down: global says up=0 and 1 site down, SyncmonFleetSiteDown fires, "
            "site b's counts and the fleet sums are absent (no zeros), site a's remain")

    def dashboard_expr(self, title):
        """A panel's first query with every variable at All."""
        dashboard = json.load(open(os.path.join(self.repo, "dashboards/syncmon-fleet.json")))
        panel = next(panel for panel in dashboard["panels"] if panel["title"] == title)
        return self.substitute(panel["targets"][0]["expr"])

    @staticmethod
    def substitute(expr):
        for name, value in (("job", ".*"), ("instance", ".*"), ("site", ".*"), ("__rate_interval", "1m")):
            expr = expr.replace("${" + name + "}", value).replace("$" + name, value)
        return expr

    def check_dashboard(self):
        """Every query of the fleet dashboard returns data from the global Prometheus."""
        dashboard = json.load(open(os.path.join(self.repo, "dashboards/syncmon-fleet.json")))
        checked, empty = 0, []
        for panel in dashboard["panels"]:
            for target in panel.get("targets", []):
                expr = target.get("expr")
                if not expr:
                    continue
                expr = self.substitute(expr)
                checked += 1
                if not self.glob.query(expr) and not (not self.canary and "canary" in expr):
                    empty.append(f"{panel['title']}: {expr}")
        if empty:
            raise Failure("fleet dashboard queries without data on the global Prometheus:\n  " + "\n  ".join(empty))
        log(f"ok: fleet dashboard: {checked} queries return data on the global Prometheus"
            + ("" if self.canary else " (canary panels: no canary with SYNCMON_FLEET_CANARY=0)"))

    def series_report(self, rows):
        """Series per host and per pair as Prometheus stores them, and the sizing they imply."""
        stored = {}
        for site in SITES:
            stored.update(self.site[site].values('count by (instance) ({job="syncmon"})', "instance"))
        recorded = {site: len(self.glob.query(f'{{__name__=~".+:syncmon_.+",site="{site}"}}')) for site in SITES}
        per_host = {site: len(self.glob.query(f'{{__name__=~".+:syncmon_.+",site="{site}",instance!=""}}')) for site in SITES}
        log("series stored per host on its site server (its samples plus up and 4 scrape_* series): " + ", ".join(
            f"{host} {int(stored.get((f'{ADDRESS[host]}:9478',), 0))}" for host in HOSTS))
        log(f"recorded series federated to the global server per site: {recorded}, of which per host: {per_host}")
        pair_rows = [row for row in rows if row[2]]
        low = min(row[4] / row[2] for row in pair_rows)
        high = max(row[4] / row[2] for row in pair_rows)
        log(f"measured: {rows[0][3]} series per host without pairs, {low:.1f}–{high:.1f} per pair")

    def check_docs(self):
        """docs/fleet.md's configurations pass `promtool check config` with the shipped rule files,
        and its federation match[] is the one this test federates with."""
        text = open(os.path.join(self.repo, "docs/fleet.md")).read()
        if FEDERATE_MATCH not in text:
            raise Failure("docs/fleet.md does not give the match[] the test federates with: " + FEDERATE_MATCH)
        sd = self.path("file_sd.yml")
        with open(sd, "w") as file:
            yaml.safe_dump([{"targets": ["10.77.0.11:9478"]}], file)
        checked = 0
        for index, block in enumerate(re.findall(r"```yaml\n(.*?)```", text, re.S)):
            if "scrape_configs:" not in block:
                continue
            block = block.replace("/usr/share/syncmon/prometheus/", os.path.join(self.repo, "deploy/prometheus") + "/")
            block = re.sub(r"/etc/prometheus/file_sd/\S+\.yml", sd, block)
            path = self.path(f"docs-{index}.yml")
            with open(path, "w") as file:
                file.write(block)
            agent = ["--agent"] if "remote_write:" in block else []
            self.check(["promtool", "check", "config", *agent, path])
            checked += 1
        if checked < 3:
            raise Failure(f"docs/fleet.md: {checked} Prometheus configurations found, expected the site, global and agent ones")
        log(f"ok: docs/fleet.md: {checked} Prometheus configurations pass promtool check config; its match[] is the test's")

    # --- the run -----------------------------------------------------------------------------

    def run(self):
        for host in HOSTS:
            os.makedirs(self.path(host, "state"), exist_ok=True)
        if self.canary:
            self.prepare_canary()
        self.check_docs()
        self.start_servers()
        for host in HOSTS:
            self.start_daemon(host)
        for host in HOSTS:
            wait(f"syncmon on {host}", lambda host=host: self.healthy(host), 60)
        log(f"ok: 6 hosts, 2 site servers, global, agent and VictoriaMetrics up ({time.monotonic() - self.started:.0f}s)")
        if self.canary:
            for source, target in (CANARY_HOSTS, CANARY_HOSTS[::-1]):
                threading.Thread(target=self.sync_loop, args=(source, target), daemon=True).start()
        self.feed_h1()
        self.feed_h2()
        self.feed_h3()
        self.feed_h4()
        self.feed_h5()
        self.start_h6()
        self.phase_counts()
        rows = self.check_metrics()
        self.series_report(rows)
        self.phase_limit()
        self.phase_restart()
        if self.canary:
            self.phase_canary()
        self.phase_stale()
        self.check_dashboard()
        self.phase_absent()
        self.phase_site_down()


def canary_available(binary):
    result = subprocess.run([binary, "daemon", "--help"], capture_output=True, text=True)
    return "--canary" in result.stdout + result.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--namespace-prefix", required=True)
    parser.add_argument("--repo", required=True)
    arguments = parser.parse_args()
    if os.environ.get("SYNCMON_FLEET_CANARY", "1") == "1" and not canary_available(arguments.binary):
        print("test-fleet: the canary step is on but `syncmon daemon --help` lists no --canary (SYNCMON_FLEET_CANARY=0 leaves it out)", file=sys.stderr)
        return 2
    fleet = Fleet(arguments)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(130))
    try:
        fleet.run()
    except Failure as failure:
        print(f"test-fleet: FAIL: {failure}", file=sys.stderr)
        for name in list(fleet.processes.running):
            print(f"--- {name}\n{fleet.processes.tail(name)}", file=sys.stderr)
        return 1
    finally:
        fleet.stopping.set()
        fleet.processes.stop_all()
    print(f"test-fleet: all checks passed in {time.monotonic() - fleet.started:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
