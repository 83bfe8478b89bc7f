import Logging

/// A swift-log handler that writes structured entries to journald over its native protocol.
///
/// Each statement becomes one entry (see ``JournalEntry``): metadata keys become `SYNCMON_*` fields, `message_id`
/// becomes `MESSAGE_ID`. When journald cannot take an entry (not running, socket gone), the line is written to stderr
/// in the ``StderrLogHandler`` format instead, after a one-time warning, so no line is lost.
public struct JournaldLogHandler: LogHandler {
    /// The logger's label, sent as `SYNCMON_LOGGER`.
    public let label: String

    /// The program name sent as `SYSLOG_IDENTIFIER`.
    public let syslogIdentifier: String

    /// Metadata attached to every statement of this logger.
    public var metadata: Logger.Metadata = [:]

    /// Contextual metadata, read at each statement.
    public var metadataProvider: Logger.MetadataProvider?

    /// The lowest level this logger writes.
    public var logLevel: Logger.Level

    /// Where entries go.
    private let sink: any JournalSink

    /// Where lines go when the sink fails.
    private let fallback: any LogLineWriter

    /// Whether the sink is failing, shared so the fallback warning is written once per outage.
    private let failures: JournalFailureTracker

    /// Creates a handler that sends to the local journald and falls back to stderr.
    ///
    /// - Parameters:
    ///   - label: The logger's label.
    ///   - logLevel: The lowest level written.
    ///   - syslogIdentifier: The program name of every entry.
    ///   - metadataProvider: Contextual metadata; defaults to the one given to `LoggingSystem.bootstrap`.
    public init(
        label: String,
        logLevel: Logger.Level = .info,
        syslogIdentifier: String = JournalEntry.defaultSyslogIdentifier,
        metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider
    ) {
        self.init(
            label: label,
            logLevel: logLevel,
            syslogIdentifier: syslogIdentifier,
            metadataProvider: metadataProvider,
            sink: NativeJournalSink(),
            fallback: FileDescriptorLineWriter.standardError,
            failures: .shared
        )
    }

    /// Creates a handler with its collaborators given; tests pass a failing sink and an in-memory fallback.
    package init(
        label: String,
        logLevel: Logger.Level,
        syslogIdentifier: String,
        metadataProvider: Logger.MetadataProvider?,
        sink: any JournalSink,
        fallback: any LogLineWriter,
        failures: JournalFailureTracker
    ) {
        self.label = label
        self.logLevel = logLevel
        self.syslogIdentifier = syslogIdentifier
        self.metadataProvider = metadataProvider
        self.sink = sink
        self.fallback = fallback
        self.failures = failures
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { self.metadata[key] }
        set { self.metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let metadata = MetadataMerger.merge(
            handler: self.metadata,
            provider: self.metadataProvider,
            statement: event.metadata,
            error: event.error
        )
        let message = "\(event.message)"
        let entry = JournalEntry(
            level: event.level,
            message: message,
            metadata: metadata,
            label: self.label,
            file: event.file,
            function: event.function,
            line: event.line,
            syslogIdentifier: self.syslogIdentifier
        )
        do {
            try self.sink.send(entry)
            self.failures.recordSuccess()
        } catch {
            if self.failures.recordFailure() {
                self.fallback.write(
                    line: LogfmtFormatter.line(
                        level: .warning,
                        message: "journald unavailable, logging to stderr until it is back",
                        metadata: ["error.message": "\(error)"]
                    )
                )
            }
            self.fallback.write(line: LogfmtFormatter.line(level: event.level, message: message, metadata: metadata))
        }
    }
}
