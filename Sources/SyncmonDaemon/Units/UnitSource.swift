import Logging
import NIOPosix
import SyncmonAdapters
import SyncmonCore
import SyncmonLock
import SyncmonRules
import SyncmonSystemd

#if canImport(Glibc)
import Glibc
#endif

/// A `unit:` source (docs/systemd-units.md): a service systemd runs, followed
/// through the system bus and, with rules, through its journal.
///
/// One thread of its own does all the I/O, since sd-bus and sd-journal are blocking and not
/// thread-safe: it subscribes to systemd, reads the unit's properties, then waits on the bus's
/// and the journal's descriptors (no polling) and hands what `UnitTracker` and the rules make of
/// them to the state model. A bus that goes away (dbus restarted, systemd reexecuted) is opened
/// again with backoff, subscribed again and the unit read again.
struct UnitSource: EventSource {
    /// The configured unit: a `.service`, or a `.timer` whose service is followed.
    let unit: String
    let database: Database
    let phases: [Phase]
    /// The rules for the unit's journal, if any; a rules file's are swapped on SIGHUP.
    let rules: UnitRules?
    /// Where the service's automatic restarts are counted (`syncmon_unit_restarts_total`).
    let restarts: UnitRestartCounter

    func run(in context: SourceContext) async {
        // Written once to stop the thread, which waits on it beside the bus and the journal.
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            context.health.disconnected("pipe: \(String(cString: strerror(errno)))", retryIn: nil)
            return
        }
        let (wake, waker) = (ends[0], ends[1])
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        await withTaskCancellationHandler {
            _ = try? await pool.runIfActive { UnitFollower(source: self, context: context, wake: wake, clock: context.clock).run() }
        } onCancel: {
            var one: UInt8 = 1
            _ = write(waker, &one, 1)
        }
        try? await pool.shutdownGracefully()
        close(wake)
        close(waker)
    }
}

/// The `syncmon_unit_restarts_total` counts, per pair: one per daemon, in its source registry.
public final class UnitRestartCounter: Sendable {
    private let counts = Locked<[PairKey: UInt64]>([:])

    public init() {}

    func add(_ count: Int, for pair: PairKey) {
        self.counts.withLock { $0[pair, default: 0] += UInt64(count) }
    }

    /// Every pair's count.
    public func samples() -> [(pair: PairKey, restarts: UInt64)] {
        self.counts.withLock { $0.map { ($0.key, $0.value) } }
    }
}

/// The saved journal position of a `unit:` source with rules.
struct JournalCursorDocument: Codable, Equatable, Sendable {
    var version = 1
    var unit: String
    var cursor: String
}
