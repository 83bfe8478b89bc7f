import Logging
import Synchronization

/// The log level every handler of a ``LogHandlerFactory`` reads, changeable while the process
/// runs: a reload (SIGHUP) that changes `log-level` sets it here and every logger follows at once.
///
/// An atomic, not a lock: swift-log asks for the level before every statement, on every thread,
/// including the event hot path's `debug` lines.
public final class SharedLogLevel: Sendable {
    private let storage: Atomic<Int>

    public init(_ level: Logger.Level) {
        self.storage = Atomic(Self.index(of: level))
    }

    /// The level handlers write from.
    public var level: Logger.Level {
        get { Logger.Level.allCases[self.storage.load(ordering: .relaxed)] }
        set { self.storage.store(Self.index(of: newValue), ordering: .relaxed) }
    }

    private static func index(of level: Logger.Level) -> Int {
        Logger.Level.allCases.firstIndex(of: level) ?? 0
    }
}
