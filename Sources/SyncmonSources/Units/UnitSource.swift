import Logging
import SyncmonAdapters
import SyncmonContract
import SyncmonCore
import SyncmonLock
import SyncmonRules
import SyncmonSystemd

#if canImport(Glibc)
import Glibc
#endif

/// A `unit:` source (docs/systemd-units.md): a service systemd runs, followed
/// through its manager's bus (the system's, or a user manager's) and, with rules, through its journal.
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
    /// The manager that runs the unit: the system's, or a user's (docs/user-sessions.md).
    let manager: SystemdManager
    /// Where the service's automatic restarts are counted (`syncmon_unit_restarts_total`).
    let restarts: UnitRestartCounter
    /// How the manager's bus is opened: systemd's, unless a test scripts one.
    var connect: UnitManagerConnector = { manager throws(SystemdError) in try SystemdBus(manager: manager) }

    func run(in context: SourceContext) async {
        let thread: BlockingThread
        do {
            thread = try BlockingThread()
        } catch {
            context.health.disconnected(error.description, retryIn: nil)
            return
        }
        _ = await thread.run { wake in UnitFollower(source: self, context: context, wake: wake, clock: context.clock).run() }
        await thread.stop()
    }
}

/// The `syncmon_unit_restarts_total` counts, per pair: one per daemon, in its source registry.
package final class UnitRestartCounter: Sendable {
    private let counts = Locked<[PairKey: UInt64]>([:])

    package init() {}

    func add(_ count: Int, for pair: PairKey) {
        self.counts.withLock { $0[pair, default: 0] += UInt64(count) }
    }

    /// Every pair's count.
    package func samples() -> [(pair: PairKey, restarts: UInt64)] {
        self.counts.withLock { $0.map { ($0.key, $0.value) } }
    }
}

/// The saved journal position of a `unit:` source with rules.
struct JournalCursorDocument: Codable, Equatable, Sendable {
    var version = 1
    var unit: String
    var cursor: String
}
