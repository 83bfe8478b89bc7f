import Foundation
import SyncmonTestSupport
import Testing

/// `syncmon status --wait`, `--wide`, the 80-column table and `--url host:port`, on the real
/// binary against a running daemon.
@Suite("syncmon status --wait and the table", .serialized)
struct StatusWaitTests {
    /// A `syncmon` run in the background, with the moment it exited.
    struct Finished: Sendable {
        var result: SyncmonProcess.Result
        var exited: ContinuousClock.Instant
    }

    static func start(_ arguments: [String]) -> Task<Finished, any Error> {
        // SyncmonProcess waits for the process on a thread of its own, not a cooperative one.
        Task { Finished(result: try await SyncmonProcess.run(arguments), exited: .now) }
    }

    /// A daemon with engine `job` importing (willFetchChanges sent, no did yet).
    static func withImportRunning(_ body: (DaemonProcess, EventSocketWriter) async throws -> Void) async throws {
        let directory = try TemporaryDirectory(prefix: "smw")
        defer { directory.remove() }
        let daemon = try await DaemonProcess.start(in: directory.path)
        do {
            let connection = try daemon.connect()
            defer { connection.close() }
            try connection.write(lines: [EventLine.make("job", "willFetchChanges")])
            let (met, rows) = await daemon.waitForStatus { $0["job/private"]?["summary"] as? String == "in_progress" }
            #expect(met, "rows: \(rows)")
            try await body(daemon, connection)
            await daemon.stop()
        } catch {
            await daemon.kill()
            throw TestSupportError("\(error)\n--- daemon stderr ---\n\(daemon.standardError)")
        }
    }

    @Test("--wait while an import runs: exit 1 at the timeout, saying what is not in sync; --url host:port")
    func timesOut() async throws {
        try await Self.withImportRunning { daemon, _ in
            let hostPort = daemon.url.replacing("http://", with: "")
            let result = try await SyncmonProcess.run(["status", "--url", hostPort, "--engine", "job", "--wait", "--timeout", "2s"])
            #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
            #expect(result.standardOutput.hasPrefix("ENGINE/DATABASE  SUMMARY"), "\(result.standardOutput)")
            #expect(result.standardError.contains("--wait: still not in sync: job/private in_progress after 2s"), "\(result.standardError)")
        }
    }

    @Test("--wait exits 0 soon after the import succeeds, long before its 60 s timeout")
    func succeeds() async throws {
        try await Self.withImportRunning { daemon, connection in
            let waiting = Self.start(["status", "--url", daemon.url, "--wait", "--timeout", "60s"])
            // timesOut shows that a running import keeps it waiting; here it must notice the end.
            try connection.write(lines: [EventLine.make("job", "didFetchChanges")])
            let sent = ContinuousClock.now
            let finished = try await waiting.value
            #expect(finished.result.status == 0, "\(finished.result.standardOutput)\(finished.result.standardError)")
            // A bound that tells "noticed the end" from "waited for the timeout", not a speed:
            // 2 s was missed by 0.2 s on a loaded CI machine.
            #expect(finished.exited - sent < .seconds(10), "exited \(finished.exited - sent) after didFetchChanges")
            #expect(finished.result.standardOutput.contains("job/private      succeeded"), "\(finished.result.standardOutput)")
        }
    }

    @Test("--wait against no daemon: exit 3 at once; --wait with --watch or --timeout alone is a usage error")
    func badUse() async throws {
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let port = refusing.port
        let unreachable = try await SyncmonProcess.run(["status", "--url", "127.0.0.1:\(port)", "--wait"])
        #expect(unreachable.status == 3)
        #expect(unreachable.standardError.contains("cannot reach the daemon at http://127.0.0.1:\(port)"), "\(unreachable.standardError)")
        for arguments in [["--wait", "--watch"], ["--timeout", "5s"], ["--wide", "--json"]] {
            let result = try await SyncmonProcess.run(["status"] + arguments)
            #expect(result.status == 64, "\(arguments): \(result.standardError)")
        }
    }

    @Test("the table fits 80 columns; --wide prints every column")
    func wide() async throws {
        try await StatusFormatTests.withFleet { daemon in
            let table = try await SyncmonProcess.run(["status", "--url", daemon.url])
            let lines = table.standardOutput.split(separator: "\n")
            #expect(lines.first?.hasPrefix("ENGINE/DATABASE  SUMMARY     DETAIL  ") == true)
            #expect(lines.count == 5)
            #expect(lines.allSatisfy { $0.count <= 80 }, "\(table.standardOutput)")
            #expect(table.standardOutput.contains("broken/private   error       export: quotaExceeded since "), "\(table.standardOutput)")
            #expect(table.standardOutput.contains("stuck/private    stalled     not_syncing "), "\(table.standardOutput)")

            let wide = try await SyncmonProcess.run(["status", "--url", daemon.url, "--wide"])
            let header = try #require(wide.standardOutput.split(separator: "\n").first)
            #expect(
                header.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
                    == "ENGINE/DATABASE SUMMARY STALLED SETUP IMPORT EXPORT ACCOUNT NETWORK PENDING LAST EVENT DETAIL")
            #expect(wide.status == 2)
        }
    }
}
