import SyncmonCore
import SyncmonDaemon

#if canImport(Glibc)
import Glibc
import SyncmonHost
#endif

/// The process-level figures: a real daemon, idle beside node_exporter, then fed over its
/// socket and scraped over HTTP; and a daemon with the sources of v1.2 configured, idle.
extension Benchmark {
    /// How long a freshly started process settles before its idle memory is read.
    static let settleMicroseconds: UInt32 = 2_000_000

    /// A real daemon: idle figures against node_exporter's, push ingest end to end, memory per
    /// pair, `/metrics` over HTTP.
    static func daemon(binary: String, events: Int) throws {
        // Side by side: node_exporter first, then the daemon, each read the same time after its start.
        let exporter = NodeExporterUnderTest.start()
        let daemon = try DaemonUnderTest(binary: binary, extraArguments: ["--max-engines", "20000"])
        let ready = Self.monotonicSeconds()
        let exporterMemory = exporter.map { $0.memory(afterSettling: Self.settleMicroseconds) }
        let settle = Double(Self.settleMicroseconds) / 1e6 - (Self.monotonicSeconds() - ready)
        if settle > 0 { usleep(UInt32(settle * 1e6)) }
        Self.printMemory(DaemonUnderTest.memory(of: daemon.pid), beside: exporterMemory, when: "idle")
        let scraped = try Self.memoryAfterScrape(of: daemon, beside: exporter)
        exporter?.stop()
        Self.idleCPU(of: daemon, label: "daemon CPU, idle")
        // One connection, as one busy engine host writes; then four, each with its own engines.
        let live = WallClock.now()
        let single = SyntheticTraffic(engines: 200, start: live, spacing: TimeSpan(microseconds: 1)).lines(count: events)
        try Self.pushIngest(into: daemon, label: "push ingest, 1 connection", chunks: [single], target: 3_000_000)
        let perConnection = events / 4
        let chunks = (0..<4).map {
            SyntheticTraffic(engines: 50, firstEngine: 200 + $0 * 50, start: WallClock.now(), spacing: TimeSpan(microseconds: 1)).lines(count: perConnection)
        }
        try Self.pushIngest(into: daemon, label: "push ingest, 4 connections", chunks: chunks, target: 4_000_000)
        let pairs = try Self.scrapes(of: daemon, from: 800, over: scraped)
        // Idle with 10,000 pairs: no events, no scrapes. What is left is time-driven work — the
        // evaluation service waking at the pairs' deadlines, the saver, the status line.
        usleep(2_000_000)
        Self.idleCPU(of: daemon, label: "daemon CPU, idle at \(Self.grouped(pairs)) pairs")
    }

    /// A daemon with a `unit:` source with a journal rules pack and a canary configured, idle:
    /// the new sources must cost nothing between their events and intervals. The unit is
    /// followed over a private bus when `dbus-daemon` is installed (no systemd answers on it,
    /// so the source waits and retries as it would for a unit that is not loaded yet).
    static func newSourcesIdle(binary: String) throws {
        let directory = "/tmp/syncmon-bench-sources-\(getpid())"
        mkdir(directory, 0o700)
        mkdir(directory + "/canary", 0o700)
        defer { _ = Self.run("/bin/rm", ["-rf", directory]) }
        var environment: [String] = []
        var bus: pid_t?
        if access("/usr/bin/dbus-daemon", X_OK) == 0 {
            let address = "unix:path=\(directory)/bus"
            bus = try? Self.spawn("/usr/bin/dbus-daemon", ["--session", "--nofork", "--nopidfile", "--address=\(address)"])
            environment.append("DBUS_SYSTEM_BUS_ADDRESS=\(address)")
            usleep(200_000)
        }
        defer {
            if let bus {
                kill(bus, SIGTERM)
                waitpid(bus, nil, 0)
            }
        }
        // Five routes, one of each kind of target and two commands: a route with nothing to
        // send must not wake the daemon.
        let configuration = directory + "/syncmon.conf"
        try Self.write(Array(Self.fiveRoutes(checkout: Self.currentDirectory).utf8), to: configuration)
        let daemon = try DaemonUnderTest(
            binary: binary,
            extraArguments: [
                "--config", configuration, "--subscribe", "docs=unit:syncmon-bench.service?rules=unison", "--canary", "bench/canary=\(directory)/canary",
            ],
            environment: environment, name: "sources")
        usleep(Self.settleMicroseconds)
        Self.idleCPU(of: daemon, label: "daemon CPU, idle, unit + rules + canary + 5 routes", target: 0.02)
    }

