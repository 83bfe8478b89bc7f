import Foundation
import SyncmonTestSupport
import Testing

/// `syncmon rules test` as someone writing a pack runs it: lines in, rules and events out.
@Suite("syncmon rules test")
struct RulesCommandTests {
    @Test("a shipped pack: the rule each line matched and the events it emits")
    func shippedPack() async throws {
        let lines = "Looking for changes\nSleeping for 2 seconds...\nSynchronization incomplete at 14:47:25  (1 item transferred, 1 skipped, 1 failed)\n"
        let result = try await SyncmonProcess.run(["rules", "test", "unison"], input: Data(lines.utf8))
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("1: rule cycle-start"))
        #expect(result.standardOutput.contains("\"type\":\"willFetchChanges\""))
        #expect(result.standardOutput.contains("2: no rule"))
        #expect(result.standardOutput.contains("3: rule cycle-failed"))
        #expect(result.standardOutput.contains("\"code\":\"syncIncomplete\""))
        #expect(result.standardError.contains("3 lines, 2 matched, 6 events, 0 over the match limit"))
    }

    @Test("a broken rules file: exit 78 with file, line and problem")
    func brokenFile() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/bad.rules"
        try "[rule a]\nmatch = (unclosed\nemit = heartbeat\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try await SyncmonProcess.run(["rules", "test", path], input: Data())
        #expect(result.status == 78)
        #expect(result.standardError.contains("\(path):2: match: missing closing parenthesis"))
    }

    @Test("an unknown pack names the shipped ones")
    func unknownPack() async throws {
        let result = try await SyncmonProcess.run(["rules", "test", "nosuch"], input: Data())
        #expect(result.status == 78)
        #expect(result.standardError.contains("packs: unison, lsyncd, onedrive, rclone-bisync, nextcloudcmd"))
    }
}
