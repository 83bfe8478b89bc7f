import Foundation
import SyncmonClient
import SyncmonCore
import SyncmonTestSupport
import Testing

/// The connection task against a recording stand-in for the daemon: what goes on the wire, in
/// which order, across reconnects and stops.
@Suite("Client connection")
struct ClientConnectionTests {
    /// The `type` of each line.
    static func types(_ lines: [String]) -> [String] {
        lines.map { jsonObject($0)["type"] as? String ?? "?" }
    }

    static func fastConfiguration(_ path: String, heartbeat: Duration? = nil) -> SyncmonClient.Configuration {
        .init(
            socketPath: path, heartbeatInterval: heartbeat, minimumReconnectDelay: .milliseconds(20),
            maximumReconnectDelay: .milliseconds(100), shutdownTimeout: .seconds(3)
        )
    }

    @Test("engineStarted first, then the queue in order, heartbeats while idle, engineStopped last and a half-close")
    func greetingHeartbeatsAndStop() async throws {
        let directory = try TemporaryDirectory(prefix: "smc")
        let recorder = try LineRecorder(path: directory.path("events.sock"))
        let client = SyncmonClient(engine: "notes", configuration: Self.fastConfiguration(recorder.path, heartbeat: .milliseconds(100)), logger: quietLogger)
        // Reported before run(): queued, then delivered after engineStarted.
        client.willFetchChanges()
        client.fetchedRecordZoneChanges(zone: "Notes", modifications: 3, deletions: 0)
        client.didFetchChanges()
        let task = runInBackground(client)
        let beating = await Polling.until(timeout: .seconds(10)) { Self.types(recorder.allLines).filter { $0 == "heartbeat" }.count >= 2 }
        #expect(beating, "lines: \(recorder.allLines)")
        client.stateUpdate(pendingRecordZoneChanges: 0)
        client.finish()
        try await task.value

        let lines = try #require(recorder.connections.first)
        let types = Self.types(lines)
        #expect(types.first == "engineStarted")
        #expect(jsonObject(lines[0])["heartbeatSeconds"] as? Double == 0.1)
        #expect(Array(types[1...3]) == ["willFetchChanges", "fetchedRecordZoneChanges", "didFetchChanges"])
        #expect(types.last == "engineStopped")
        #expect(types.contains("stateUpdate"))
        #expect(recorder.clientClosed(0), "the client did not half-close before closing")
        #expect(lines.allSatisfy { decodedEvent($0) != nil })
        // Queued events carry seq; the lines the client writes by itself do not.
        #expect(lines.filter { jsonObject($0)["seq"] != nil }.count == 4)
        let statistics = client.statistics
        #expect(statistics.sent == 4 && statistics.queued == 0 && statistics.connections == 1 && !statistics.connected)
    }

    @Test("after the daemon goes away, events queue; on reconnect engineStarted and the last conditions come first, then the queue")
    func reconnect() async throws {
        let directory = try TemporaryDirectory(prefix: "smc")
        let path = directory.path("events.sock")
        let first = try LineRecorder(path: path)
        let client = SyncmonClient(engine: "notes", configuration: Self.fastConfiguration(path), logger: quietLogger)
        let task = runInBackground(client)
        defer { task.cancel() }
        client.accountStatus(.available)
        client.networkStatus(available: true)
        client.willFetchChanges()
        #expect(await Polling.until { client.statistics.sent == 3 })

        first.stop()
        #expect(await Polling.until { !client.statistics.connected })
        for index in 0..<50 { client.fetchedRecordZoneChanges(modifications: index, deletions: 0) }
        client.didFetchChanges()
        // Nobody listens: everything stays queued while the client retries.
        #expect(await Polling.holds(for: .milliseconds(300)) { client.statistics.queued == 51 })

        let second = try LineRecorder(path: path)
        #expect(await Polling.until { client.statistics.queued == 0 && client.statistics.connected })
        #expect(await Polling.until { second.allLines.count >= 54 })
        let lines = second.allLines
        #expect(Array(Self.types(lines).prefix(3)) == ["engineStarted", "accountStatus", "networkStatus"])
        #expect(jsonObject(lines[1])["status"] as? String == "available")
        #expect(jsonObject(lines[2])["available"] as? Bool == true)
        #expect(Self.types(lines).dropFirst(3).prefix(51) == ArraySlice(Array(repeating: "fetchedRecordZoneChanges", count: 50) + ["didFetchChanges"]))
        // The queued events' seq continues above everything the first connection carried.
        let before = first.allLines.compactMap { jsonObject($0)["seq"] as? Int64 }.max() ?? 0
        let after = lines.compactMap { jsonObject($0)["seq"] as? Int64 }
        #expect(after.count == 51 && after.allSatisfy { $0 > before })
        #expect(zip(after, after.dropFirst()).allSatisfy { $0 < $1 })
        let statistics = client.statistics
        #expect(statistics.reconnects == 1 && statistics.sent == 54 && statistics.dropped == 0)
    }

