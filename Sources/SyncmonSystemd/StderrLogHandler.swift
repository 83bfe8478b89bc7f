import Logging

/// A swift-log handler that writes one line per statement to stderr, in the ``LogFormat`` asked
/// for: the line a person reads (``TerminalLogFormatter``, the default) or logfmt with every
/// field for a machine (``LogfmtFormatter``).
///
/// This is the handler when journald is not there (a container, a terminal), and the fallback of
/// ``JournaldLogHandler``.
public struct StderrLogHandler: LogHandler {
    /// The logger's label; stderr lines do not show it, it names the handler for debugging.
    public let label: String

    /// Metadata attached to every statement of this logger.
    public var metadata: Logger.Metadata = [:]

    /// Contextual metadata, read at each statement.
    public var metadataProvider: Logger.MetadataProvider?

    /// The lowest level this logger writes. At `debug` and `trace` a text line shows every field too.
    public var logLevel: Logger.Level

    /// How lines read.
    public let format: LogFormat

    /// The process's shared level, when a ``LogHandlerFactory`` made this handler: whether a text
    /// line shows every field follows it (this handler's own `logLevel` is then `trace`, the
    /// filtering done by ``SharedLevelLogHandler``).
    public let verbosity: SharedLogLevel?

    /// Where the lines go.
    private let writer: any LogLineWriter

    /// The time of each statement.
    private let clock: @Sendable () -> LogTime

    /// Creates a handler writing to the process's stderr.
    ///
    /// - Parameters:
    ///   - label: The logger's label.
    ///   - logLevel: The lowest level written.
    ///   - format: How lines read.
    ///   - metadataProvider: Contextual metadata; defaults to the one given to `LoggingSystem.bootstrap`.
    public init(
        label: String,
        logLevel: Logger.Level = .info,
        format: LogFormat = .text,
        verbosity: SharedLogLevel? = nil,
        metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider
    ) {
        self.init(
            label: label,
            logLevel: logLevel,
            format: format,
            verbosity: verbosity,
            metadataProvider: metadataProvider,
            writer: FileDescriptorLineWriter.standardError
        )
    }

    /// Creates a handler writing to `writer` with the time from `clock`; tests pass an in-memory
    /// writer and a fixed time.
    package init(
        label: String,
        logLevel: Logger.Level,
        format: LogFormat = .text,
        verbosity: SharedLogLevel? = nil,
        metadataProvider: Logger.MetadataProvider?,
        writer: any LogLineWriter,
        clock: @escaping @Sendable () -> LogTime = LogTime.now
    ) {
        self.label = label
        self.logLevel = logLevel
        self.format = format
        self.verbosity = verbosity
        self.metadataProvider = metadataProvider
        self.writer = writer
        self.clock = clock
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
        let time = self.clock()
        let message = "\(event.message)"
        switch self.format {
        case .text:
            let fields = (self.verbosity?.level ?? self.logLevel) <= .debug
            self.writer.write(line: TerminalLogFormatter.line(time: time, level: event.level, message: message, metadata: metadata, fields: fields))
        case .logfmt:
            self.writer.write(line: LogfmtFormatter.line(time: time, level: event.level, message: message, metadata: metadata))
        }
    }
}
