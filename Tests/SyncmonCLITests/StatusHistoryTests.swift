import Foundation
import SyncmonTestSupport
import Testing

/// `syncmon status --history` on the command line (docs/operations.md#history): what goes with
/// it and what does not, and its help. The history itself is read from a real daemon in
/// HistoryDaemonTests.
@Suite("syncmon status --history")
struct StatusHistoryTests {
    @Test(
        "an option that does not go with --history, or --since without it, is a usage error saying so",
        arguments: [
            (["--since", "1h"], "--since goes with --history"),
            (["--history", "--watch"], "does not go with --watch"),
            (["--history", "--wait"], "does not go with --wait"),
            (["--history", "--wide"], "does not go with --wide"),
            (["--history", "--format", "nagios"], "does not go with --format nagios"),
            (["--history", "--since", "soon"], "--since"),
        ])
    func usageErrors(arguments: [String], says: String) async throws {
        let result = try await SyncmonProcess.run(["status"] + arguments)
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.contains(says), "\(result.standardError)")
    }

    @Test("--help documents --history and --since")
    func help() async throws {
        let result = try await SyncmonProcess.run(["status", "--help"])
        #expect(result.status == 0)
        for text in ["--history", "--since <duration>", "GET /api/v1/history", "newest last"] {
            #expect(result.standardOutput.contains(text), "\(text)")
        }
    }
}
