import Logging

/// A handler whose level is the process's ``SharedLogLevel`` unless the logger sets its own:
/// wraps the journald or stderr handler, which then writes whatever it is handed.
public struct SharedLevelLogHandler: LogHandler {
    /// The handler that writes.
    public var inner: any LogHandler
    /// The level shared by every handler of the factory.
    public let shared: SharedLogLevel
    /// Set when code sets `logger.logLevel` on one logger: that logger keeps its own.
    private var ownLevel: Logger.Level?

    public init(inner: any LogHandler, shared: SharedLogLevel) {
        var inner = inner
        inner.logLevel = .trace
        self.inner = inner
        self.shared = shared
    }

    public var logLevel: Logger.Level {
        get { self.ownLevel ?? self.shared.level }
        set { self.ownLevel = newValue }
    }

    public var metadata: Logger.Metadata {
        get { self.inner.metadata }
        set { self.inner.metadata = newValue }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { self.inner.metadataProvider }
        set { self.inner.metadataProvider = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { self.inner[metadataKey: key] }
        set { self.inner[metadataKey: key] = newValue }
    }

    public func log(event: LogEvent) {
        self.inner.log(event: event)
    }
}
