import Foundation
import SyncmonClient
import SyncmonCore
import SyncmonSimulation
import SyncmonTestSupport
import Testing

/// The caller's side: typed methods, the bounded queue, drops, `seq`.
@Suite("Client queue")
struct ClientQueueTests {
    /// A socket path where no daemon listens.
    static let nowhere = "/tmp/syncmon-client-tests-nobody-listens.sock"

    @Test("each typed method queues the line for its event type, accepted by the daemon's decoder")
    func typedMethods() throws {
        let client = SyncmonClient(engine: "notes", database: .shared, configuration: .init(socketPath: Self.nowhere))
        client.willFetchChanges()
        client.fetchedDatabaseChanges(modifications: 2, deletions: 1)
        client.willFetchRecordZoneChanges(zone: "Notes")
        client.fetchedRecordZoneChanges(zone: "Notes", modifications: 12, deletions: 3)
        client.didFetchRecordZoneChanges(zone: "Notes", error: EngineError(.zoneBusy, retryAfter: .seconds(2)))
        client.didFetchChanges(reason: .manual)
        client.willSendChanges(reason: .scheduled)
        client.sentDatabaseChanges(savedZones: 1, deletedZones: 0, failedDeletes: [.init(.zoneNotFound, zone: "Old")])
        client.sentRecordZoneChanges(saved: 9, deleted: 1, failedSaves: [SyncmonClient.Failure(.serverRecordChanged, recordName: "n-1")])
        client.didSendChanges()
        client.stateUpdate(pendingRecordZoneChanges: 5, pendingDatabaseChanges: 1)
        client.accountChange(.signOut)
        client.accountStatus(.noAccount)
        client.networkStatus(available: false)
        client.error(phase: .export, code: "quotaExceeded", message: "full", retryAfter: .seconds(90))
        client.error(EngineError(code: "myAppError"))
        let activity = client.containerEventStarted(.import, id: "import-1")
        client.containerEventEnded(activity, error: EngineError(.networkFailure))
        client.heartbeat()

        let lines = client.queuedLines()
        let events = lines.compactMap { decodedEvent($0) }
        try #require(events.count == 19)
        let expected: [EventPayload] = [
            .willFetchChanges,
            .fetchedDatabaseChanges(modifications: 2, deletions: 1),
            .willFetchRecordZoneChanges,
            .fetchedRecordZoneChanges(modifications: 12, deletions: 3),
            .didFetchRecordZoneChanges(error: syncError("zoneBusy", retryAfter: 2)),
            .didFetchChanges,
            .willSendChanges,
            .sentDatabaseChanges(savedZones: 1, deletedZones: 0, failures: digest(syncError("zoneNotFound"))),
            .sentRecordZoneChanges(savedRecords: 9, deletedRecords: 1, failures: digest(syncError("serverRecordChanged"))),
            .didSendChanges,
            .stateUpdate(pendingRecordZoneChanges: 5, pendingDatabaseChanges: 1),
            .accountChange(.signOut),
            .accountStatus(.noAccount),
            .networkStatus(available: false),
            .error(phase: .export, error: syncError("quotaExceeded", retryAfter: 90, message: "full")),
            .error(phase: nil, error: syncError("myAppError")),
        ]
        for (index, payload) in expected.enumerated() {
            #expect(events[index].payload == payload, "\(lines[index])")
        }
        guard case .containerEvent(let start) = events[16].payload, case .containerEvent(let end) = events[17].payload else {
            Issue.record("no containerEvent pair: \(lines[16]) \(lines[17])")
            return
        }
        #expect(start.kind == .import && start.ended == nil && start.identifier == end.identifier)
        #expect(end.succeeded == false && end.error == syncError("networkFailure") && end.ended! >= end.started)
        #expect(events[18].payload == .heartbeat)
        // One pair, strictly increasing seq, a time on every line.
        #expect(events.allSatisfy { $0.engine.description == "notes" && $0.database == .shared && $0.time != nil })
        let sequences = events.compactMap(\.sequence)
        #expect(sequences.count == events.count)
        #expect(zip(sequences, sequences.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test("with no daemon, 100,000 calls return at once; beyond the capacity events are dropped and counted")
    func boundedQueue() async throws {
        let client = SyncmonClient(
            engine: "burst", configuration: .init(socketPath: Self.nowhere, queueCapacity: 1_000, minimumReconnectDelay: .milliseconds(20)))
        // The connection task runs (and keeps failing to connect) meanwhile.
        let task = runInBackground(client)
        defer { task.cancel() }
        let elapsed = ContinuousClock().measure {
            for index in 0..<100_000 { client.fetchedRecordZoneChanges(zone: "Notes", modifications: index, deletions: 0) }
        }
        #expect(elapsed < .seconds(5), "100,000 calls took \(elapsed)")
        let statistics = client.statistics
        #expect(statistics.enqueued == 1_000)
        #expect(statistics.dropped == 99_000)
        #expect(client.droppedEvents == 99_000)
        #expect(statistics.queued == 1_000)
        #expect(statistics.sent == 0 && !statistics.connected)
        // The queue holds the first 1,000, in order.
        let queued = client.queuedLines().compactMap { decodedEvent($0) }
        #expect(queued.count == 1_000)
        #expect(queued.first?.payload == .fetchedRecordZoneChanges(modifications: 0, deletions: 0))
        #expect(queued.last?.payload == .fetchedRecordZoneChanges(modifications: 999, deletions: 0))
        // The accepting path is as quick: 100,000 events into a queue that takes them all.
        let roomy = SyncmonClient(engine: "roomy", configuration: .init(socketPath: Self.nowhere, queueCapacity: 100_000))
        let queueing = ContinuousClock().measure {
            for index in 0..<100_000 { roomy.sentRecordZoneChanges(saved: index, deleted: 0) }
        }
        #expect(queueing < .seconds(5), "100,000 queued calls took \(queueing)")
        #expect(roomy.statistics.queued == 100_000 && roomy.droppedEvents == 0)
        // Dropped events use up seq numbers, so the daemon sees the loss as a gap.
        let next = SyncmonClient(engine: "burst2", configuration: .init(socketPath: Self.nowhere, queueCapacity: 1))
        next.heartbeat()
        next.heartbeat()
        next.heartbeat()
        #expect(next.statistics.dropped == 2)
    }

    @Test("drops are logged at most once per interval, with the count")
    func dropLogging() {
        let recording = RecordingLogHandler.logger()
        let client = SyncmonClient(
            engine: "full",
            configuration: .init(socketPath: Self.nowhere, queueCapacity: 2, dropLogInterval: .seconds(60)),
            logger: recording.logger
        )
        for _ in 0..<50 { client.heartbeat() }
        let warnings = recording.handler.messages.filter { $0.contains("queue full") }
        #expect(warnings.count == 1)
        #expect(recording.handler.messages.first { $0.contains("queue full") }?.contains("syncmon.dropped=1") == true)
        #expect(client.droppedEvents == 48)
    }

    @Test("seq starts at the creation time in microseconds, so it keeps increasing across app restarts")
    func sequenceAcrossRestarts() throws {
        let first = SyncmonClient(engine: "restarts", configuration: .init(socketPath: Self.nowhere))
        first.heartbeat()
        first.heartbeat()
        let second = SyncmonClient(engine: "restarts", configuration: .init(socketPath: Self.nowhere))
        second.heartbeat()
        let last = try #require(decodedEvent(first.queuedLines()[1])?.sequence)
        let next = try #require(decodedEvent(second.queuedLines()[0])?.sequence)
        #expect(next > last)
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000)
        #expect(abs(next - now) < 60_000_000)
    }

