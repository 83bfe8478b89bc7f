import Foundation
import SyncmonTestSupport
import Testing

/// `syncmon replay` as a user runs it: standard input, the table, errors, help.
@Suite("syncmon replay")
struct ReplayCommandTests {
    private let stream = """
        {"v":1,"engine":"notes","type":"engineStarted","time":"2026-11-21T10:00:00Z"}
        {"v":1,"engine":"notes","type":"accountStatus","status":"available","time":"2026-11-21T10:00:01Z"}
        not json at all
        {"v":1,"engine":"notes","type":"willFetchChanges","time":"2026-11-21T10:00:02Z"}
        {"v":1,"engine":"notes","type":"didFetchChanges","time":"2026-11-21T10:00:03Z"}

        """

    @Test("reads standard input for '-' and prints a table")
    func standardInput() throws {
        let result = try SyncmonProcess.run(["replay", "-"], input: Data(self.stream.utf8))
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("ENGINE"))
        #expect(result.standardOutput.contains("notes"))
        #expect(result.standardOutput.contains("succeeded"))
        #expect(result.standardError.contains("1 rejected (malformed: 1)"))
    }

    @Test("--advance moves the clock: a fetch older than --no-recent-import-after stalls")
    func advance() throws {
        let quiet = try SyncmonProcess.run(["replay", "-", "--advance", "59m", "--no-recent-import-after", "1h"], input: Data(self.stream.utf8))
        #expect(quiet.status == 0)
        let stalled = try SyncmonProcess.run(["replay", "-", "--advance", "1h", "--no-recent-import-after", "1h", "--json"], input: Data(self.stream.utf8))
        #expect(stalled.status == 2)
        #expect(stalled.standardOutput.contains("\"no_recent_import\""))
    }

    @Test("an empty stream has no rows: exit 3")
    func empty() throws {
        let result = try SyncmonProcess.run(["replay", "-"], input: Data())
        #expect(result.status == 3)
        #expect(result.standardOutput.contains("No engines tracked"))
    }

    @Test("a missing file is reported with exit 4")
    func missingFile() throws {
        let result = try SyncmonProcess.run(["replay", "/nonexistent/stream.jsonl"])
        #expect(result.status == 4)
        #expect(result.standardError.contains("cannot open /nonexistent/stream.jsonl"))
    }

    @Test("a bad duration is a usage error")
    func badDuration() throws {
        let result = try SyncmonProcess.run(["replay", "-", "--advance", "soon"], input: Data())
        #expect(result.status == 64)
        #expect(result.standardError.contains("--advance"))
    }

    @Test("--help explains the exit codes and thresholds")
    func help() throws {
        let result = try SyncmonProcess.run(["replay", "--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("--not-syncing-after"))
        #expect(result.standardOutput.contains("Nagios convention"))
        #expect(result.standardOutput.contains("--no-recent-import-after"))
    }
}
