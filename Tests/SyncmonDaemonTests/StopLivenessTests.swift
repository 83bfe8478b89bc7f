import Foundation
import SyncmonTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A daemon that stops closes its engines' push connections itself: that says nothing about
/// the engines (docs/operations.md, "Stop"). Found by the soak run (scripts/soak.sh): every
/// SIGTERM restart logged a false `engine_down` error for each connected engine, and a
/// recovery after the restart.
@Suite("Stop: connections the daemon closes do not mark engines down", .serialized)
struct StopLivenessTests {
    @Test("SIGTERM with engines connected logs no engine_down, and a restart no recovery")
    func stopKeepsEnginesUp() async throws {
        let directory = try TemporaryDirectory(prefix: "smsl")
        defer { directory.remove() }
        let daemon = try await DaemonProcess.start(in: directory.path)
        let engines = (0..<30).map { "up-\($0)" }
        var writers: [EventSocketWriter] = []
        for engine in engines {
            let writer = try daemon.connect()
            try writer.write(lines: [
                EventLine.make(engine, "engineStarted", ["heartbeatSeconds": 30]),
                EventLine.make(engine, "accountStatus", ["status": "available"]),
                EventLine.make(engine, "willFetchChanges"),
                EventLine.make(engine, "didFetchChanges"),
            ])
            writers.append(writer)
        }
        let (met, rows) = await daemon.waitForStatus { rows in engines.allSatisfy { summary(rows, "\($0)/private") == "succeeded" } }
        #expect(met, "rows: \(rows)")

        #expect(await daemon.stop() == .exited(0))
        let log = daemon.standardError
        #expect(log.contains("syncmon stopped"))
        #expect(!log.contains("engine_down"), "stopping logged engines down:\n\(log)")
        writers.forEach { $0.close() }

        // The verdict last logged is persisted: a false engine_down would come back as a
        // "recovery" after the restart.
        let second = try await DaemonProcess.start(in: directory.path)
        let (restored, after) = await second.waitForStatus { $0.count == engines.count }
        #expect(restored, "rows: \(after)")
        #expect(engines.allSatisfy { summary(after, "\($0)/private") == "succeeded" })
        #expect(await second.stop() == .exited(0))
        #expect(!second.standardError.contains("was engine_down"), "a recovery was logged:\n\(second.standardError)")
    }
}
