import Logging
import Testing

@testable import SyncmonSystemd

/// The stderr line format: `LEVEL message key=value …`.
@Suite("logfmt lines")
struct LogfmtFormatterTests {
    @Test("level, message, then metadata in key order")
    func basicLine() {
        let line = LogfmtFormatter.line(
            level: .warning,
            message: "Stall raised",
            metadata: ["syncmon.stall_reason": "no_progress", "syncmon.engine": "notes"]
        )
        #expect(line == "WARNING Stall raised syncmon.engine=notes syncmon.stall_reason=no_progress")
    }

    @Test(
        "level names",
        arguments: [
            (Logger.Level.trace, "TRACE"), (.debug, "DEBUG"), (.info, "INFO"), (.notice, "NOTICE"),
            (.warning, "WARNING"), (.error, "ERROR"), (.critical, "CRITICAL"),
        ]
    )
    func levelNames(level: Logger.Level, name: String) {
        #expect(LogfmtFormatter.line(level: level, message: "m", metadata: [:]) == "\(name) m")
    }

    @Test(
        "values are quoted when they contain spaces, =, quotes or control characters",
        arguments: [
            ("plain", "plain"),
            ("two words", "\"two words\""),
            ("", "\"\""),
            ("a=b", "\"a=b\""),
            ("say \"hi\"", "\"say \\\"hi\\\"\""),
            ("back\\slash", "back\\slash"),
            ("back\\slash and space", "\"back\\\\slash and space\""),
            ("line\nbreak", "\"line\\nbreak\""),
            ("tab\there", "\"tab\\there\""),
            ("bell\u{07}", "\"bell\\u0007\""),
            ("ünïcödé", "ünïcödé"),
            ("no\u{00A0}break", "\"no\u{00A0}break\""),
            ("ideographic\u{3000}space", "\"ideographic\u{3000}space\""),
            ("del\u{7F}", "\"del\\u007f\""),
        ]
    )
    func valueQuoting(value: String, rendered: String) {
        #expect(LogfmtFormatter.value(value) == rendered)
    }

    @Test("a multi-line message stays on one line")
    func multiLineMessage() {
        let line = LogfmtFormatter.line(level: .error, message: "first\nsecond\r\n", metadata: ["k": "v\nw"])
        #expect(line == "ERROR first\\nsecond\\r\\n k=\"v\\nw\"")
        #expect(!line.contains("\n"))
    }

    @Test("keys with characters that would split them are repaired", arguments: [("a b", "a_b"), ("k=v", "k_v"), ("", "_")])
    func keys(key: String, rendered: String) {
        #expect(LogfmtFormatter.key(key) == rendered)
    }

    @Test("nested metadata is printed the way swift-log prints it")
    func nestedValues() {
        let line = LogfmtFormatter.line(level: .info, message: "m", metadata: ["list": ["a", "b"]])
        #expect(line == #"INFO m list="[\"a\", \"b\"]""#)
    }
}
