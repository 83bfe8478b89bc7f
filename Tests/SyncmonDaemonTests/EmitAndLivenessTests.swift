import Foundation
import SyncmonTestSupport
import Testing

/// `syncmon emit`, and engines tied to their push connection (docs/protocol.md#account-and-network, docs/operations.md#commands).
@Suite("Emit and engine liveness", .serialized)
struct EmitAndLivenessTests {
    func emit(_ daemon: DaemonProcess, _ arguments: [String]) async throws {
        let result = try await SyncmonProcess.run(["emit", "--events-socket", daemon.eventsSocket] + arguments)
        #expect(result.status == 0, "emit \(arguments): \(result.standardError)")
    }

    @Test("syncmon emit events show up in the status")
    func emitReflected() async throws {
        try await withDaemon { daemon, _ in
            try await self.emit(daemon, ["--engine", "backup", "engineStarted"])
            try await self.emit(daemon, ["--engine", "backup", "accountStatus", "status=available"])
            try await self.emit(daemon, ["--engine", "backup", "willSendChanges"])
            try await self.emit(daemon, ["--engine", "backup", "stateUpdate", "pendingRecordZoneChanges=4"])
            try await self.emit(daemon, ["--engine", "backup", "--database", "shared", "networkStatus", "available=false"])
            let (met, rows) = await daemon.waitForStatus {
                phaseState($0, "backup/private", "export") == "in_progress" && summary($0, "backup/shared") == "no_network"
                    && ($0["backup/private"]?["pending"] as? [String: Any])?["recordZone"] as? Int == 4
            }
            #expect(met, "rows: \(rows)")
            #expect(phaseState(rows, "backup/private", "setup") == "succeeded")
            #expect(field(rows, "backup/private", "account") == "available")
            #expect(field(rows, "backup/shared", "network") == "unavailable")

            try await self.emit(daemon, ["--engine", "backup", "error", "phase=export", "error.code=quotaExceeded"])
            try await self.emit(daemon, ["--engine", "backup", "didSendChanges"])
            let failed = await daemon.waitForStatus { summary($0, "backup/private") == "error" }
            #expect(failed.met, "rows: \(failed.rows)")
            let export = failed.rows["backup/private"]?["export"] as? [String: Any]
            #expect((export?["error"] as? [String: Any])?["code"] as? String == "quotaExceeded")
        }
    }

    @Test("syncmon emit reports an invalid event (65) and an absent daemon (1)")
    func emitFailures() async throws {
        let directory = try TemporaryDirectory(prefix: "smd")
        defer { directory.remove() }
        let invalid = try await SyncmonProcess.run(["emit", "--events-socket", directory.path("events.sock"), "--engine", "x", "noSuchType"])
        #expect(invalid.status == 65, "\(invalid.standardError)")
        let absent = try await SyncmonProcess.run(["emit", "--events-socket", directory.path("events.sock"), "--engine", "x", "heartbeat"])
        #expect(absent.status == 1)
        #expect(absent.standardError.contains("cannot reach the daemon"), "\(absent.standardError)")
    }

    @Test("a push connection that carried engineStarted and closes without engineStopped leaves the engine down")
    func tiedConnectionCloses() async throws {
        try await withDaemon { daemon, _ in
            let connection = try daemon.connect()
            try connection.write(lines: [
                EventLine.make("tied", "engineStarted"),
                EventLine.make("tied", "accountStatus", ["status": "available"]),
                EventLine.make("tied", "willFetchChanges"),
                EventLine.make("tied", "didFetchChanges"),
            ])
            let running = await daemon.waitForStatus { summary($0, "tied/private") == "succeeded" }
            #expect(running.met, "rows: \(running.rows)")
            #expect(running.rows["tied/private"]?["up"] as? Bool == true)

            connection.close()
            let down = await daemon.waitForStatus { summary($0, "tied/private") == "engine_down" }
            #expect(down.met, "rows: \(down.rows)")
            #expect(down.rows["tied/private"]?["up"] as? Bool == false)
            let metrics = try daemon.metrics()
            #expect(metrics.value("syncmon_engine_up", ["engine": "tied"]) == 0)
            #expect(metrics.value("syncmon_status", ["engine": "tied", "status": "engine_down"]) == 1)

            // Heard from again (on any connection): up again.
            try daemon.send(lines: [EventLine.make("tied", "heartbeat")])
            let back = await daemon.waitForStatus { summary($0, "tied/private") == "succeeded" }
            #expect(back.met, "rows: \(back.rows)")
            #expect(back.rows["tied/private"]?["up"] as? Bool == true)
        }
    }

