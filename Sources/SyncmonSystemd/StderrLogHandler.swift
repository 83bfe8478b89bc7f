import Logging

/// A swift-log handler that writes one logfmt line per statement to stderr: `LEVEL message key=value …`.
///
/// This is the handler when journald is not there (a container, a terminal), and the fallback of
/// ``JournaldLogHandler``. No timestamp or syslog `<N>` prefix: whatever collects stderr adds its own.
public struct StderrLogHandler: LogHandler {
    /// The logger's label; stderr lines do not show it, it names the handler for debugging.
    public let label: String

    /// Metadata attached to every statement of this logger.
    public var metadata: Logger.Metadata = [:]

    /// Contextual metadata, read at each statement.
    public var metadataProvider: Logger.MetadataProvider?

    /// The lowest level this logger writes.
    public var logLevel: Logger.Level

    /// Where the lines go.
    private let writer: any LogLineWriter

    /// Creates a handler writing to the process's stderr.
    ///
    /// - Parameters:
    ///   - label: The logger's label.
    ///   - logLevel: The lowest level written.
    ///   - metadataProvider: Contextual metadata; defaults to the one given to `LoggingSystem.bootstrap`.
    public init(
        label: String,
        logLevel: Logger.Level = .info,
        metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider
    ) {
        self.init(
            label: label,
            logLevel: logLevel,
            metadataProvider: metadataProvider,
            writer: FileDescriptorLineWriter.standardError
        )
    }

    /// Creates a handler writing to `writer`; tests pass an in-memory one.
    package init(
        label: String,
        logLevel: Logger.Level,
        metadataProvider: Logger.MetadataProvider?,
        writer: any LogLineWriter
    ) {
        self.label = label
        self.logLevel = logLevel
        self.metadataProvider = metadataProvider
        self.writer = writer
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
        self.writer.write(line: LogfmtFormatter.line(level: event.level, message: "\(event.message)", metadata: metadata))
    }
}
