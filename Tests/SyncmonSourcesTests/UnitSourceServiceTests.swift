import SyncmonAdapters
import SyncmonContractTesting
import SyncmonCore
import SyncmonLock
import SyncmonSystemd
import SyncmonTestSupport
import Testing

@testable import SyncmonSources

#if canImport(Glibc)
import Glibc
#endif

/// A `unit:` source as a service on the manual clock (docs/systemd-units.md): the follower's own
/// logic — the first look, signals, the grace before a failed service is down, the recovery time
/// — with the manager's bus scripted and the tracker's time the test's. systemd itself is the
/// end-to-end scripts' (test-units-e2e.sh, test-user-session.sh).
@Suite("unit: source on the manual clock")
struct UnitSourceServiceTests {
    static let running: [String: BusValue] = ["ActiveState": .string("active"), "SubState": .string("running"), "Type": .string("simple")]
    static let killed: [String: BusValue] = [
        "ActiveState": .string("failed"), "SubState": .string("failed"), "Result": .string("signal"),
        "ExecMainCode": .signed(2), "ExecMainStatus": .signed(9),
    ]
    static let connection = SourceContext.connectionID(for: "unit:victim")

    static func source(_ connect: @escaping UnitManagerConnector, manager: SystemdManager = .system, restarts: UnitRestartCounter = UnitRestartCounter())
        -> UnitSource
    {
        UnitSource(
            unit: "victim.service", database: Database("default")!, phases: [.import], rules: nil, manager: manager,
            restarts: restarts, connect: connect
        )
    }

    /// What the source said of its pair: `up` for engineStarted, the setup's outcomes as
    /// `ok` or the failure's code.
    static func story(_ model: RecordingSourceModel) -> [String] {
        model.events.compactMap { event in
            switch event.payload {
            case .engineStarted: "up"
            case .engineStopped: "stopped"
            case .containerEvent(let operation) where operation.ended != nil:
                operation.succeeded == true ? "ok" : operation.error.map { "\($0.code)" } ?? "failed"
            default: nil
            }
        }
    }

    @Test("killed: an error at once, engine_down only when the grace has passed on the test's clock")
    func killedIsDownAfterTheGrace() async throws {
        let harness = try SourceHarness(name: "victim", kind: "unit")
        let bus = ScriptedUnitBus(Self.running)
        await harness.run(Self.source { _ throws(SystemdError) in bus }) {
            #expect(await Polling.until { Self.story(harness.model) == ["ok", "up"] }, "\(Self.story(harness.model))")
            #expect(harness.health.status().state == .connected)
            bus.change(Self.killed)
            #expect(await Polling.until { Self.story(harness.model).last == "signalSIGKILL" }, "\(Self.story(harness.model))")
            #expect(!harness.model.calls.contains(.connectionClosed(Self.connection)), "down before its grace: \(harness.model.calls)")
            harness.clock.advance(by: UnitTracker.downGrace)
            bus.poke()
            #expect(await Polling.until { harness.model.calls.contains(.connectionClosed(Self.connection)) }, "\(harness.model.calls)")
        }
    }

    @Test("a crash loop: restarts counted, error while it loops, ok once active for the recovery time, never down")
    func crashLoopRecovers() async throws {
        let harness = try SourceHarness(name: "victim", kind: "unit")
        let bus = ScriptedUnitBus(Self.running)
        let restarts = UnitRestartCounter()
        await harness.run(Self.source({ _ throws(SystemdError) in bus }, restarts: restarts)) {
            #expect(await Polling.until { Self.story(harness.model) == ["ok", "up"] })
            bus.change([
                "ActiveState": .string("activating"), "SubState": .string("auto-restart"), "Result": .string("exit-code"),
                "ExecMainCode": .signed(1), "ExecMainStatus": .signed(3), "NRestarts": .unsigned(1),
            ])
            #expect(await Polling.until { Self.story(harness.model).last == "exit3" }, "\(Self.story(harness.model))")
            bus.change(["ActiveState": .string("active"), "SubState": .string("running"), "Result": .string("success"), "ExecMainStatus": .signed(0)])
            #expect(await Polling.until { bus.settled })
            #expect(restarts.samples().map(\.restarts) == [1], "\(restarts.samples())")
            // Active, but not yet for the recovery time (a minute): still an error.
            harness.clock.advance(by: .seconds(Int64(59)))
            bus.poke()
            #expect(await Polling.until { bus.settled })
            #expect(Self.story(harness.model).last == "exit3")
            harness.clock.advance(by: .seconds(Int64(1)))
            bus.poke()
            #expect(await Polling.until { Self.story(harness.model).last == "ok" }, "\(Self.story(harness.model))")
            // NRestarts grew first ("restarted"), auto-restart's status then named the crash.
            #expect(Self.story(harness.model) == ["ok", "up", "restarted", "exit3", "ok"])
            #expect(!harness.model.calls.contains(.connectionClosed(Self.connection)), "\(harness.model.calls)")
        }
    }

    @Test("a user manager that does not run: unknown (user-manager-absent), followed when it starts")
    func userManagerAbsentThenStarted() async throws {
        let harness = try SourceHarness(name: "victim", kind: "unit")
        let bus = ScriptedUnitBus(Self.running)
        let tries = Locked(0)
        let connect: UnitManagerConnector = { _ throws(SystemdError) in
            guard
                tries.withLock({
                    $0 += 1; return $0
                }) > 1
            else {
                throw SystemdError(operation: "sd_bus_start", errno: ENOENT, explanation: "is its user manager running?")
            }
            return bus
        }
        await harness.run(Self.source(connect, manager: .user(name: "alice", uid: 1500))) {
            // The retry after a missing user manager is a second of real time (UserManagerRetry).
            #expect(await Polling.until { harness.model.calls.contains(.setUnknown("victim/default", because: "user-manager-absent")) })
            // (Not asserted disconnected here: the retry a second later may already have connected.)
            #expect(await Polling.until { Self.story(harness.model) == ["ok", "up"] }, "\(Self.story(harness.model))")
            #expect(harness.model.calls.last == .setUnknown("victim/default", because: nil), "\(harness.model.calls)")
            #expect(harness.health.status().state == .connected)
        }
    }
}
