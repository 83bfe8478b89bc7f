import Logging
import Testing

@testable import SyncmonSystemd

/// Building the journal entry of one log statement.
@Suite("Journal entries")
struct JournalEntryTests {
    @Test(
        "levels map to syslog priorities",
        arguments: [
            (Logger.Level.trace, 7), (.debug, 7), (.info, 6), (.notice, 5), (.warning, 4), (.error, 3), (.critical, 2),
        ]
    )
    func priorities(level: Logger.Level, priority: Int) {
        #expect(JournalPriority(level).rawValue == priority)
        let entry = JournalEntry(
            level: level, message: "m", metadata: [:], label: "l", file: "f", function: "g", line: 1
        )
        #expect(entry.values(of: .priority) == [String(priority)])
    }

    @Test("every entry carries the standard fields, then metadata in key order")
    func standardFields() {
        let entry = JournalEntry(
            level: .warning,
            message: "Stall raised",
            metadata: [
                SyncmonMetadataKey.stallReason: "no_progress",
                SyncmonMetadataKey.engine: "notes",
                SyncmonMetadataKey.messageID: MessageID.stallRaised.metadataValue,
                "attempts": .stringConvertible(3),
                "zones": .array(["a", "b"]),
            ],
            label: "syncmon.monitor",
            file: "SyncmonDaemon/Monitor.swift",
            function: "check()",
            line: 42
        )
        let rendered = entry.fields.map { "\($0.name)=\($0.value)" }
        #expect(
            rendered == [
                "MESSAGE=Stall raised",
                "PRIORITY=4",
                "SYSLOG_IDENTIFIER=syncmon",
                "CODE_FILE=SyncmonDaemon/Monitor.swift",
                "CODE_LINE=42",
                "CODE_FUNC=check()",
                "SYNCMON_LOGGER=syncmon.monitor",
                "SYNCMON_ATTEMPTS=3",
                "MESSAGE_ID=fa96c826969c42e1a0472e0a8517de3f",
                "SYNCMON_ENGINE=notes",
                "SYNCMON_STALL_REASON=no_progress",
                "SYNCMON_ZONES=[\"a\", \"b\"]",
            ]
        )
    }

    @Test("multi-line messages and values stay one field each, byte for byte")
    func multiLine() {
        let entry = JournalEntry(
            level: .error,
            message: "line one\nline two",
            metadata: ["detail": "a\nb"],
            label: "",
            file: "f",
            function: "g",
            line: 1,
            syslogIdentifier: "syncmon-test"
        )
        #expect(entry.values(of: .message) == ["line one\nline two"])
        #expect(entry.values(of: .syslogIdentifier) == ["syncmon-test"])
        #expect(entry.values(of: .loggerLabel).isEmpty)
        #expect(entry.encodedFields().first == Array("MESSAGE=line one\nline two".utf8))
        #expect(entry.encodedFields().last == Array("SYNCMON_DETAIL=a\nb".utf8))
    }

    @Test("unnameable metadata keys are left out")
    func unnameableKeys() throws {
        let entry = JournalEntry(
            level: .info, message: "m", metadata: ["...": "x", "ok": "y"], label: "", file: "f", function: "g", line: 1
        )
        #expect(entry.fields.count == 7)
        #expect(entry.values(of: try #require(JournalFieldName("SYNCMON_OK"))) == ["y"])
    }

    @Test("handler, provider and statement metadata merge with the statement winning; errors add two keys")
    func metadataMerge() {
        /// An error whose description becomes `error.message`.
        struct Failure: Error, CustomStringConvertible {
            var description: String { "disk full" }
        }
        let provider = Logger.MetadataProvider { ["request": "from-provider", "shared": "provider"] }
        let merged = MetadataMerger.merge(
            handler: ["shared": "handler", "handler": "yes"],
            provider: provider,
            statement: ["shared": "statement"],
            error: Failure()
        )
        #expect(merged["shared"] == "statement")
        #expect(merged["handler"] == "yes")
        #expect(merged["request"] == "from-provider")
        #expect(merged["error.message"] == "disk full")
        #expect(merged["error.type"]?.description.hasSuffix("Failure") == true)
    }
}