    /// Five notification routes: mail, a webhook, apprise's command (the copy in `checkout`:
    /// the benchmark runs from it) and two commands of their own.
    static func fiveRoutes(checkout: String) -> String {
        """
        [notify mail]
        mail-to = root@localhost
        [notify hook]
        webhook = http://127.0.0.1:9/syncmon
        [notify phone]
        command = \(checkout)/deploy/notify/syncmon-apprise json://127.0.0.1:9/
        [notify log]
        command = /bin/true
        [notify pager]
        command = /bin/true
        """
    }

    /// The working directory (`scripts/benchmark.sh` runs from the checkout).
    static var currentDirectory: String {
        guard let path = getcwd(nil, 0) else { return "." }
        defer { free(path) }
        return String(cString: path)
    }

    /// How long after a scrape memory is read: what an exporter holds between Prometheus's
    /// scrapes (15 s apart by default), once the scrape's own buffers have gone back.
    static let afterScrapeMicroseconds: UInt32 = 10_000_000

    /// One scrape of each, then both read 10 s later, side by side; returns the daemon's
    /// memory then, the base of the per-pair figure (a scraped daemon with no pairs).
    private static func memoryAfterScrape(of daemon: DaemonUnderTest, beside exporter: NodeExporterUnderTest?) throws -> Memory {
        let exporterScraped = exporter?.scrape() ?? false
        _ = try daemon.get("/metrics")
        usleep(Self.afterScrapeMicroseconds)
        let memory = DaemonUnderTest.memory(of: daemon.pid)
        let exporterMemory = exporterScraped ? exporter.map { DaemonUnderTest.memory(of: $0.pid) } : nil
        Self.printMemory(memory, beside: exporterMemory, when: "10 s after a scrape")
        return memory
    }

    /// CPU the daemon uses in a quiet window, per minute.
    static func idleCPU(of daemon: DaemonUnderTest, label: String, target: Double = 0.1) {
        let window = 15.0
        let before = daemon.threadCPUNanoseconds
        usleep(UInt32(window * 1_000_000))
        let perMinute = daemon.cpuSeconds(since: before) * 60 / window
        print(Self.row(label, "\(Self.fixed(perMinute, 3)) s per minute", "≤ \(target) s per minute", perMinute <= target))
    }

    /// Push ingest: `chunks` written at once, one connection each; the time until the daemon
    /// counted every line.
    private static func pushIngest(into daemon: DaemonUnderTest, label: String, chunks: [[UInt8]], target: Double?) throws {
        let before = try daemon.metric("syncmon_events_received_total{transport=\"push\"}") ?? 0
        let total = before + Double(chunks.reduce(0) { $0 + $1.count(where: { $0 == 10 }) })
        let started = Self.monotonicSeconds()
        daemon.send(chunks)
        var received = before
        while received < total, Self.monotonicSeconds() - started < 60 {
            received = try daemon.metric("syncmon_events_received_total{transport=\"push\"}") ?? 0
            // Each poll renders /metrics in the daemon: poll gently so as not to slow ingest.
            if received < total { usleep(20_000) }
        }
        let elapsed = Self.monotonicSeconds() - started
        let rate = (received - before) / elapsed
        let complete = received >= total
        print(
            Self.row(
                label, "\(Self.grouped(rate)) events/s (\(Self.grouped(received - before)) in \(Self.fixed(elapsed, 2)) s)",
                target.map { "≥ \(Self.grouped($0)) events/s" } ?? "(no target)", target.map { rate >= $0 && complete } ?? (complete ? nil : false)))
    }