    @Test("cancelling run() closes at once, without engineStopped")
    func cancellation() async throws {
        let directory = try TemporaryDirectory(prefix: "smc")
        let recorder = try LineRecorder(path: directory.path("events.sock"))
        let client = SyncmonClient(engine: "crashy", configuration: Self.fastConfiguration(recorder.path, heartbeat: .seconds(30)), logger: quietLogger)
        let task = runInBackground(client)
        client.willSendChanges()
        #expect(await Polling.until { client.statistics.sent == 1 })
        task.cancel()
        try await task.value
        #expect(await Polling.until { recorder.connections.count == 1 && !client.statistics.connected })
        #expect(!Self.types(recorder.allLines).contains("engineStopped"))
    }

    @Test("a graceful stop with no daemon returns promptly, leaving the events queued")
    func stopWithoutDaemon() async throws {
        let directory = try TemporaryDirectory(prefix: "smc")
        // A long shutdown timeout: "promptly" means well before it, not a tight figure that a
        // busy 2-core CI machine could miss.
        var configuration = Self.fastConfiguration(directory.path("none.sock"))
        configuration.shutdownTimeout = .seconds(30)
        let client = SyncmonClient(engine: "alone", configuration: configuration, logger: quietLogger)
        let task = runTimed(client)
        client.willFetchChanges()
        #expect(await Polling.holds(for: .milliseconds(100)) { !client.statistics.connected })
        let stopped = ContinuousClock.now
        client.finish()
        let elapsed = try await task.value - stopped
        #expect(elapsed < .seconds(10), "\(elapsed)")
        #expect(client.statistics.queued == 1)
    }

    @Test("the shutdown timeout bounds a stop whose daemon never reads or closes")
    func shutdownTimeout() async throws {
        let directory = try TemporaryDirectory(prefix: "smc")
        let recorder = try LineRecorder(path: directory.path("events.sock"), closesOnEOF: false)
        defer { recorder.stop() }
        var configuration = Self.fastConfiguration(recorder.path)
        configuration.shutdownTimeout = .milliseconds(300)
        let client = SyncmonClient(engine: "slow", configuration: configuration, logger: quietLogger)
        let task = runTimed(client)
        #expect(await Polling.until { client.statistics.connected })
        // The recorder never closes its side after the client's half-close.
        let stopped = ContinuousClock.now
        client.finish()
        let elapsed = try await task.value - stopped
        #expect(elapsed >= .milliseconds(250) && elapsed < .seconds(10), "\(elapsed)")
        #expect(Self.types(recorder.allLines).last == "engineStopped")
    }

    @Test("a batch run opens with runStarted and ends with runEnded, on every connection")
    func batchRun() async throws {
        let directory = try TemporaryDirectory(prefix: "smc")
        let recorder = try LineRecorder(path: directory.path("events.sock"))
        var configuration = Self.fastConfiguration(recorder.path, heartbeat: .milliseconds(100))
        configuration.lifecycle = .batchRun
        configuration.version = "0.1.0"
        let client = SyncmonClient(engine: "nightly", configuration: configuration, logger: quietLogger)
        let task = runInBackground(client)
        let export = client.containerEventStarted(.export, id: "run-1")
        client.sentRecordZoneChanges(saved: 2, deleted: 0)
        #expect(await Polling.until(timeout: .seconds(10)) { Self.types(recorder.allLines).contains("heartbeat") })
        client.containerEventEnded(export)
        client.finish()
        try await task.value

        let lines = try #require(recorder.connections.first)
        let types = Self.types(lines)
        #expect(types.first == "runStarted")
        #expect(jsonObject(lines[0])["heartbeatSeconds"] as? Double == 0.1)
        #expect(jsonObject(lines[0])["version"] as? String == "0.1.0")
        #expect(types.last == "runEnded")
        #expect(!types.contains("engineStarted") && !types.contains("engineStopped"))
        #expect(Array(types.filter { $0 != "heartbeat" }) == ["runStarted", "containerEvent", "sentRecordZoneChanges", "containerEvent", "runEnded"])
        #expect(lines.allSatisfy { decodedEvent($0) != nil })
    }

    @Test("run() twice at once is refused")
    func alreadyRunning() async throws {
        let directory = try TemporaryDirectory(prefix: "smc")
        let recorder = try LineRecorder(path: directory.path("events.sock"))
        let client = SyncmonClient(engine: "twice", configuration: Self.fastConfiguration(recorder.path), logger: quietLogger)
        let task = runInBackground(client)
        defer { task.cancel() }
        // Connected means the first run() is under way: no guessing how long a task takes to start.
        #expect(await Polling.until { client.statistics.connected })
        await #expect(throws: SyncmonClientError.alreadyRunning) { try await client.run() }
    }
}
