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
    func standardInput() async throws {
        let result = try await SyncmonProcess.run(["replay", "-"], input: Data(self.stream.utf8))
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("ENGINE"))
        #expect(result.standardOutput.contains("notes"))
        #expect(result.standardOutput.contains("succeeded"))
        #expect(result.standardError.contains("1 rejected (malformed: 1)"))
    }

    @Test("each rejected line is named with its number and reason")
    func rejectedLinesNamed() async throws {
        let result = try await SyncmonProcess.run(["replay", "-"], input: Data(self.stream.utf8))
        #expect(result.standardError.contains("replay: line 3: malformed (not a JSON object): not json at all"), "\(result.standardError)")
        #expect(!result.standardError.contains("not named"))
    }

    /// A stream with `count` bad lines of several kinds after a good one.
    static func badStream(_ count: Int) -> String {
        let good = #"{"v":1,"engine":"notes","type":"heartbeat","time":"2026-11-21T10:00:00Z"}"#
        let bad = [
            #"{"v":1,"engine":"notes","type":"heartbaet"}"#,
            #"{"v":2,"engine":"notes","type":"heartbeat"}"#,
            #"{"v":1,"engine":"notes","type":"engineStarted","heartbeatSeconds":0}"#,
            "{\"v\":1,\u{1}",
        ]
        return ([good] + (0..<count).map { bad[$0 % bad.count] }).joined(separator: "\n") + "\n"
    }

    @Test("the first 5 rejected lines by default, every one with --verbose")
    func verbose() async throws {
        let input = Data(Self.badStream(12).utf8)
        let brief = try await SyncmonProcess.run(["replay", "-"], input: input)
        let named = brief.standardError.split(separator: "\n").filter { $0.hasPrefix("replay: line ") }
        #expect(named.count == 5, "\(brief.standardError)")
        #expect(
            named.first
                == "replay: line 2: unknown_type (unknown event type \"heartbaet\" in the field type; did you mean heartbeat?): {\"v\":1,\"engine\":\"notes\",\"type\":\"heartbaet\"}"
        )
        #expect(
            named.dropFirst().first
                == "replay: line 3: unsupported_version (protocol version: v must be 1): {\"v\":2,\"engine\":\"notes\",\"type\":\"heartbeat\"}")
        #expect(named.dropFirst(2).first?.hasPrefix("replay: line 4: invalid_field (the field heartbeatSeconds is missing or invalid)") == true)
        // A control character is escaped, never written to the terminal.
        #expect(named.dropFirst(3).first?.hasPrefix("replay: line 5: malformed") == true)
        #expect(named.dropFirst(3).first?.contains("\\x01") == true, "\(named)")
        #expect(brief.standardError.contains("12 rejected"))
        #expect(brief.standardError.contains("7 more not named (--verbose names every one)"))

        let verbose = try await SyncmonProcess.run(["replay", "-", "--verbose"], input: input)
        let all = verbose.standardError.split(separator: "\n").filter { $0.hasPrefix("replay: line ") }
        #expect(all.count == 12, "\(verbose.standardError)")
        #expect(all.last?.hasPrefix("replay: line 13: ") == true)
        #expect(!verbose.standardError.contains("not named"))
    }

    @Test("--advance moves the clock: a fetch older than --no-recent-import-after stalls")
    func advance() async throws {
        let quiet = try await SyncmonProcess.run(["replay", "-", "--advance", "59m", "--no-recent-import-after", "1h"], input: Data(self.stream.utf8))
        #expect(quiet.status == 0)
        let stalled = try await SyncmonProcess.run(
            ["replay", "-", "--advance", "1h", "--no-recent-import-after", "1h", "--json"], input: Data(self.stream.utf8))
        #expect(stalled.status == 2)
        #expect(stalled.standardOutput.contains("\"no_recent_import\""))
    }

    @Test("--changes: a stall in the middle of the stream is written, though the end is healthy")
    func changesInTheMiddle() async throws {
        let directory = try TemporaryDirectory(prefix: "smrc")
        defer { directory.remove() }
        // A fetch that hangs for 10 minutes (no_progress after 5), then ends: healthy at the end.
        let stream = """
            {"v":1,"engine":"notes","type":"accountStatus","status":"available","time":"2026-11-21T10:00:00Z"}
            {"v":1,"engine":"notes","type":"willFetchChanges","time":"2026-11-21T10:00:01Z"}
            {"v":1,"engine":"notes","type":"didFetchChanges","time":"2026-11-21T10:10:01Z"}

            """
        let path = directory.path("changes.ndjson")
        let result = try await SyncmonProcess.run(["replay", "-", "--changes", path], input: Data(stream.utf8))
        #expect(result.status == 0, "\(result.standardError)")
        let lines = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        let moves = lines.compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return "\(object["time"] ?? "") \(object["from"] as? String ?? "-")>\(object["to"] ?? "") \(object["stalled"] ?? "")"
        }
        #expect(moves.contains { $0.hasPrefix("2026-11-21T10:05:01Z in_progress>stalled") }, "\(lines)")
        #expect(moves.last?.contains(">succeeded") == true, "\(lines)")
        // Without --changes the same stream shows only its healthy end.
        let plain = try await SyncmonProcess.run(["replay", "-", "--json"], input: Data(stream.utf8))
        #expect(plain.standardOutput.contains("\"succeeded\""))
    }

    @Test("an empty stream has no rows: exit 3")
    func empty() async throws {
        let result = try await SyncmonProcess.run(["replay", "-"], input: Data())
        #expect(result.status == 3)
        #expect(result.standardOutput.contains("No engines tracked"))
    }

    @Test("a missing file is reported with exit 4")
    func missingFile() async throws {
        let result = try await SyncmonProcess.run(["replay", "/nonexistent/stream.jsonl"])
        #expect(result.status == 4)
        #expect(result.standardError.contains("cannot open /nonexistent/stream.jsonl"))
    }

    @Test("a bad duration is a usage error")
    func badDuration() async throws {
        let result = try await SyncmonProcess.run(["replay", "-", "--advance", "soon"], input: Data())
        #expect(result.status == 64)
        #expect(result.standardError.contains("--advance"))
    }

    @Test("--help explains the exit codes and thresholds")
    func help() async throws {
        let result = try await SyncmonProcess.run(["replay", "--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("--not-syncing-after"))
        #expect(result.standardOutput.contains("Nagios convention"))
        #expect(result.standardOutput.contains("--no-recent-import-after"))
    }
}
