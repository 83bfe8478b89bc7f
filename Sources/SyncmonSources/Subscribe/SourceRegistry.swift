import Logging
import SyncmonContract
import SyncmonCore
import SyncmonLock
import SyncmonSystemd

/// The subscribe sources' health, for `syncmon_source_up` and `syncmon_source_reconnects_total`.
///
/// Created with the configured sources (so every source has its series from the start, `up` 0
/// until it connects); each source's service reports into its ``SourceHealth``.
package final class SourceRegistry: Sendable {
    /// One source's series.
    package struct Sample: Sendable, Equatable {
        package var name: String
        package var up: Bool
        package var reconnects: UInt64
    }

    package let sources: [SourceHealth]
    /// The `unit:` sources' restarts (`syncmon_unit_restarts_total`), counted by the sources.
    package let unitRestarts = UnitRestartCounter()

    /// - Parameters:
    ///   - sources: each source's name and kind (`SourceSpec.Endpoint.kind`), in configuration order.
    ///   - clock: what a state change is timed with, for the status document's `since`.
    package init(sources: [(name: String, kind: String)], clock: any ServiceClock, logger: Logger) {
        let start = clock.wallTime()
        self.sources = sources.map { SourceHealth(name: $0.name, kind: $0.kind, clock: clock, start: start, logger: logger) }
    }

    /// An empty registry (no `--subscribe`).
    package static let none = SourceRegistry(sources: [], clock: SystemServiceClock(), logger: Logger(label: "syncmon.subscribe"))

    /// The current values, in configuration order.
    package func samples() -> [Sample] {
        self.sources.map { $0.sample() }
    }

    /// Every source as the status document shows it, in configuration order; with `engine`,
    /// only the source of that name (a Syncthing source's engine).
    package func statuses(engine: String? = nil) -> [SourceStatus] {
        self.sources.filter { engine == nil || $0.name == engine }.map { $0.status() }
    }

    package func health(named name: String) -> SourceHealth? {
        self.sources.first { $0.name == name }
    }
}

/// One source's state: connected or not, reconnect count, and one log entry per state change
/// (MESSAGE_ID `sourceStateChanged`, fields `SYNCMON_SOURCE`, `SYNCMON_SOURCE_STATE`).
package final class SourceHealth: Sendable {
    /// What the log, `syncmon_source_up` and the status document say: one vocabulary.
    package typealias State = SourceStatus.State

    /// What the lock protects.
    private struct Record {
        var state = State.starting
        var reconnects: UInt64 = 0
        /// The reason last logged for `disconnected`; `nil` while connected.
        var reason: String?
        /// When `state` began.
        var since: Timestamp
        /// The latest failure, kept once connected again.
        var lastError: String?
    }

    package let name: String
    /// `syncthing`, `http`, `unix`, `file` or `unit`.
    package let kind: String
    private let clock: any ServiceClock
    private let logger: Logger
    private let state: Locked<Record>

    init(name: String, kind: String, clock: any ServiceClock, start: Timestamp, logger: Logger) {
        self.name = name
        self.kind = kind
        self.clock = clock
        self.logger = logger
        self.state = Locked(Record(since: start))
    }

    package var current: State { self.state.withLock { $0.state } }

    func sample() -> SourceRegistry.Sample {
        self.state.withLock { SourceRegistry.Sample(name: self.name, up: $0.state == .connected, reconnects: $0.reconnects) }
    }

    /// The source as the status document shows it.
    func status() -> SourceStatus {
        self.state.withLock { record in
            SourceStatus(name: self.name, kind: self.kind, state: record.state, since: record.since, lastError: record.lastError, reconnects: record.reconnects)
        }
    }

    /// Counts one more connection attempt after the first.
    func countReconnect() {
        self.state.withLock { $0.reconnects += 1 }
    }

    /// Moves to `connected`; logs when that is a change.
    func connected(_ detail: String) {
        self.transition(to: .connected, level: .notice, message: "subscribe source connected", reason: nil, [SyncmonMetadataKey.endpoint: "\(detail)"])
    }

    /// Moves to `disconnected`; logs when that is a change (a source that keeps failing logs once).
    func disconnected(_ reason: String, retryIn seconds: Double?) {
        self.transition(
            to: .disconnected,
            level: .warning,
            message: seconds == nil ? "subscribe source disconnected" : "subscribe source disconnected; retrying",
            reason: reason,
            seconds.map { [SyncmonMetadataKey.retrySeconds: "\(Self.format($0))"] } ?? [:]
        )
    }

    private func transition(to new: State, level: Logger.Level, message: Logger.Message, reason: String?, _ extra: Logger.Metadata = [:]) {
        // A new reason is worth its own entry too: a Syncthing that refused connections and
        // now answers 403 (a wrong API key) must not keep showing "connection refused".
        let now = self.clock.wallTime()
        let changed = self.state.withLock { record -> Bool in
            if let reason { record.lastError = reason }
            guard record.state != new || record.reason != reason else { return false }
            if record.state != new { record.since = now }
            record.state = new
            record.reason = reason
            return true
        }
        var metadata: Logger.Metadata = [
            SyncmonMetadataKey.messageID: MessageID.sourceStateChanged.metadataValue,
            SyncmonMetadataKey.source: "\(self.name)",
            SyncmonMetadataKey.sourceState: "\(new.rawValue)",
        ]
        if let reason { metadata[SyncmonMetadataKey.reason] = "\(reason)" }
        metadata.merge(extra) { $1 }
        self.logger.log(level: changed ? level : .debug, message, metadata: metadata)
    }

    /// Seconds with one decimal: `1.5`.
    static func format(_ seconds: Double) -> String {
        let tenths = (seconds * 10).rounded()
        return "\(Int(tenths) / 10).\(Int(tenths) % 10)"
    }
}
