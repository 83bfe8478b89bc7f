import Foundation
import Logging
import SyncmonClient
import SyncmonCore
import SyncmonSockets
import SyncmonTestSupport
import Testing

/// The client against the real `syncmon daemon`: delivery, restarts, clean and unclean stops.
@Suite("Client against the daemon")
struct ClientDaemonTests {
    static func configuration(_ daemon: DaemonProcess) -> SyncmonClient.Configuration {
        .init(
            socketPath: daemon.eventsSocket, heartbeatInterval: .seconds(30), minimumReconnectDelay: .milliseconds(50),
            maximumReconnectDelay: .milliseconds(250), shutdownTimeout: .seconds(5)
        )
    }

    /// A complete fetch and send cycle, as an engine reports it.
    static func cycle(_ client: SyncmonClient, pending: Int) {
        client.willFetchChanges(reason: .scheduled)
        client.willFetchRecordZoneChanges(zone: "Notes")
        client.fetchedRecordZoneChanges(zone: "Notes", modifications: 4, deletions: 1)
        client.didFetchRecordZoneChanges(zone: "Notes")
        client.didFetchChanges(reason: .scheduled)
        client.willSendChanges()
        client.sentRecordZoneChanges(saved: 2, deleted: 0)
        client.stateUpdate(pendingRecordZoneChanges: pending, pendingDatabaseChanges: 0)
        client.didSendChanges()
    }

    static func pending(_ row: [String: Any]?) -> Int? {
        (row?["pending"] as? [String: Any])?["recordZone"] as? Int
    }

    @Test("events arrive and show in /api/v1/status; cancelling run() leaves the engine engine_down")
    func deliveryAndCrash() async throws {
        let directory = try TemporaryDirectory(prefix: "smc")
        let daemon = try await DaemonProcess.start(in: directory.path)
        defer { Task { await daemon.stop() } }
        let client = SyncmonClient(engine: "notes", configuration: Self.configuration(daemon), logger: quietLogger)
        let task = runInBackground(client)
        client.accountStatus(.available)
        client.networkStatus(available: true)
        Self.cycle(client, pending: 3)
        let (met, rows) = await daemon.waitForStatus {
            $0["notes/private"]?["summary"] as? String == "succeeded" && Self.pending($0["notes/private"]) == 3
        }
        #expect(met, "rows: \(rows)")
        let row = rows["notes/private"]
        #expect(row?["up"] as? Bool == true)
        #expect(row?["account"] as? String == "available")
        #expect((row?["import"] as? [String: Any])?["state"] as? String == "succeeded")
        #expect((row?["export"] as? [String: Any])?["state"] as? String == "succeeded")
        // The client counts a line as sent when its write completes, which can come after the
        // daemon has already applied it (seen under AddressSanitizer).
        #expect(await Polling.until { client.statistics.sent == 11 }, "\(client.statistics)")
        #expect(client.statistics.connected)
        // Nothing the client wrote was rejected.
        let rejected = try daemon.get("/metrics").text.split(separator: "\n").filter { $0.hasPrefix("syncmon_events_rejected_total{") }
        #expect(!rejected.isEmpty && rejected.allSatisfy { $0.hasSuffix(" 0") }, "\(rejected)")

        // Cancellation is a crash: the connection drops without engineStopped.
        task.cancel()
        try await task.value
        let (down, after) = await daemon.waitForStatus { $0["notes/private"]?["summary"] as? String == "engine_down" }
        #expect(down, "rows: \(after)")
        #expect(after["notes/private"]?["up"] as? Bool == false)
    }

    @Test("the daemon restarts mid-stream: the client reconnects and delivers what was queued; a graceful stop shows stopped")
    func restartAndGracefulStop() async throws {
        let directory = try TemporaryDirectory(prefix: "smc")
        let first = try await DaemonProcess.start(in: directory.path)
        let client = SyncmonClient(engine: "photos", database: .shared, configuration: Self.configuration(first), logger: quietLogger)
        let task = runInBackground(client)
        client.accountStatus(.available)
        client.networkStatus(available: true)
        Self.cycle(client, pending: 5)
        #expect(await first.waitForStatus { Self.pending($0["photos/shared"]) == 5 }.met)

        // A producer keeps reporting while the daemon goes away and comes back.
        let producer = Task {
            var round = 0
            while !Task.isCancelled {
                client.fetchedRecordZoneChanges(zone: "Photos", modifications: round, deletions: 0)
                round += 1
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        #expect(await first.stop() == .exited(0))
        #expect(await Polling.until { !client.statistics.connected })
        // Reported while no daemon runs: queued.
        client.willSendChanges()
        client.sentRecordZoneChanges(saved: 5, deleted: 0)
        client.stateUpdate(pendingRecordZoneChanges: 7, pendingDatabaseChanges: 0)
        client.didSendChanges()
        #expect(client.statistics.queued >= 4)

        let second = try await DaemonProcess.start(in: directory.path)
        defer { Task { await second.stop() } }
        #expect(await Polling.until(timeout: .seconds(10)) { client.statistics.connected && client.statistics.reconnects >= 1 })
        producer.cancel()
        await producer.value
        // The producer's batches opened an import (implicitly): end it.
        client.didFetchChanges()
        let (met, rows) = await second.waitForStatus {
            Self.pending($0["photos/shared"]) == 7 && $0["photos/shared"]?["summary"] as? String == "succeeded"
        }
        #expect(met, "rows: \(rows)")
        #expect(rows["photos/shared"]?["up"] as? Bool == true)
        #expect(await Polling.until { client.statistics.queued == 0 })
        let statistics = client.statistics
        #expect(statistics.dropped == 0)
        #expect(statistics.sent == statistics.enqueued, "\(statistics)")

        // Graceful stop: everything delivered, engineStopped, the engine shows stopped.
        client.finish()
        try await task.value
        let (stopped, final) = await second.waitForStatus { $0["photos/shared"]?["summary"] as? String == "stopped" }
        #expect(stopped, "rows: \(final)")
        #expect(final["photos/shared"]?["up"] as? Bool == false)
    }
}
