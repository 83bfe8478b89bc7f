import Foundation
import SyncmonCore
import SyncmonDaemon
import SyncmonTestSupport
import Testing

/// Liveness across a restart of the real daemon (docs/protocol.md#liveness): the engines of the
/// first run connect, stop, crash or stay connected; after the restart stopped is still stopped,
/// down still down, a silent promising engine goes down on time, and no look finds a stall.
@Suite("Liveness across a daemon restart", .serialized)
struct RestartLivenessDaemonTests {
    static func lines(_ engine: String, heartbeat: Int? = nil) -> [String] {
        [
            EventLine.make(engine, "engineStarted", heartbeat.map { ["heartbeatSeconds": $0] } ?? [:]),
            EventLine.make(engine, "accountStatus", ["status": "available"]),
            EventLine.make(engine, "willFetchChanges"),
            EventLine.make(engine, "didFetchChanges"),
        ]
    }

    @Test("stopped stays stopped, down stays down, a promise is kept from the start, nothing stalled at any look", .onItsOwnThread)
    func restart() async throws {
        let directory = try TemporaryDirectory(prefix: "smrl")
        defer { directory.remove() }
        let first = try await DaemonProcess.start(in: directory.path)
        let stopper = try first.connect()
        try stopper.write(lines: Self.lines("stopper", heartbeat: 30) + [EventLine.make("stopper", "engineStopped")])
        stopper.close()
        let crashed = try first.connect()
        try crashed.write(lines: Self.lines("crashed"))
        crashed.close()
        // Still connected when the daemon stops: a promise of 3 s, and a tie without one.
        let promiser = try first.connect()
        try promiser.write(lines: Self.lines("promiser", heartbeat: 3))
        let tied = try first.connect()
        try tied.write(lines: Self.lines("tied"))
        let before = await first.waitForStatus {
            summary($0, "stopper/private") == "stopped" && summary($0, "crashed/private") == "engine_down"
                && summary($0, "promiser/private") == "succeeded" && summary($0, "tied/private") == "succeeded"
        }
        #expect(before.met, "\(before.rows)")
        #expect(await first.stop() == .exited(0))
        promiser.close()
        tied.close()

        let second = try await DaemonProcess.start(in: directory.path)
        let clock = ContinuousClock()
        let started = clock.now
        var seen: [String: [String]] = [:]
        var promiserDownAfter: Duration?
        // Every look until the promiser goes down: nothing stalled at any of them.
        _ = try await Polling.until(timeout: .seconds(15), interval: .milliseconds(200)) {
            let rows = try second.status()
            for (pair, row) in rows {
                let summary = row["summary"] as? String ?? "?"
                if seen[pair]?.last != summary { seen[pair, default: []].append(summary) }
                #expect((row["stalled"] as? [String] ?? []).isEmpty, "\(pair) stalled after the restart: \(row)")
            }
            if summary(rows, "promiser/private") == "engine_down" { promiserDownAfter = clock.now - started }
            return promiserDownAfter != nil
        }
        #expect(seen["stopper/private"] == ["stopped"], "\(seen)")
        #expect(seen["crashed/private"] == ["engine_down"], "\(seen)")
        // 3 × 3 s from the daemon's start (a little before it was ready), not at once.
        #expect(seen["promiser/private"] == ["succeeded", "engine_down"], "\(seen)")
        #expect(promiserDownAfter != nil, "\(seen)")
        // Its client has 60 s to reconnect.
        #expect(seen["tied/private"] == ["succeeded"], "\(seen)")
        let metrics = try second.metrics()
        #expect(metrics.value("syncmon_engine_up", ["engine": "stopper", "database": "private"]) == 0)
        await second.stop()
    }

    /// Each pair's saved liveness object in the state file, by engine.
    static func savedLiveness(_ daemon: DaemonProcess) throws -> [String: [String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: daemon.stateDirectory + "/state.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var liveness: [String: [String: Any]] = [:]
        for pair in try #require(document["pairs"] as? [[String: Any]]) {
            let state = pair["state"] as? [String: Any]
            liveness[pair["engine"] as? String ?? "?"] = state?["liveness"] as? [String: Any]
        }
        return liveness
    }