    /// Memory per pair and `/metrics` over HTTP, at about 1,400 and then 10,000 pairs, from
    /// `base` pairs; memory per pair is counted over `empty`, the scraped daemon before any
    /// pair. Returns the pairs the daemon tracks at the end.
    private static func scrapes(of daemon: DaemonUnderTest, from base: Int, over empty: Memory) throws -> Double {
        var pairs = base
        for target in [1400, 10_000] {
            let engines = (target - pairs) / 2
            let chunk = SyntheticTraffic(engines: engines, firstEngine: 1000 + pairs / 2, start: WallClock.now(), spacing: TimeSpan(microseconds: 1))
                .lines(count: engines * 2 * 12)
            daemon.send([chunk])
            // Polled every 100 ms, not faster: each poll is a full render (tens of megabytes
            // near 10,000 pairs), and renders every few milliseconds while the pairs grow — far
            // more than any Prometheus scrapes — leave the allocator holding more memory, which
            // this figure would count as per-pair cost.
            while (try daemon.metric("syncmon_tracked_engines") ?? 0) < Double(target) { usleep(100_000) }
            pairs = target
            if target == 1400 {
                // The outside check's figure: the median of 30.
                let plain = try Self.timedGets(daemon, tries: 30, acceptEncoding: nil)
                print(
                    Self.row(
                        "GET /metrics, 1,400 pairs (median of 30)",
                        "\(Self.fixed(plain.median * 1000, 1)) ms, \(Self.grouped(Double(plain.size) / 1024)) KiB", "≤ 8 ms", plain.median * 1000 <= 8))
            } else {
                let plain = try Self.timedGets(daemon, tries: 5, acceptEncoding: nil)
                print(
                    Self.row(
                        "GET /metrics, 10,000 pairs (best of 5)", "\(Self.fixed(plain.best * 1000, 1)) ms, \(Self.grouped(Double(plain.size) / 1024)) KiB",
                        "≤ 200 ms", plain.best * 1000 <= 200))
            }
            // What Prometheus does: it always asks for gzip. No target; for the record.
            let gzip = try Self.timedGets(daemon, tries: 3, acceptEncoding: "gzip")
            print(
                Self.row(
                    "GET /metrics gzip, \(Self.grouped(Double(pairs))) pairs",
                    "\(Self.fixed(gzip.best * 1000, 1)) ms, \(Self.grouped(Double(gzip.size) / 1024)) KiB", "(no target)", nil))
        }
        // Read once the last scrape's buffers have gone back, as the empty daemon was.
        usleep(Self.afterScrapeMicroseconds)
        Self.printPerPair(DaemonUnderTest.memory(of: daemon.pid), over: empty, pairs: pairs)
        return Double(pairs)
    }

    /// Memory per pair over a scraped empty daemon: the target on anonymous memory (what the
    /// pairs really cost); RSS for the record (it also counts code that the traffic faulted in).
    private static func printPerPair(_ full: Memory, over empty: Memory, pairs: Int) {
        let figures: [(String, KeyPath<Memory, Double>, Bool)] = [("anonymous", \.anonymous, true), ("RSS", \.resident, false)]
        for (name, figure, isTarget) in figures {
            let perPair = (full[keyPath: figure] - empty[keyPath: figure]) / Double(pairs)
            let measured =
                "\(Self.fixed(perPair / 1024, 2)) KiB (\(Self.mebibytes(empty[keyPath: figure])) → \(Self.mebibytes(full[keyPath: figure])) at \(Self.grouped(Double(pairs))))"
            print(
                Self.row(
                    "daemon \(name) per pair", measured, isTarget ? "≤ 2 KiB" : "(for the record)", isTarget ? perPair <= 2 * 1024 : nil))
        }
    }

    /// `tries` GETs of `/metrics`: the fastest, the median, and the body's size.
    private static func timedGets(_ daemon: DaemonUnderTest, tries: Int, acceptEncoding: String?) throws -> (best: Double, median: Double, size: Int) {
        var times: [Double] = []
        var size = 0
        for _ in 0..<tries {
            let began = Self.monotonicSeconds()
            size = try daemon.bodySize("/metrics", acceptEncoding: acceptEncoding)
            times.append(Self.monotonicSeconds() - began)
        }
        times.sort()
        return (times[0], times[times.count / 2], size)
    }

    /// The daemon's memory beside node_exporter's, read at the same moment: the targets are on
    /// anonymous memory, what each process holds itself, and PSS, which shares out the pages
    /// of code the process maps with others; RSS counts every resident page of code the
    /// kernel can take back, so it is printed for the record (docs/performance.md).
    static func printMemory(_ daemon: Memory, beside exporter: Memory?, when moment: String) {
        let figures: [(String, KeyPath<Memory, Double>, Bool)] = [
            ("anonymous", \.anonymous, true), ("PSS", \.proportional, true), ("RSS", \.resident, false),
        ]
        for (name, figure, isTarget) in figures {
            let value = daemon[keyPath: figure]
            let target = isTarget ? "≤ node_exporter's" : "(for the record)"
            guard let exporter else {
                print(Self.row("daemon \(name), \(moment)", "\(Self.mebibytes(value)) (node_exporter not installed)", target, isTarget ? false : nil))
                continue
            }
            let other = exporter[keyPath: figure]
            // In KiB when both round to the same tenth of a MiB: "2.4 MiB (node_exporter 2.4
            // MiB) MISSED" left the reader to guess which was larger.
            let tied = Self.mebibytes(value) == Self.mebibytes(other)
            let spell = tied ? Self.kibibytes : Self.mebibytes
            let compared = "\(spell(value)) (node_exporter \(spell(other)))"
            print(Self.row("daemon \(name), \(moment)", compared, target, isTarget ? value <= other : nil))
        }
    }

    static func mebibytes(_ bytes: Double) -> String {
        "\(Self.fixed(bytes / 1_048_576, 1)) MiB"
    }

    static func kibibytes(_ bytes: Double) -> String {
        "\(Self.grouped(bytes / 1024)) KiB"
    }
}
