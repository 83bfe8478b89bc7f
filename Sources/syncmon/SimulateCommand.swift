import ArgumentParser
import Logging
import Synchronization
import SyncmonClient
import SyncmonCore
import SyncmonHost
import SyncmonSimulation
import SyncmonSockets

#if canImport(Glibc)
import Glibc
#endif

/// `syncmon simulate`: a fleet of simulated engines, built on the client library — the demo to
/// run next to the daemon, and a load generator.
struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run a fleet of simulated sync engines against the daemon (or to standard output).",
        discussion: """
            Each simulated engine reports through the SyncmonClient library, exactly as a Swift \
            engine would: one connection per engine to the push socket, engineStarted with \
            heartbeats, its fetch and send cycles, and engineStopped when the simulation ends \
            (Ctrl-C or --duration). Engines are named <prefix>-<scenario>-<index>.

            Scenarios (the default mix repeats every 20 engines: one of each \
            troubled kind, the rest healthy; --scenario picks others):
              healthy         fetch/send cycles, realistic batches and pending
                              counts, rare conflicts       -> succeeded
              flaky-network   network lost every 1-3 min, transient
                              networkFailure errors        -> no_network, retrying
              rate-limited    after ~1 min requestRateLimited with retryAfter
                              30-120 s, for 10-20 min      -> throttled
              quota-exceeded  saves fail with quotaExceeded -> error
              hung-fetch      after ~30 s a fetch hangs for 20-30 min,
                              heartbeats go on             -> stalled (no_progress)
              crash           dies after 2-3 min (or half of --duration)
                              without engineStopped        -> engine_down

            The daemon reports no_progress after 5 minutes by default; for a quicker demo start \
            it with --no-progress-after 1m.

            With --stdout the NDJSON stream goes to standard output instead, with explicit \
            times, a seq per engine, and heartbeats as lines (a crashed engine just goes quiet): \
            pipe it to 'syncmon replay -', save it as a fixture, or serve it for --subscribe. \
            Lines come in real time unless --speedup generates them at once (needs --duration).

            Examples:
              syncmon simulate
              syncmon simulate --engines 100 --rate 2000 --scenario healthy
              syncmon simulate --stdout --duration 1h --speedup | syncmon replay -

            The daemon accepts 256 push connections by default: keep --engines below that.
            """
    )

    @Option(help: "How many engines.")
    var engines = 20

    @Option(help: "Events per second for the whole fleet (approximate).")
    var rate = 50.0

    @Option(help: "Stop after this long (e.g. 60s, 10m, 1h); default: until interrupted.")
    var duration: DurationArgument?

    @Option(help: "Seed for the random choices; the same seed gives the same fleet and stream. Default: random.")
    var seed: UInt64?

    @Option(
        name: .customLong("scenario"),
        help: "Only these scenarios, assigned in turn (repeatable): \(SimulationScenario.allCases.map(\.rawValue).joined(separator: ", ")).")
    var scenarios: [ScenarioArgument] = []

    @Option(help: "Engine name prefix.")
    var prefix = "sim"

    @Option(help: "The heartbeat interval the engines promise.")
    var heartbeat = DurationArgument(.seconds(30 as Int64))

    @Option(name: .customLong("events-socket"), help: "The daemon's push socket (default: $SYNCMON_EVENTS_SOCKET, else the daemon's default).")
    var eventsSocket: String?

    @Flag(help: "Write the NDJSON stream to standard output instead of sending it to the daemon.")
    var stdout = false

    @Flag(help: "With --stdout: generate the whole --duration at once instead of in real time.")
    var speedup = false

    @Option(help: "With --stdout: the time of the stream's start (RFC 3339); default: now.")
    var start: String?

    /// A scenario name on the command line.
    struct ScenarioArgument: ExpressibleByArgument, Sendable {
        var scenario: SimulationScenario

        init?(argument: String) {
            guard let scenario = SimulationScenario(rawValue: argument) else { return nil }
            self.scenario = scenario
        }
    }

    func validate() throws {
        guard (1...10_000).contains(self.engines) else { throw ValidationError("--engines must be 1-10000") }
        guard self.rate > 0, self.rate.isFinite else { throw ValidationError("--rate must be above 0") }
        guard self.heartbeat.span > .zero else { throw ValidationError("--heartbeat must be above 0") }
        if let duration, duration.span <= .zero { throw ValidationError("--duration must be above 0") }
        guard EngineName.parse(self.prefix) != nil else {
            throw ValidationError("--prefix must be characters of [A-Za-z0-9._-]")
        }
        if self.stdout {
            if self.eventsSocket != nil { throw ValidationError("--events-socket and --stdout exclude each other") }
            if self.speedup, self.duration == nil { throw ValidationError("--speedup needs --duration (the stream would never end)") }
            if let start, RFC3339.parse(start) == nil { throw ValidationError("--start must be an RFC 3339 time, e.g. 2026-11-21T12:00:00Z") }
        } else {
            if self.speedup { throw ValidationError("--speedup only applies with --stdout (a daemon takes events in real time)") }
            if self.start != nil { throw ValidationError("--start only applies with --stdout") }
        }
    }

    func run() async throws {
        let seed = self.seed ?? UInt64.random(in: 0...UInt64(UInt32.max))
        let start = self.start.flatMap { RFC3339.parse($0) } ?? WallClock.now()
        let options = FleetSimulation.Options(
            engines: self.engines, rate: self.rate, seed: seed, start: start, duration: self.duration?.span,
            heartbeatInterval: self.heartbeat.span, scenarios: self.scenarios.map(\.scenario), prefix: self.prefix,
            yieldsHeartbeats: self.stdout
        )
        let fleet = FleetSimulation(options: options)
        SimulationSignals.install()
        if self.stdout {
            try self.runStream(fleet)
        } else {
            await self.runLive(fleet, seed: seed)
        }
    }

    // MARK: Live: one SyncmonClient per engine

    private func runLive(_ fleet: FleetSimulation, seed: UInt64) async {
        var fleet = fleet
        let socket = self.eventsSocket ?? SyncmonClient.Configuration.defaultSocketPath()
        var logger = Logger(label: "syncmon.simulate")
        // The fleet's own progress lines say what matters; per-client chatter would drown them.
        logger.logLevel = .error
        let configuration = SyncmonClient.Configuration(
            socketPath: socket,
            heartbeatInterval: .microseconds(self.heartbeat.span.microseconds),
            maximumReconnectDelay: .seconds(5),
            version: "syncmon-simulate \(SyncmonVersion.version)"
        )
        let clients = fleet.engines.map { SyncmonClient(engine: $0.name, configuration: configuration, logger: logger) }
        printError(self.banner(fleet, seed: seed, destination: socket))
        if !SimulationClock.canConnect(to: socket) {
            printError("simulate: cannot reach the daemon at \(socket) (is 'syncmon daemon' running?); events are queued and sent once it is")
        }

        var tasks = [Task<Void, Never>?](repeating: nil, count: clients.count)
        var crashed = 0
        let origin = ContinuousClock.now
        let end = self.duration.map { origin + .microseconds($0.span.microseconds) }
        var nextProgress = origin + .seconds(10)
        while !SimulationSignals.stopRequested {
            let now = ContinuousClock.now
            if let end, now >= end { break }
            if now >= nextProgress {
                printError(Self.progress(clients, crashed: crashed, elapsed: origin.duration(to: now)))
                nextProgress = now + .seconds(10)
            }
            let virtualNow = fleet.options.start.adding(TimeSpan(microseconds: Self.microseconds(origin.duration(to: now))))
            guard let due = fleet.nextTime, due <= virtualNow else {
                // Sleep until the next step, but wake often enough to notice Ctrl-C.
                let wait = fleet.nextTime.map { Duration.microseconds($0.since(virtualNow).microseconds) } ?? .milliseconds(100)
                try? await Task.sleep(for: min(max(wait, .milliseconds(1)), .milliseconds(100)))
                continue
            }
            guard let step = fleet.next() else { continue }
            let client = clients[step.engine]
            switch step.action {
            case .start:
                tasks[step.engine] = Task { try? await client.run() }
            case .event(let event):
                client.send(event)
            case .heartbeat:
                break
            case .crash:
                // Cancelling run() drops the connection without engineStopped, as a crash would.
                tasks[step.engine]?.cancel()
                tasks[step.engine] = nil
                crashed += 1
                printError("simulate: \(client.engine) crashed (no engineStopped, connection dropped)")
            }
        }

        printError("simulate: stopping: delivering what is queued and sending engineStopped")
        for (index, task) in tasks.enumerated() where task != nil { clients[index].finish() }
        for task in tasks { await task?.value }
        printError(Self.progress(clients, crashed: crashed, elapsed: origin.duration(to: .now)))
    }

    private func banner(_ fleet: FleetSimulation, seed: UInt64, destination: String) -> String {
        var lines = [
            "simulate: \(fleet.engines.count) engines, ~\(Self.format(self.rate)) events/s, seed \(seed), "
                + (self.duration.map { "for \(DurationParser.format($0.span))" } ?? "until interrupted") + ", to \(destination)"
        ]
        var seen = Set<SimulationScenario>()
        for engine in fleet.engines where engine.scenario != .healthy || !seen.contains(.healthy) {
            seen.insert(engine.scenario)
            let healthyCount = fleet.engines.filter { $0.scenario == .healthy }.count
            let name = engine.scenario == .healthy && healthyCount > 1 ? "\(engine.name) (+\(healthyCount - 1) more)" : engine.name
            lines.append("  \(name.padding(toLength: 34))\(engine.scenario.rawValue.padding(toLength: 16))\(engine.scenario.expectation)")
        }
        return lines.joined(separator: "\n")
    }

    private static func progress(_ clients: [SyncmonClient], crashed: Int, elapsed: Duration) -> String {
        let statistics = clients.map(\.statistics)
        let sent = statistics.reduce(0) { $0 + $1.sent }
        let dropped = statistics.reduce(0) { $0 + $1.dropped }
        let queued = statistics.reduce(0) { $0 + $1.queued }
        let connected = statistics.filter(\.connected).count
        return "simulate: \(Int(elapsed.components.seconds)) s: \(sent) events sent, \(queued) queued, \(dropped) dropped, "
            + "\(connected)/\(clients.count - crashed) engines connected" + (crashed > 0 ? ", \(crashed) crashed" : "")
    }

    // MARK: Stream: NDJSON on standard output

    private func runStream(_ fleet: FleetSimulation) throws {
        var fleet = fleet
        var renderer = StreamRenderer(fleet: fleet)
        var output = StandardOutput()
        let origin = ContinuousClock.now
        while !SimulationSignals.stopRequested {
            if !self.speedup, let due = fleet.nextTime {
                // Real time: wait for the step's moment (flushing first, so readers see lines live).
                let elapsed = TimeSpan(microseconds: Self.microseconds(origin.duration(to: .now)))
                let wait = due.since(fleet.options.start.adding(elapsed))
                if wait > .zero {
                    try output.flush()
                    usleep(UInt32(min(wait.microseconds, 100_000)))
                    continue
                }
            }
            guard let step = fleet.next() else { break }
            for line in renderer.lines(for: step) { try output.append(line) }
        }
        try output.flush()
    }

    // MARK: Helpers

    private static func microseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int64(value)) : String(value)
    }
}