    @Test("an engine heard only through syncmon emit or syncmon wrap is saved untied and comes back unchanged; a tied one gets its grace")
    func emitAndWrapSurviveRestart() async throws {
        let directory = try TemporaryDirectory(prefix: "smre")
        defer { directory.remove() }
        let first = try await DaemonProcess.start(in: directory.path)
        for arguments in [["engineStarted"], ["accountStatus", "status=available"], ["willFetchChanges"], ["didFetchChanges"]] {
            let emitted = try await SyncmonProcess.run(["emit", "--events-socket", first.eventsSocket, "--engine", "emitted"] + arguments)
            #expect(emitted.status == 0, "\(emitted.standardError)")
        }
        let wrapped = try await SyncmonProcess.run(["wrap", "--events-socket", first.eventsSocket, "--engine", "wrapped", "--phase", "export", "--", "true"])
        #expect(wrapped.status == 0, "\(wrapped.standardError)")
        // Still connected when the daemon stops: one without a promise, one promising 2 s.
        let tied = try first.connect()
        try tied.write(lines: Self.lines("tied"))
        let promiser = try first.connect()
        try promiser.write(lines: Self.lines("promiser", heartbeat: 2) + [EventLine.make("promiser", "heartbeat")])
        let before = await first.waitForStatus { rows in
            ["emitted", "wrapped", "tied", "promiser"].allSatisfy { summary(rows, "\($0)/private") == "succeeded" }
        }
        #expect(before.met, "\(before.rows)")
        #expect(await first.stop() == .exited(0))
        tied.close()
        promiser.close()
        let saved = try Self.savedLiveness(first)
        #expect(saved["emitted"]?["state"] as? String == "up" && saved["emitted"]?["tied"] == nil, "\(saved)")
        #expect(saved["wrapped"]?["state"] as? String == "up" && saved["wrapped"]?["tied"] == nil, "\(saved)")
        #expect(saved["tied"]?["tied"] as? Bool == true, "\(saved)")

        let startingAt = Int64(Date().timeIntervalSince1970 * 1_000_000)
        let second = try await DaemonProcess.start(in: directory.path)
        let readyAt = Int64(Date().timeIntervalSince1970 * 1_000_000)
        // Every look until the promiser's grace (3 × 2 s) has run out: the others never move.
        var seen: [String: [String]] = [:]
        _ = try await Polling.until(timeout: .seconds(15), interval: .milliseconds(200)) {
            let rows = try second.status()
            for (pair, row) in rows where seen[pair]?.last != row["summary"] as? String { seen[pair, default: []].append(row["summary"] as? String ?? "?") }
            return summary(rows, "promiser/private") == "engine_down"
        }
        #expect(seen["promiser/private"] == ["succeeded", "engine_down"], "\(seen)")
        for pair in ["emitted/private", "wrapped/private", "tied/private"] { #expect(seen[pair] == ["succeeded"], "\(seen)") }
        #expect(await second.stop() == .exited(0))
        // What the second run saved: the one-shot engines as they were, the tied one waiting
        // for its client until 60 s after the second start (not sleeping through it here).
        let again = try Self.savedLiveness(second)
        #expect(again["emitted"]?["state"] as? String == "up" && again["emitted"]?["deadline"] == nil, "\(again)")
        #expect(again["wrapped"]?["state"] as? String == "up" && again["wrapped"]?["deadline"] == nil, "\(again)")
        #expect(again["tied"]?["state"] as? String == "restored", "\(again)")
        let deadline = try #require(again["tied"]?["deadline"] as? Int64, "\(again)")
        // 60 s from the daemon's start, which came between starting it and its being ready.
        #expect((startingAt + 60_000_000...readyAt + 60_000_000).contains(deadline), "deadline \(deadline), started \(startingAt)...\(readyAt)")
    }
}
