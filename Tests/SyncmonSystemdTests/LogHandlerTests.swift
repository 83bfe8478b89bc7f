import Logging
import Testing

@testable import SyncmonSystemd

/// The two log handlers, with their output captured in memory.
@Suite("Log handlers")
struct LogHandlerTests {
    /// A logger over a stderr handler writing to `writer`.
    private func stderrLogger(_ writer: RecordingLineWriter, level: Logger.Level = .info, format: LogFormat = .logfmt) -> Logger {
        Logger(label: "syncmon.test") { label in
            StderrLogHandler(
                label: label, logLevel: level, format: format, metadataProvider: nil, writer: writer,
                clock: { LogTime(microsecondsSinceEpoch: 1_795_262_400_123_456) })
        }
    }

    /// A logger over a journald handler sending to `sink` and falling back to `fallback`.
    private func journaldLogger(
        sink: RecordingJournalSink,
        fallback: RecordingLineWriter,
        failures: JournalFailureTracker = JournalFailureTracker()
    ) -> Logger {
        Logger(label: "syncmon.test") { label in
            JournaldLogHandler(
                label: label,
                logLevel: .trace,
                syslogIdentifier: "syncmon",
                metadataProvider: nil,
                sink: sink,
                fallback: fallback,
                failures: failures
            )
        }
    }

    @Test("stderr, text: time, level, pair and message; the fields only at debug")
    func stderrText() {
        let writer = RecordingLineWriter()
        var logger = self.stderrLogger(writer, format: .text)
        logger[metadataKey: "syncmon.engine"] = "a"
        logger.warning("a/shared: sync stalled (no_progress)", metadata: ["syncmon.database": "shared", "message_id": "fa96"])
        logger.info("first seen", metadata: ["syncmon.database": "shared"])
        let debug = self.stderrLogger(writer, level: .debug, format: .text)
        debug.debug("cycle", metadata: ["syncmon.engine": "a", "syncmon.phase": "import"])
        #expect(
            writer.lines == [
                "2026-11-21T12:00:00.123Z warning a/shared: sync stalled (no_progress)",
                "2026-11-21T12:00:00.123Z info a/shared: first seen",
                "2026-11-21T12:00:00.123Z debug a: cycle syncmon.engine=a syncmon.phase=import",
            ]
        )
        #expect(writer.lines.allSatisfy { $0.count <= 100 })
    }

    @Test("stderr, logfmt: the time, level, message and every field, as logfmt")
    func stderrLogfmt() {
        let writer = RecordingLineWriter()
        let logger = self.stderrLogger(writer)
        logger.warning("a/shared: stalled (no_progress)", metadata: ["syncmon.engine": "a", "syncmon.stall_reason": "no_progress"])
        #expect(
            writer.lines == [
                "time=2026-11-21T12:00:00.123Z level=warning msg=\"a/shared: stalled (no_progress)\" syncmon.engine=a syncmon.stall_reason=no_progress"
            ]
        )
    }

    @Test("stderr: one logfmt line per statement, logger metadata included")
    func stderrLines() {
        let writer = RecordingLineWriter()
        var logger = self.stderrLogger(writer)
        logger[metadataKey: "syncmon.engine"] = "notes"
        logger.info("Summary changed", metadata: ["syncmon.summary": "stalled"])
        logger.debug("not written at info")
        logger.error("Engine down", metadata: ["note": "two words"])
        #expect(
            writer.lines == [
                "time=2026-11-21T12:00:00.123Z level=info msg=\"Summary changed\" syncmon.engine=notes syncmon.summary=stalled",
                "time=2026-11-21T12:00:00.123Z level=error msg=\"Engine down\" note=\"two words\" syncmon.engine=notes",
            ]
        )
    }

    @Test("journald: entries reach the sink with mapped fields and the caller's location")
    func journaldEntries() throws {
        let sink = RecordingJournalSink()
        let fallback = RecordingLineWriter()
        let logger = self.journaldLogger(sink: sink, fallback: fallback)
        logger.notice(
            "Stall cleared",
            metadata: [
                SyncmonMetadataKey.messageID: MessageID.stallCleared.metadataValue,
                SyncmonMetadataKey.engine: "notes",
            ]
        )
        let entry = try #require(sink.entries.first)
        #expect(sink.entries.count == 1)
        #expect(fallback.lines.isEmpty)
        #expect(entry.values(of: .message) == ["Stall cleared"])
        #expect(entry.values(of: .priority) == ["5"])
        #expect(entry.values(of: .messageID) == [MessageID.stallCleared.rawValue])
        #expect(entry.values(of: .syslogIdentifier) == ["syncmon"])
        #expect(entry.values(of: .loggerLabel) == ["syncmon.test"])
        #expect(entry.values(of: try #require(JournalFieldName("SYNCMON_ENGINE"))) == ["notes"])
        #expect(entry.values(of: .codeFile) == [#fileID])
        #expect(entry.values(of: .codeFunction) == [#function])
        #expect(entry.values(of: .codeLine).count == 1)
    }

    @Test("journald unavailable: every line goes to stderr, with one warning per outage")
    func journaldFallback() {
        let sink = RecordingJournalSink(failing: true)
        let fallback = RecordingLineWriter()
        let logger = self.journaldLogger(sink: sink, fallback: fallback)

        logger.info("first", metadata: ["syncmon.engine": "notes"])
        logger.info("second")
        sink.setFailing(false)
        logger.info("delivered")
        sink.setFailing(true)
        logger.error("third")

        #expect(sink.entries.map { $0.values(of: .message) } == [["delivered"]])
        let warning =
            "WARNING journald unavailable, logging to stderr until it is back "
            + "error.message=\"sd_journal_sendv: Connection refused\""
        #expect(
            fallback.lines == [
                warning,
                "INFO first syncmon.engine=notes",
                "INFO second",
                warning,
                "ERROR third",
            ]
        )
    }

    @Test("handlers keep metadata and level as values, per logger")
    func valueSemantics() {
        let writer = RecordingLineWriter()
        var first = self.stderrLogger(writer)
        var second = first
        first[metadataKey: "a"] = "1"
        second.logLevel = .error
        first.info("one")
        second.info("dropped")
        second.error("two")
        #expect(
            writer.lines == [
                "time=2026-11-21T12:00:00.123Z level=info msg=one a=1", "time=2026-11-21T12:00:00.123Z level=error msg=two",
            ])
    }
}
