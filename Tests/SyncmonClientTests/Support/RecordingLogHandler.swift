import Logging
import SyncmonLock

/// A swift-log handler that keeps every message (with its metadata) for assertions.
struct RecordingLogHandler: LogHandler {
    /// The recorded lines, shared by copies of the handler.
    final class Storage: Sendable {
        let lines = Locked<[String]>([])
    }

    let storage = Storage()
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { self.metadata[key] }
        set { self.metadata[key] = newValue }
    }

    /// Every message so far, as `LEVEL message key=value…` (keys sorted).
    var messages: [String] { self.storage.lines.withLock { $0 } }

    func log(event: LogEvent) {
        let all = self.metadata.merging(event.metadata ?? [:]) { $1 }
        let fields = all.keys.sorted().map { "\($0)=\(all[$0]!)" }.joined(separator: " ")
        self.storage.lines.withLock { $0.append("\(event.level) \(event.message) \(fields)") }
    }

    /// A logger writing to a fresh recording handler.
    static func logger() -> (logger: Logger, handler: RecordingLogHandler) {
        let handler = RecordingLogHandler()
        return (Logger(label: "test", factory: { _ in handler }), handler)
    }
}

/// A logger for tests whose clients' connection chatter is not under test: errors only.
let quietLogger: Logger = {
    var logger = Logger(label: "syncmon.client.test")
    logger.logLevel = .error
    return logger
}()
