import Logging
import Testing

@testable import SyncmonSystemd

/// The two log handlers, with their output captured in memory.
@Suite("Log handlers")
struct LogHandlerTests {
    /// A logger over a stderr handler writing to `writer`.
    private func stderrLogger(_ writer: RecordingLineWriter, level: Logger.Level = .info) -> Logger {
        Logger(label: "syncmon.test") { label in
            StderrLogHandler(label: label, logLevel: level, metadataProvider: nil, writer: writer)
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
                "INFO Summary changed syncmon.engine=notes syncmon.summary=stalled",
                "ERROR Engine down note=\"two words\" syncmon.engine=notes",
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
        #expect(writer.lines == ["INFO one a=1", "ERROR two"])
    }
}
