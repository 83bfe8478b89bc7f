import Dispatch
import Synchronization
import SyncmonCore
import SyncmonDaemon
import SyncmonExposition
import SyncmonHost
import SyncmonSockets

#if canImport(Glibc)
import Glibc
#endif

/// `syncmon-bench`: the performance figures of docs/performance.md, printed as a table.
///
/// Run it from a release build (`scripts/benchmark.sh` does). In process: decode + apply on one
/// core, and `/metrics` rendering at 10, 1,000 and 10,000 pairs. As processes: `syncmon replay`
/// of a generated 1,000,000-line file, and a real daemon fed over its socket (ingest rate,
/// resident memory idle and per pair, idle CPU), with Debian's node_exporter started beside it
/// for the idle memory figure.
@main
struct Benchmark {
    static func main() throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        // `--only SECTION` runs one section (decode, replay, render, daemon, latency, rules, page): handy
        // while profiling one figure.
        var only: String?
        if let index = arguments.firstIndex(of: "--only"), index + 1 < arguments.count {
            only = arguments[index + 1]
            arguments.removeSubrange(index...index + 1)
        }
        let events = arguments.count > 0 ? Int(arguments[0]) ?? 2_000_000 : 2_000_000
        let replayLines = arguments.count > 1 ? Int(arguments[1]) ?? 1_000_000 : 1_000_000
        let binary = Self.siblingBinary("syncmon")
        func selected(_ section: String) -> Bool { only == nil || only == section }
        print("syncmon benchmark (release build; 2 cores shared with everything else on this machine)")
        print(Self.header())
        if selected("decode") { try Self.decodeAndApply(events: events) }
        if selected("replay") { try Self.replay(binary: binary, lines: replayLines) }
        if selected("render") { Self.renderMetrics() }
        if selected("daemon") {
            try Self.daemon(binary: binary, events: replayLines)
            try Self.newSourcesIdle(binary: binary)
        }
        if selected("latency") { try Self.latencyWithRoutes(binary: binary) }
        if selected("rules") { try Self.rules(lines: 200_000) }
        if selected("page") { Self.renderPage() }
        if selected("notify") { Self.notificationRoutes() }
    }

    /// Decode + apply, best of three passes over the same lines (a warm steady state).
    ///
    /// Apply is the daemon's per-event path: the pair is looked at before and after each
    /// event for changes to report, as `MonitorStore` does.
    static func decodeAndApply(events: Int) throws {
        let buffer = SyntheticTraffic().lines(count: events)
        var best = Double.infinity
        var accepted: UInt64 = 0
        for _ in 0..<3 {
            var monitor = Monitor()
            var decoder = EventDecoder()
            var framer = LineFramer()
            var event = Event(engine: InlineName(), payload: .heartbeat)
            var changes: [StatusChange] = []
            let started = Self.monotonicSeconds()
            buffer.withUnsafeBytes { bytes in
                framer.feed(bytes) { line in
                    guard case .line(let text) = line, decoder.decode(text, into: &event) == .event else { return }
                    let time = event.time ?? Timestamp(seconds: 0)
                    monitor.apply(stored: &event, at: time, connection: nil, lookingAt: time, changes: &changes)
                }
            }
            best = min(best, Self.monotonicSeconds() - started)
            accepted = monitor.accepted
        }
        guard accepted == UInt64(events) else { throw BenchmarkError("benchmark traffic must be all valid (\(accepted) of \(events))") }
        let rate = Double(events) / best
        print(
            Self.row("decode + apply, 1 core (\(buffer.count / events) B lines)", "\(Self.grouped(rate)) events/s", "≥ 2,000,000 events/s", rate >= 2_000_000))

        // Allocations per event in steady state: one more pass over the same lines with every
        // pair already tracked, counted by the preloaded malloc counter.
        guard let counter = Self.allocationCounter() else {
            print(Self.row("heap allocations per event", "not counted (run through scripts/benchmark.sh)", "0 in steady state", false))
            return
        }
        var monitor = Monitor()
        var decoder = EventDecoder()
        var framer = LineFramer()
        var event = Event(engine: InlineName(), payload: .heartbeat)
        var changes: [StatusChange] = []
        changes.reserveCapacity(4096)
        let warmup = min(buffer.count, 1 << 20)
        let split = buffer[..<warmup].lastIndex(of: 10).map { $0 + 1 } ?? 0
        let apply = { (bytes: UnsafeRawBufferPointer) in
            framer.feed(bytes) { line in
                guard case .line(let text) = line, decoder.decode(text, into: &event) == .event else { return }
                let time = event.time ?? Timestamp(seconds: 0)
                monitor.apply(stored: &event, at: time, connection: nil, lookingAt: time, changes: &changes)
            }
        }
        buffer[..<split].withUnsafeBytes { apply($0) }
        let before = counter()
        buffer[split...].withUnsafeBytes { apply($0) }
        let allocations = counter() - before
        let counted = Int(monitor.accepted) - buffer[..<split].filter { $0 == 10 }.count
        let perEvent = Double(allocations) / Double(max(counted, 1))
        print(
            Self.row(
                "heap allocations per event (steady state)", "\(Self.fixed(perEvent, 4)) (\(allocations) in \(Self.grouped(Double(counted))) events)", "0",
                allocations == 0))
    }

    /// `syncmon replay` of a generated file, as a whole process, and the same file through mtail
    /// (the established "log lines to metrics" daemon) counting events per engine and type.
    static func replay(binary: String, lines: Int) throws {
        let path = "/tmp/syncmon-bench-\(getpid()).jsonl"
        try Self.write(SyntheticTraffic().lines(count: lines), to: path)
        defer { unlink(path) }
        // A recording at rest, as one replayed after the fact is: written back to disk first,
        // so the kernel's writeback of 160 MB does not run during the timed runs (it made them
        // 0.3-0.4 s slower and noisy).
        sync()
        var best = Double.infinity
        var status: Int32 = 0
        for _ in 0..<3 {
            let started = Self.monotonicSeconds()
            status = Self.run(binary, ["replay", path, "--json"])
            best = min(best, Self.monotonicSeconds() - started)
        }
        guard status == 0 else { throw BenchmarkError("syncmon replay exited \(status)") }
        print(
            Self.row(
                "syncmon replay, \(Self.grouped(Double(lines))) lines", "\(Self.fixed(best, 3)) s (\(Self.grouped(Double(lines) / best)) lines/s)",
                "(against mtail)",
                nil))

        guard access("/usr/bin/mtail", X_OK) == 0 else {
            print(Self.row("mtail, same file", "not installed (apt-get install mtail)", "replay ≥ 100× faster", false))
            return
        }
        let programs = "/tmp/syncmon-bench-mtail-\(getpid())"
        mkdir(programs, 0o700)
        defer { _ = Self.run("/bin/rm", ["-rf", programs]) }
        // The same work in mtail's terms: one counter per engine and event type.
        let program = #"""
            counter syncmon_events_total by engine, type
            /"engine":"(?P<engine>[^"]+)".*"type":"(?P<type>[^"]+)"/ {
              syncmon_events_total[$engine][$type]++
            }

            """#
        try Self.write(Array(program.utf8), to: programs + "/syncmon.mtail")
        let started = Self.monotonicSeconds()
        let mtailStatus = Self.run("/usr/bin/mtail", ["--one_shot", "--one_shot_format=prometheus", "--progs", programs, "--logs", path, "--logtostderr"])
        let mtail = Self.monotonicSeconds() - started
        let ratio = mtail / best
        print(
            Self.row(
                "mtail --one_shot, same file", "\(Self.fixed(mtail, 3)) s (exit \(mtailStatus)); replay is \(Self.fixed(ratio, 1))× faster",
                "replay ≥ 100× faster", ratio >= 100 && mtailStatus == 0))
    }

    /// Event-to-status latency: while a background sender keeps 10,000 events/s flowing, a
    /// probe engine's pending count is set to a fresh value and `/api/v1/status` is polled
    /// until it shows it.
    static func latency(binary: String, extraArguments: [String] = [], name: String = "daemon") throws -> (p50: Double, p99: Double) {
        let daemon = try DaemonUnderTest(binary: binary, extraArguments: extraArguments, name: name)
        // Live traffic: event times run with the wall clock at the sending rate, as a real
        // engine's would (old times would make every pair look stalled and flood the log).
        let load = SyntheticTraffic(engines: 100, start: WallClock.now(), spacing: TimeSpan(microseconds: 100)).lines(count: 600_000)
        let stop = StopFlag()
        let background = DispatchGroup()
        DispatchQueue.global().async(group: background) { daemon.sendPaced(load, eventsPerSecond: 10_000, until: stop) }
        defer {
            stop.set()
            background.wait()
        }
        usleep(500_000)
        let probe = try daemon.connect()
        defer { probe.close() }
        // One kept-alive connection for all polls, as a monitoring client would keep.
        let poller = try BlockingHTTPClient.Connection(port: daemon.port)
        var samples: [Double] = []
        for value in 1...1000 {
            let line = #"{"v":1,"engine":"latency-probe","type":"stateUpdate","pendingRecordZoneChanges":\#(value),"pendingDatabaseChanges":0}"# + "\n"
            // The status document is pretty-printed with sorted keys: recordZone ends `pending`.
            let marker = Array("\"recordZone\" : \(value)\n".utf8)
            let started = Self.monotonicSeconds()
            try probe.send(line)
            var polls = 0
            var slowestGet = 0.0
            while true {
                let getStarted = Self.monotonicSeconds()
                let body = try poller.get("/api/v1/status?engine=latency-probe").body
                slowestGet = max(slowestGet, Self.monotonicSeconds() - getStarted)
                polls += 1
                if Self.find(marker, in: body) != nil { break }
                if Self.monotonicSeconds() - started > 2 { throw BenchmarkError("probe \(value) never showed up") }
                // Poll every 0.2 ms rather than spinning: a spinning poller would take one of
                // the two cores from the daemon it measures.
                usleep(200)
            }
            let elapsed = Self.monotonicSeconds() - started
            if BenchmarkDiagnostics.verbose, elapsed > 0.002 {
                print(
                    "  slow probe \(value): \(Self.fixed(elapsed * 1000, 2)) ms, \(polls) polls, slowest GET \(Self.fixed(slowestGet * 1000, 2)) ms, wall \(Self.fixed(Self.wallSeconds().truncatingRemainder(dividingBy: 1), 3))"
                )
            }
            samples.append(elapsed)
            // A random gap, so probes fall at every phase of the sender's 10 ms slices
            // rather than beating with them.
            usleep(UInt32.random(in: 2000..<6000))
        }
        samples.sort()
        return (samples[samples.count / 2] * 1000, samples[samples.count * 99 / 100] * 1000)
    }

    /// `/metrics` rendering in process at several sizes, best of five.
    static func renderMetrics() {
        let renderer = MetricsRenderer(version: "bench", revision: "bench")
        for (pairs, target) in [(10, 20.0), (1000, 20.0), (10_000, 20.0)] {
            var monitor = Monitor(configuration: MonitorConfiguration(maximumPairs: pairs))
            let traffic = SyntheticTraffic(engines: pairs / 2).lines(count: pairs * 24)
            var decoder = EventDecoder()
            var framer = LineFramer()
            var event = Event(engine: InlineName(), payload: .heartbeat)
            traffic.withUnsafeBytes { bytes in
                framer.feed(bytes) { line in
                    guard case .line(let text) = line, decoder.decode(text, into: &event) == .event else { return }
                    monitor.apply(event, at: event.time ?? Timestamp(seconds: 0))
                }
            }
            var best = Double.infinity
            var size = 0
            for _ in 0..<5 {
                // The daemon's path: streamed in 256 KiB pieces (here counted and dropped).
                let written = Atomic<Int>(0)
                let started = Self.monotonicSeconds()
                let pieces = ExpositionPieceBuffer {
                    written.wrappingAdd($0.count, ordering: .relaxed)
                }
                renderer.stream(
                    monitor: monitor, received: [0, 0], process: ProcessMetrics(), format: .prometheusText, now: Timestamp(seconds: 1_795_000_100),
                    into: pieces)
                best = min(best, Self.monotonicSeconds() - started)
                size = written.load(ordering: .relaxed)
            }
            let milliseconds = best * 1000
            print(
                Self.row(
                    "/metrics render, \(Self.grouped(Double(monitor.pairs.count))) pairs",
                    "\(Self.fixed(milliseconds, 2)) ms, \(Self.grouped(Double(size) / 1024)) KiB", "≤ \(Int(target)) ms", milliseconds <= target))
            if pairs == 10_000 {
                Self.printPairMemory(monitor)
                Self.printStateSave(monitor)
            }
        }
    }

    /// The preloaded malloc counter's reader, when scripts/benchmark.sh preloaded it.
    static func allocationCounter() -> (() -> UInt)? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syncmon_bench_allocations") else { return nil }
        let function = unsafeBitCast(symbol, to: (@convention(c) () -> UInt).self)
        return { function() }
    }

    // MARK: - Output

    static func header() -> String {
        Self.pad("figure", 44) + Self.pad("measured", 48) + Self.pad("target", 22) + "verdict"
    }

    /// One table row; `met` is nil for a figure printed for the record, with no target.
    static func row(_ name: String, _ value: String, _ target: String, _ met: Bool?) -> String {
        Self.pad(name, 44) + Self.pad(value, 48) + Self.pad(target, 22) + (met.map { $0 ? "met" : "MISSED" } ?? "-")
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - text.count))
    }

    static func grouped(_ value: Double) -> String {
        var digits = String(Int(value.rounded()))
        var out = ""
        while digits.count > 3 {
            out = "," + digits.suffix(3) + out
            digits.removeLast(3)
        }
        return digits + out
    }

    static func fixed(_ value: Double, _ digits: Int) -> String {
        // A negative figure (a difference) as its magnitude with a sign: its remainder would be
        // negative too.
        guard value >= 0 else { return "-" + Self.fixed(-value, digits) }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let fraction = String(scaled % Int(scale))
        return "\(scaled / Int(scale))." + String(repeating: "0", count: digits - fraction.count) + fraction
    }

    // MARK: - Process and file helpers

    static func wallSeconds() -> Double {
        Double(WallClock.now().microseconds) / 1e6
    }

    static func monotonicSeconds() -> Double {
        Double(MonotonicClock.now().microseconds) / 1e6
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw BenchmarkError("cannot create \(path)") }
        defer { close(descriptor) }
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                guard written > 0 else { throw BenchmarkError("cannot write \(path)") }
                offset += written
            }
        }
    }

    static func readFile(_ path: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw BenchmarkError("cannot open \(path)") }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { return bytes }
            bytes += buffer[0..<count]
        }
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where haystack[index..<(index + needle.count)].elementsEqual(needle) {
            return index
        }
        return nil
    }

    /// The path of another product of the same build (`.build/release/syncmon`).
    static func siblingBinary(_ name: String) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let own = length > 0 ? String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
        return String(own[..<(own.lastIndex(of: "/") ?? own.startIndex)]) + "/" + name
    }

    /// Starts a program with stdout and stderr sent to `output`; returns its pid.
    static func spawn(_ path: String, _ arguments: [String], output: String = "/dev/null", environment extra: [String] = []) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // The malloc counter is for this process only: daemons and replays run as they would in
        // production, without it.
        var environment: [UnsafeMutablePointer<CChar>?] = []
        var entry = environ
        while let variable = entry.pointee {
            if strncmp(variable, "LD_PRELOAD=", 11) != 0 { environment.append(strdup(variable)) }
            entry += 1
        }
        environment += extra.map { strdup($0) }
        environment.append(nil)
        defer { environment.forEach { free($0) } }
        var pid = pid_t()
        guard posix_spawn(&pid, path, &actions, nil, argv, environment) == 0 else { throw BenchmarkError("cannot start \(path)") }
        return pid
    }

    /// Runs a program to completion with its output discarded; returns its exit status.
    static func run(_ path: String, _ arguments: [String]) -> Int32 {
        guard let pid = try? Self.spawn(path, arguments) else { return -1 }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return (status >> 8) & 0xFF
    }
}

/// Tells a background sender to stop.
final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    func set() { self.flag.store(true, ordering: .relaxed) }
    var isSet: Bool { self.flag.load(ordering: .relaxed) }
}

/// A benchmark setup step failed.
struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Diagnostics for profiling runs: `SYNCMON_BENCH_VERBOSE=1` prints each slow latency probe.
enum BenchmarkDiagnostics {
    static let verbose = getenv("SYNCMON_BENCH_VERBOSE") != nil
}
