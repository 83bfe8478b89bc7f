import Foundation
import SyncmonTestSupport
import Testing

/// The daemon's stderr lines (§5 v1.2) from the real binary: the text line a person reads, and
/// `--log-format logfmt` for a machine.
@Suite("The daemon's terminal line", .serialized)
struct TerminalLogLineTests {
    /// The daemon's stderr once `notes` has started an import, with `arguments` added.
    static func standardError(_ arguments: [String], expecting text: String) async throws -> String {
        let directory = try TemporaryDirectory(prefix: "smt")
        defer { directory.remove() }
        let daemon = try await DaemonProcess.start(in: directory.path, arguments: arguments)
        try daemon.send(lines: [EventLine.make("notes", "willFetchChanges")])
        let seen = await Polling.until { daemon.standardError.contains(text) }
        await daemon.stop()
        #expect(seen, "\(daemon.standardError)")
        return daemon.standardError
    }

    @Test("text: time, level, pair, message, within 80 columns; no fields at info")
    func text() async throws {
        let output = try await Self.standardError([], expecting: "notes/private: sync in_progress")
        let line = try #require(output.split(separator: "\n").first { $0.hasSuffix(" info notes/private: sync in_progress") })
        #expect(line.count <= 80)
        #expect(try Regex(#"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z info "#).firstMatch(in: String(line)) != nil, "\(line)")
        #expect(!output.contains("message_id="))
    }

    @Test("--log-format logfmt: time, level, msg and every field")
    func logfmt() async throws {
        let output = try await Self.standardError(["--log-format", "logfmt"], expecting: "msg=\"notes/private: sync in_progress\"")
        let line = try #require(output.split(separator: "\n").first { $0.contains("msg=\"notes/private: sync in_progress\"") })
        #expect(line.hasPrefix("time="))
        #expect(line.contains(" level=info msg="))
        #expect(line.contains(" syncmon.engine=notes"))
        #expect(line.contains(" message_id="))
    }
}