    @Test("engineStopped before closing means stopped, not down")
    func stoppedBeforeClose() async throws {
        try await withDaemon { daemon, _ in
            let connection = try daemon.connect()
            try connection.write(lines: [
                EventLine.make("polite", "engineStarted"),
                EventLine.make("polite", "willFetchChanges"),
                EventLine.make("polite", "didFetchChanges"),
                EventLine.make("polite", "engineStopped"),
            ])
            connection.close()
            let stopped = await daemon.waitForStatus { summary($0, "polite/private") == "stopped" }
            #expect(stopped.met, "rows: \(stopped.rows)")
            #expect(stopped.rows["polite/private"]?["up"] as? Bool == false)
            // It stays stopped: the close does not turn it into engine_down.
            let turnedDown = await daemon.waitForStatus(timeout: .milliseconds(500)) { summary($0, "polite/private") == "engine_down" }
            #expect(!turnedDown.met)
        }
    }

    @Test("a batch run ends with runEnded: its connection closing leaves the last outcome, not engine_down")
    func runEndedUnties() async throws {
        try await withDaemon { daemon, _ in
            let finished = try daemon.connect()
            try finished.write(lines: [
                EventLine.make("job", "runStarted", ["heartbeatSeconds": 10]),
                EventLine.make("job", "willSendChanges"),
                EventLine.make("job", "didSendChanges"),
                EventLine.make("job", "runEnded"),
            ])
            finished.close()
            let succeeded = await daemon.waitForStatus { summary($0, "job/private") == "succeeded" }
            #expect(succeeded.met, "rows: \(succeeded.rows)")
            #expect(phaseState(succeeded.rows, "job/private", "setup") == "not_started", "a run opens no setup")
            let turnedDown = await daemon.waitForStatus(timeout: .milliseconds(500)) { summary($0, "job/private") == "engine_down" }
            #expect(!turnedDown.met)

            // A run whose connection closes before runEnded was killed.
            let killed = try daemon.connect()
            try killed.write(lines: [EventLine.make("job", "runStarted", ["heartbeatSeconds": 10]), EventLine.make("job", "willSendChanges")])
            _ = await daemon.waitForStatus { phaseState($0, "job/private", "export") == "in_progress" }
            killed.close()
            let down = await daemon.waitForStatus { summary($0, "job/private") == "engine_down" }
            #expect(down.met, "rows: \(down.rows)")
        }
    }

    @Test("one engine's connection closing does not affect the other engines on it or elsewhere")
    func otherEnginesUnaffected() async throws {
        try await withDaemon { daemon, _ in
            let connection = try daemon.connect()
            try connection.write(lines: [
                EventLine.make("tied", "engineStarted"),
                // Another engine on the same connection without engineStarted: not tied.
                EventLine.make("passenger", "willFetchChanges"),
                EventLine.make("passenger", "didFetchChanges"),
            ])
            try daemon.send(lines: [EventLine.make("elsewhere", "willFetchChanges"), EventLine.make("elsewhere", "didFetchChanges")])
            #expect(await daemon.waitForStatus { $0.count == 3 }.met)
            connection.close()
            let down = await daemon.waitForStatus { summary($0, "tied/private") == "engine_down" }
            #expect(down.met, "rows: \(down.rows)")
            #expect(summary(down.rows, "passenger/private") == "succeeded")
            #expect(summary(down.rows, "elsewhere/private") == "succeeded")
        }
    }

    @Test("a single-line engineStarted (syncmon emit) does not tie the engine to its connection")
    func singleLineDoesNotTie() async throws {
        try await withDaemon { daemon, _ in
            try await self.emit(daemon, ["--engine", "script", "engineStarted"])
            try daemon.send(lines: [EventLine.make("script-raw", "engineStarted")])
            let seen = await daemon.waitForStatus { $0["script/private"] != nil && $0["script-raw/private"] != nil }
            #expect(seen.met, "rows: \(seen.rows)")
            // Both connections are closed by now; give the daemon a moment to act on the closes.
            let turnedDown = await daemon.waitForStatus(timeout: .milliseconds(700)) {
                summary($0, "script/private") == "engine_down" || summary($0, "script-raw/private") == "engine_down"
            }
            #expect(!turnedDown.met, "rows: \(turnedDown.rows)")
            #expect(turnedDown.rows["script/private"]?["up"] as? Bool == true)
            #expect(summary(turnedDown.rows, "script/private") == "not_started")
        }
    }

    @Test("an engine that promised heartbeats is down after three missed intervals")
    func missedHeartbeats() async throws {
        try await withDaemon { daemon, _ in
            try daemon.send(lines: [EventLine.make("beating", "engineStarted", ["heartbeatSeconds": 0.3])])
            let up = await daemon.waitForStatus { $0["beating/private"] != nil }
            #expect(up.met)
            let down = await daemon.waitForStatus(timeout: .seconds(5)) { summary($0, "beating/private") == "engine_down" }
            #expect(down.met, "rows: \(down.rows)")
            #expect(down.rows["beating/private"]?["up"] as? Bool == false)
            try daemon.send(lines: [EventLine.make("beating", "heartbeat")])
            #expect(await daemon.waitForStatus { $0["beating/private"]?["up"] as? Bool == true }.met)
        }
    }
}