    @Test("an invalid engine name is corrected, with a warning")
    func invalidName() {
        let recording = RecordingLogHandler.logger()
        let client = SyncmonClient(engine: "my engine", configuration: .init(socketPath: Self.nowhere), logger: recording.logger)
        #expect(client.engine == "my_engine")
        #expect(recording.handler.messages.contains { $0.contains("corrected name") })
    }

    @Test("the default socket path: SYNCMON_EVENTS_SOCKET, else the system socket as root, else the user's own daemon's, the system's, XDG_RUNTIME_DIR")
    func defaultSocketPath() {
        func path(_ environment: [String: String], root: Bool = false, systemExists: Bool = false, userExists: Bool = false) -> String {
            SyncmonClient.Configuration.defaultSocketPath(
                environment: { environment[$0] }, isRoot: root, userID: 1000,
                exists: { ($0 == "/run/syncmon/events.sock" && systemExists) || ($0 == "/run/user/1000/syncmon/events.sock" && userExists) }
            )
        }
        #expect(path(["SYNCMON_EVENTS_SOCKET": "/srv/s.sock", "XDG_RUNTIME_DIR": "/run/user/1000"], root: true) == "/srv/s.sock")
        #expect(path(["XDG_RUNTIME_DIR": "/run/user/1000"], root: true) == "/run/syncmon/events.sock")
        #expect(path(["XDG_RUNTIME_DIR": "/run/user/1000"], systemExists: true) == "/run/syncmon/events.sock")
        #expect(path(["XDG_RUNTIME_DIR": "/run/user/1000"], systemExists: true, userExists: true) == "/run/user/1000/syncmon/events.sock")
        #expect(path(["XDG_RUNTIME_DIR": "/run/user/1000"]) == "/run/user/1000/syncmon/events.sock")
        #expect(path([:]) == "/tmp/syncmon-1000/syncmon/events.sock")
        #expect(path(["SYNCMON_EVENTS_SOCKET": ""]) == "/tmp/syncmon-1000/syncmon/events.sock")
    }

    @Test("reconnect delays double from the minimum up to the cap, with jitter between half and all of it")
    func backoff() {
        var delay = ReconnectDelay(minimum: .milliseconds(100), maximum: .seconds(2))
        var random = SplitMix64(seed: 9)
        let ceilings: [Duration] = [
            .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .milliseconds(1600), .seconds(2), .seconds(2),
        ]
        for ceiling in ceilings {
            let next = delay.next(using: &random)
            #expect(next <= ceiling && next >= ceiling / 2, "\(next) for \(ceiling)")
        }
        delay.reset()
        #expect(delay.next(using: &random) <= .milliseconds(100))
    }
}
