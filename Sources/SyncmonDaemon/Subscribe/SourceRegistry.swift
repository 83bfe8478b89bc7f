import Logging
import SyncmonLock
import SyncmonSystemd

/// The subscribe sources' health, for `syncmon_source_up` and `syncmon_source_reconnects_total`.
///
/// Created with the configured sources (so every source has its series from the start, `up` 0
/// until it connects); each source's service reports into its ``SourceHealth``.
public final class SourceRegistry: Sendable {
    /// One source's series.
    public struct Sample: Sendable, Equatable {
        public var name: String
        public var up: Bool
        public var reconnects: UInt64
    }

    public let sources: [SourceHealth]
    /// The `unit:` sources' restarts (`syncmon_unit_restarts_total`), counted by the sources.
    public let unitRestarts = UnitRestartCounter()

    public init(names: [String], logger: Logger) {
        self.sources = names.map { SourceHealth(name: $0, logger: logger) }
    }

    /// An empty registry (no `--subscribe`).
    public static let none = SourceRegistry(names: [], logger: Logger(label: "syncmon.subscribe"))

    /// The current values, in configuration order.
    public func samples() -> [Sample] {
        self.sources.map { $0.sample() }
    }

    public func health(named name: String) -> SourceHealth? {
        self.sources.first { $0.name == name }
    }
}

/// One source's state: connected or not, reconnect count, and one log entry per state change
/// (MESSAGE_ID `sourceStateChanged`, fields `SYNCMON_SOURCE`, `SYNCMON_SOURCE_STATE`).
public final class SourceHealth: Sendable {
    /// What the log and `syncmon_source_up` say.
    public enum State: String, Sendable {
        /// Not tried yet (never logged).
        case starting
        /// Connected (for files: the file is open and being read).
        case connected
        /// Not connected; retrying with backoff.
        case disconnected
    }

    public let name: String
    private let logger: Logger
    /// The state, the reconnect count, and the reason last logged for `disconnected`.
    private let state = Locked<(state: State, reconnects: UInt64, reason: String?)>((.starting, 0, nil))

    init(name: String, logger: Logger) {
        self.name = name
        self.logger = logger
    }

    public var current: State { self.state.withLock { $0.state } }

    func sample() -> SourceRegistry.Sample {
        self.state.withLock { SourceRegistry.Sample(name: self.name, up: $0.state == .connected, reconnects: $0.reconnects) }
    }

    /// Counts one more connection attempt after the first.
    func countReconnect() {
        self.state.withLock { $0.reconnects += 1 }
    }

    /// Moves to `connected`; logs when that is a change.
    func connected(_ detail: String) {
        self.transition(to: .connected, level: .notice, message: "subscribe source \(self.name): connected (\(detail))", reason: nil)
    }

    /// Moves to `disconnected`; logs when that is a change (a source that keeps failing logs once).
    func disconnected(_ reason: String, retryIn seconds: Double?) {
        let retry = seconds.map { "; retrying in \(Self.format($0))" } ?? ""
        self.transition(
            to: .disconnected,
            level: .warning,
            message: "subscribe source \(self.name): disconnected (\(reason))\(retry)",
            reason: reason
        )
    }

    private func transition(to new: State, level: Logger.Level, message: String, reason: String?) {
        // A new reason is worth its own entry too: a Syncthing that refused connections and
        // now answers 403 (a wrong API key) must not keep showing "connection refused".
        let changed = self.state.withLock { state -> Bool in
            guard state.state != new || state.reason != reason else { return false }
            state.state = new
            state.reason = reason
            return true
        }
        var metadata: Logger.Metadata = [
            SyncmonMetadataKey.messageID: MessageID.sourceStateChanged.metadataValue,
            SyncmonMetadataKey.source: "\(self.name)",
            SyncmonMetadataKey.sourceState: "\(new.rawValue)",
        ]
        if let reason { metadata[SyncmonMetadataKey.reason] = "\(reason)" }
        if changed {
            self.logger.log(level: level, "\(message)", metadata: metadata)
        } else {
            self.logger.debug("\(message)", metadata: metadata)
        }
    }

    static func format(_ seconds: Double) -> String {
        let tenths = (seconds * 10).rounded()
        return "\(Int(tenths) / 10).\(Int(tenths) % 10) s"
    }
}
