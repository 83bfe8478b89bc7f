import Logging
import Testing

@testable import SyncmonSystemd

/// The terminal log line (docs/operations.md, "Where logs go") and its time, with the time passed in.
@Suite("Terminal log line")
struct TerminalLogFormatterTests {
    static let time = LogTime(microsecondsSinceEpoch: 1_795_968_141_123_999)  // 2026-11-29T16:02:21.123999Z

    @Test(
        "time, level, the pair, the message",
        arguments: [
            (
                Logger.Level.warning, "a/shared: sync stalled (no_progress)", ["syncmon.engine": "a", "syncmon.database": "shared"],
                "2026-11-29T16:02:21.123Z warning a/shared: sync stalled (no_progress)"
            ),
            (
                .notice, "stall cleared (no_progress)", ["syncmon.engine": "a", "syncmon.database": "shared"],
                "2026-11-29T16:02:21.123Z notice a/shared: stall cleared (no_progress)"
            ),
            (.info, "subscribe source st: connected", [:], "2026-11-29T16:02:21.123Z info subscribe source st: connected"),
            (.error, "forbidden", ["syncmon.engine": "photos"], "2026-11-29T16:02:21.123Z error photos: forbidden"),
            (.critical, "two\nlines\u{1B}[2J", [:], "2026-11-29T16:02:21.123Z critical two\\nlines\\u001b[2J"),
            (
                .error, "configuration reload failed", ["syncmon.reason": "line 3: unknown key x", "syncmon.config_path": "/etc/s"],
                "2026-11-29T16:02:21.123Z error configuration reload failed (line 3: unknown key x)"
            ),
            (
                .info, "serving HTTP", ["syncmon.listen": "127.0.0.1:9478", "syncmon.basic_auth": "false"],
                "2026-11-29T16:02:21.123Z info serving HTTP (127.0.0.1:9478)"
            ),
            (
                .warning, "state file /s/state.json is corrupt",
                ["syncmon.state_path": "/s/state.json", "syncmon.set_aside_path": "/s/bad", "syncmon.reason": "bad JSON in /s/bad"],
                "2026-11-29T16:02:21.123Z warning state file /s/state.json is corrupt (bad JSON in /s/bad)"
            ),
            // A source's entry names the source as a pair's names the pair, and says where and why.
            (
                .notice, "subscribe source connected", ["syncmon.source": "st", "syncmon.endpoint": "http://127.0.0.1:8384"],
                "2026-11-29T16:02:21.123Z notice st: subscribe source connected (http://127.0.0.1:8384)"
            ),
            (
                .warning, "subscribe source disconnected; retrying",
                ["syncmon.source": "st", "syncmon.reason": "connection refused", "syncmon.retry_seconds": "1.0"],
                "2026-11-29T16:02:21.123Z warning st: subscribe source disconnected; retrying (connection refused)"
            ),
            (
                .notice, "subscribe source file truncated; reading it from the start",
                ["syncmon.source": "events", "syncmon.source_path": "/var/log/e.jsonl"],
                "2026-11-29T16:02:21.123Z notice events: subscribe source file truncated; reading it from the start (/var/log/e.jsonl)"
            ),
            (
                .warning, "canary peer late",
                [
                    "syncmon.engine": "a", "syncmon.database": "shared", "syncmon.canary_peer": "host-b",
                    "syncmon.canary_rule": "its canary has not moved", "syncmon.canary_path": "/srv/a",
                ],
                "2026-11-29T16:02:21.123Z warning a/shared: canary peer late (host-b, its canary has not moved)"
            ),
            (
                .warning, "canary error",
                ["syncmon.engine": "a", "syncmon.database": "shared", "syncmon.canary_error": "write", "syncmon.reason": "/srv/a: Read-only file system"],
                "2026-11-29T16:02:21.123Z warning a/shared: canary error (write, /srv/a: Read-only file system)"
            ),
        ] as [(Logger.Level, String, Logger.Metadata, String)])
    func line(level: Logger.Level, message: String, metadata: Logger.Metadata, expected: String) {
        let line = TerminalLogFormatter.line(time: Self.time, level: level, message: message, metadata: metadata)
        #expect(line == expected)
    }

    @Test("a normal entry is at most 100 characters; a huge message is cut, and stays one line")
    func length() {
        let stall = TerminalLogFormatter.line(
            time: Self.time, level: .warning, message: "syncthing/photos-2026: sync stalled (was in_progress)",
            metadata: ["syncmon.engine": "syncthing", "syncmon.database": "photos-2026", "syncmon.summary": "stalled"])
        #expect(stall.count <= 100, "\(stall.count): \(stall)")
        let huge = TerminalLogFormatter.line(time: Self.time, level: .error, message: String(repeating: "x\n", count: 32_768), metadata: [:])
        #expect(!huge.contains("\n"))
        #expect(huge.count <= 24 + 7 + TerminalLogFormatter.maximumMessageCharacters)
        #expect(huge.hasSuffix("…"))
    }

    @Test("with fields (debug): every field after the message, as logfmt")
    func fields() {
        let line = TerminalLogFormatter.line(
            time: Self.time, level: .debug, message: "a/private: sync in_progress",
            metadata: ["syncmon.engine": "a", "syncmon.database": "private", "x": "two words"],
            fields: true)
        #expect(line == "2026-11-29T16:02:21.123Z debug a/private: sync in_progress syncmon.database=private syncmon.engine=a x=\"two words\"")
    }

    @Test(
        "RFC 3339 in UTC with milliseconds, on any day",
        arguments: [
            (Int64(0), "1970-01-01T00:00:00.000Z"),
            (1_795_968_141_123_999, "2026-11-29T16:02:21.123Z"),
            (951_782_400_000_000, "2000-02-29T00:00:00.000Z"),
            (4_107_542_399_999_000, "2100-02-28T23:59:59.999Z"),
            (-1_000, "1969-12-31T23:59:59.999Z"),
        ])
    func rfc3339(microseconds: Int64, expected: String) {
        #expect(LogTime(microsecondsSinceEpoch: microseconds).rfc3339 == expected)
    }
}
