import SyncmonLock
import SyncmonSystemd

@testable import SyncmonSources

#if canImport(Glibc)
import Glibc
#endif

/// A service manager's bus as a test scripts it: one unit whose properties the test sets, each
/// change handed to the follower as a `PropertiesChanged` and announced by a byte on a pipe that
/// stands for the bus's socket, so that the follower's poll wakes as it would for systemd.
final class ScriptedUnitBus: UnitManagerBus, @unchecked Sendable {
    static let path = "/org/freedesktop/systemd1/unit/scripted"
    static let unitInterface = "org.freedesktop.systemd1.Unit"

    private struct State {
        var properties: [String: BusValue]
        var pending: [SystemdBus.Change] = []
        /// Changes were handed out, or the poll woken, and the follower has not asked again
        /// since: it may still be acting on them.
        var handedOut = false
    }

    private let state: Locked<State>
    private let pipe: (read: Int32, write: Int32)

    /// A loaded unit with `properties` (ActiveState, SubState, Result, …).
    init(_ properties: [String: BusValue]) {
        self.state = Locked(State(properties: ["LoadState": .string("loaded")].merging(properties) { $1 }))
        var ends: [Int32] = [0, 0]
        precondition(Glibc.pipe(&ends) == 0, "pipe")
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        self.pipe = (ends[0], ends[1])
    }

    deinit {
        close(self.pipe.read)
        close(self.pipe.write)
    }

    /// The unit's properties change as systemd would signal them.
    func change(_ values: [String: BusValue]) {
        self.state.withLock {
            $0.properties.merge(values) { $1 }
            $0.pending.append(SystemdBus.Change(path: Self.path, interface: Self.unitInterface, values: values))
        }
        self.poke()
    }

    /// Whether the follower has acted on every change and wake-up: it asked for more after
    /// them (its loop asks after the tick that follows each wake-up).
    var settled: Bool { self.state.withLock { $0.pending.isEmpty && !$0.handedOut } }

    /// Wakes the follower's poll with nothing to read: its tracker's time is looked at again.
    func poke() {
        // Settled again only once the follower asks for more: after its tick.
        self.state.withLock { $0.handedOut = true }
        var byte: UInt8 = 1
        _ = write(self.pipe.write, &byte, 1)
    }

    var fileDescriptor: Int32 { self.pipe.read }
    var pollEvents: Int16 { Int16(POLLIN) }
    func subscribe() throws(SystemdError) {}
    func loadUnit(_ name: String) throws(SystemdError) -> String { Self.path }
    func loadedUnit(_ name: String) -> String? { Self.path }
    func properties(path: String, interface: String) throws(SystemdError) -> [String: BusValue] {
        self.state.withLock { $0.properties }
    }
    func watch(path: String) throws(SystemdError) {}
    func watchLoads(of unit: String) throws(SystemdError) {}

    func process() throws(SystemdError) -> [SystemdBus.Change] {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(self.pipe.read, &buffer, buffer.count) > 0 {}
        return self.state.withLock { state in
            defer { state.pending.removeAll() }
            state.handedOut = !state.pending.isEmpty
            return state.pending
        }
    }

    func takeLoadNews() -> SystemdBus.LoadNews { SystemdBus.LoadNews() }
}
