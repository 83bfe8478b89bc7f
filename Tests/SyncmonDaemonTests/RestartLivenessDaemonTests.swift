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

    @Test("stopped stays stopped, down stays down, a promise is kept from the start, nothing stalled at any look")
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
}