/// Buffered writes to standard output; a closed pipe ends the command quietly.
private struct StandardOutput {
    /// Bytes not yet written.
    private var buffer: [UInt8] = []

    mutating func append(_ line: String) throws {
        self.buffer.append(contentsOf: line.utf8)
        self.buffer.append(UInt8(ascii: "\n"))
        if self.buffer.count >= 1 << 16 { try self.flush() }
    }

    mutating func flush() throws {
        var offset = 0
        while offset < self.buffer.count {
            let written = self.buffer.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                // The reader went away (`| head`): nothing more to do.
                if errno == EPIPE { throw ExitCode.success }
                throw ExitCode(1)
            }
            offset += written
        }
        self.buffer.removeAll(keepingCapacity: true)
    }
}

/// Ctrl-C and SIGTERM end the simulation gracefully.
private enum SimulationSignals {
    static var stopRequested: Bool { stopFlag.load(ordering: .relaxed) }

    static func install() {
        for signal in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in stopFlag.store(true, ordering: .relaxed) }
            action.sa_flags = SA_RESTART
            sigaction(signal, &action, nil)
        }
        // A closed pipe is an EPIPE from write(2), handled there, not a fatal signal.
        Glibc.signal(SIGPIPE, SIG_IGN)
    }
}

/// Set by the signal handler, read by the simulation loop.
private let stopFlag = Atomic<Bool>(false)

/// Reachability of the push socket, for the simulation.
private enum SimulationClock {
    /// Whether a connection to the push socket succeeds now (for a clear message up front).
    static func canConnect(to path: String) -> Bool {
        guard let connection = try? BlockingSocket.connect(to: .unix(path: path)) else { return false }
        connection.close()
        return true
    }
}

extension String {
    /// The string padded with spaces to `length` characters (at least one space follows).
    fileprivate func padding(toLength length: Int) -> String {
        self.count >= length ? self + " " : self + String(repeating: " ", count: length - self.count)
    }
}
