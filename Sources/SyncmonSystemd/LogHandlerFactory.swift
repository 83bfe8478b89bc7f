import Logging

/// Makes the log handler for each logger, for the executable's single `LoggingSystem.bootstrap` call.
///
/// The destination is resolved once, when the factory is made, so every logger of the process writes to the same
/// place even if the journal socket appears or disappears later. The level is shared by every
/// handler and may change while the process runs (``level``: a reload's `log-level`):
///
/// ```swift
/// let factory = LogHandlerFactory(target: .auto, logLevel: .info)
/// LoggingSystem.bootstrap(factory.makeHandler(label:metadataProvider:), metadataProvider: nil)
/// factory.level.level = .debug  // every logger, at once
/// ```
public struct LogHandlerFactory: Sendable {
    /// Where every handler made by this factory writes.
    public let destination: LogDestination

    /// The lowest level every handler made by this factory writes, changeable.
    public let level: SharedLogLevel

    /// The lowest level written now.
    public var logLevel: Logger.Level { self.level.level }

    /// Creates a factory for an already resolved destination.
    public init(destination: LogDestination, logLevel: Logger.Level) {
        self.destination = destination
        self.level = SharedLogLevel(logLevel)
    }

    /// Creates a factory for `target`, resolving `auto` against the current process environment.
    public init(target: LogTarget, logLevel: Logger.Level) {
        self.init(destination: target.resolveDestination(), logLevel: logLevel)
    }

    /// The handler for a logger called `label`, with the global metadata provider.
    public func makeHandler(label: String) -> any LogHandler {
        self.makeHandler(label: label, metadataProvider: LoggingSystem.metadataProvider)
    }

    /// The handler for a logger called `label`, with the given metadata provider.
    public func makeHandler(label: String, metadataProvider: Logger.MetadataProvider?) -> any LogHandler {
        let inner: any LogHandler
        switch self.destination {
        case .journald:
            inner = JournaldLogHandler(label: label, logLevel: .trace, metadataProvider: metadataProvider)
        case .stderr:
            inner = StderrLogHandler(label: label, logLevel: .trace, metadataProvider: metadataProvider)
        }
        return SharedLevelLogHandler(inner: inner, shared: self.level)
    }
}
