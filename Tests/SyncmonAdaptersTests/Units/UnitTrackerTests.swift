import SyncmonCore
import Testing

@testable import SyncmonAdapters

/// Property sequences as systemd 252 sends them (PropertiesChanged after the first read), each
/// step at a time in seconds, and the actions the tracker must give.
@Suite("unit: the mapping of systemd states to verdicts")
struct UnitTrackerTests {
    typealias Step = (seconds: Int64, snapshot: UnitSnapshot)

    static func at(_ seconds: Int64) -> Timestamp { Timestamp(seconds: 1_795_000_000 + seconds) }

    static func run(_ steps: [Step], tracker: inout UnitTracker) -> [[UnitAction]] {
        steps.map { tracker.observe($0.snapshot, at: Self.at($0.seconds)) }
    }

    static let running = UnitSnapshot(activeState: .active, subState: .running)

    /// The PropertiesChanged sequence of systemd 252 for Restart=always, RestartSec=100ms, `exit 3`
    /// (scripts/test-units-e2e.sh, logged at debug): the crash passes through failed/failed, and the
    /// restart through inactive/dead with the restart job pending.
    @Test func crashLoopAsSystemd252SignalsIt() {
        var tracker = UnitTracker()
        func state(_ active: String, _ sub: String, _ result: String, _ status: Int32, _ restarts: UInt32, job: Bool) -> UnitSnapshot {
            UnitSnapshot(
                activeState: UnitActiveState(active), subState: UnitSubState(sub), result: UnitResult(result), execMainCode: status == 0 ? 0 : 1,
                execMainStatus: status,
                restarts: restarts, jobType: job ? "restart" : nil
            )
        }
        let loop = [
            state("active", "running", "success", 0, 0, job: false),
            state("active", "running", "exit-code", 3, 0, job: false),
            state("failed", "failed", "exit-code", 3, 0, job: false),
            state("activating", "auto-restart", "exit-code", 3, 0, job: false),
            state("activating", "auto-restart", "exit-code", 3, 1, job: false),
            state("activating", "auto-restart", "exit-code", 3, 1, job: true),
            state("activating", "auto-restart", "success", 0, 1, job: true),
            state("inactive", "dead", "success", 0, 1, job: true),
            state("active", "running", "success", 0, 1, job: true),
            state("active", "running", "success", 0, 1, job: false),
            state("active", "running", "exit-code", 3, 1, job: false),
            state("failed", "failed", "exit-code", 3, 1, job: false),
        ]
        var all: [UnitAction] = []
        for (index, snapshot) in loop.enumerated() {
            all += tracker.observe(snapshot, at: Self.at(Int64(index)))
            // A look between any two signals: never ok, never down, never stopped after the first crash.
            if index >= 2 { #expect(tracker.isUp && tracker.failure?.code == "exit3", "after step \(index)") }
        }
        #expect(all == [.up, .failing(UnitFailure(code: "exit3", since: Self.at(2))), .restarted(count: 1)])
    }

    @Test func missingUnitIsNotLoadedOnceNotStopped() {
        var tracker = UnitTracker()
        let missing = UnitSnapshot(loadState: .notFound, activeState: .inactive, subState: .dead)
        #expect(tracker.observe(missing, at: Self.at(0)) == [.notLoaded(loadState: .notFound)])
        #expect(tracker.observe(missing, at: Self.at(5)) == [])
        #expect(tracker.state == .notLoaded)
    }

    /// A unit systemd did not know, then knows (its file written, `systemctl daemon-reload`): once
    /// `loaded`, then what the unit does, as at a first look; gone again, unknown again.
    @Test(
        "a missing unit is unknown until it is loaded, then followed as any unit",
        arguments: [
            (
                "appears stopped",
                [UnitSnapshot(activeState: .inactive, subState: .dead)],
                [[UnitAction.loaded, .stopped]]
            ),
            (
                "appears and starts",
                [UnitSnapshot(activeState: .inactive, subState: .dead), running],
                [[.loaded, .stopped], [.up]]
            ),
            (
                "appears running",
                [running],
                [[.loaded, .up]]
            ),
            (
                "appears, then is removed again",
                [running, UnitSnapshot(loadState: .notFound, activeState: .inactive, subState: .dead)],
                [[.loaded, .up], [.notLoaded(loadState: .notFound)]]
            ),
            (
                "stays masked",
                [UnitSnapshot(loadState: .masked, activeState: .inactive, subState: .dead)],
                [[]]
            ),
        ]
    )
    func missingUnitAppears(_ name: String, later: [UnitSnapshot], expected: [[UnitAction]]) {
        var tracker = UnitTracker()
        let missing = UnitSnapshot(loadState: .notFound, activeState: .inactive, subState: .dead)
        #expect(tracker.observe(missing, at: Self.at(0)) == [.notLoaded(loadState: .notFound)], "\(name)")
        let actions = Self.run(later.enumerated().map { (Int64($0.offset + 1), $0.element) }, tracker: &tracker)
        #expect(actions == expected, "\(name)")
    }

    @Test func inactiveAtFirstLookIsStopped() {
        var tracker = UnitTracker()
        #expect(tracker.observe(UnitSnapshot(activeState: .inactive, subState: .dead), at: Self.at(0)) == [.stopped])
    }

    /// Restart=always, RestartSec=100ms, `exit 3` every half second: the loop never reaches
    /// `failed`; Result and ExecMainStatus are back to success/0 once it runs again.
    @Test func crashLoopStaysFailingAndCountsRestarts() {
        var tracker = UnitTracker()
        let crashed = UnitSnapshot(activeState: .activating, subState: .autoRestart, result: .exitCode, execMainCode: 1, execMainStatus: 3)
        var again = Self.running
        again.restarts = 1
        var crashedAgain = crashed
        crashedAgain.restarts = 1
        var third = Self.running
        third.restarts = 2
        let actions = Self.run(
            [(0, Self.running), (1, crashed), (1, again), (2, crashedAgain), (2, third)],
            tracker: &tracker
        )
        let failure = UnitFailure(code: "exit3", since: Self.at(1))
        #expect(actions == [[.up], [.failing(failure)], [.restarted(count: 1)], [], [.restarted(count: 1)]])
        #expect(tracker.failure == failure)
        // The owner sleeps until the recovery, not a second at a time.
        #expect(tracker.nextTick() == Self.at(62))
        #expect(tracker.tick(at: Self.at(61)) == [])  // active since 2 s only
        #expect(tracker.tick(at: Self.at(62)) == [.recovered])
        #expect(tracker.failure == nil)
        #expect(tracker.nextTick() == nil)
    }

    /// syncmon started in the middle of a loop: it sees only NRestarts grow.
    @Test func midLoopStartSeesRestartsOnly() {
        var tracker = UnitTracker()
        var first = Self.running
        first.restarts = 7
        var next = Self.running
        next.restarts = 8
        let actions = Self.run([(0, first), (1, next)], tracker: &tracker)
        #expect(actions == [[.up], [.restarted(count: 1), .failing(UnitFailure(code: "restarted", since: Self.at(1)))]])
    }

    /// systemd signals ActiveState (the unit's interface) and Result (the service's) apart: a
    /// SIGKILL read between the two is failed with a Result still "success". The failure keeps
    /// its time and takes its code once the Result comes (seen through a user manager under load).
    @Test func failureWithoutItsResultTakesTheCodeThatFollows() {
        var tracker = UnitTracker()
        let withoutResult = UnitSnapshot(activeState: .failed, subState: .failed)
        let killed = UnitSnapshot(activeState: .failed, subState: .failed, result: .signal, execMainCode: 2, execMainStatus: 9)
        let actions = Self.run([(0, Self.running), (1, withoutResult), (2, killed)], tracker: &tracker)
        #expect(
            actions == [
                [.up], [.failing(UnitFailure(code: "failed", since: Self.at(1)))], [.failing(UnitFailure(code: "signalSIGKILL", since: Self.at(1)))],
            ])
        // A code that says why is kept: a later generic one does not replace it.
        #expect(tracker.observe(withoutResult, at: Self.at(3)) == [])
        #expect(tracker.failure?.code == "signalSIGKILL")
    }

    /// `systemctl stop` on a service that exits 1 on SIGTERM: failed/exit-code, but a stop job ran.
    @Test func stopJudgedByTheStopJobNotTheStatus() {
        var tracker = UnitTracker()
        var stopping = UnitSnapshot(activeState: .deactivating, subState: .other("stop-sigterm"))
        stopping.jobType = "stop"
        let failedAfterStop = UnitSnapshot(activeState: .failed, subState: .failed, result: .exitCode, execMainCode: 1, execMainStatus: 1)
        let actions = Self.run([(0, Self.running), (5, stopping), (5, failedAfterStop)], tracker: &tracker)
        #expect(actions == [[.up], [], [.stopped]])
        #expect(tracker.failure == nil)
        // Started again: up, and a later crash is a crash again.
        #expect(tracker.observe(Self.running, at: Self.at(9)) == [.up])
        #expect(tracker.observe(failedAfterStop, at: Self.at(10)) == [.failing(UnitFailure(code: "exit1", since: Self.at(10)))])
        #expect(tracker.tick(at: Self.at(11)) == [.down(UnitFailure(code: "exit1", since: Self.at(10)))])
    }

    @Test(arguments: [
        (UnitSnapshot(activeState: .failed, subState: .failed, result: .signal, execMainCode: 2, execMainStatus: 9), "signalSIGKILL"),
        (UnitSnapshot(activeState: .failed, subState: .failed, result: .other("core-dump"), execMainCode: 3, execMainStatus: 11), "core-dump"),
        (UnitSnapshot(activeState: .failed, subState: .failed, result: .other("watchdog"), execMainCode: 2, execMainStatus: 6), "watchdog"),
        (UnitSnapshot(activeState: .failed, subState: .failed, result: .other("start-limit-hit")), "start-limit-hit"),
        (
            UnitSnapshot(activeState: .failed, subState: .failed, result: .exitCode, execMainCode: 1, execMainStatus: 23, program: "/usr/bin/rsync"),
            "partialTransfer"
        ),
    ])
    func failedServiceIsDownWithItsCode(snapshot: UnitSnapshot, code: String) {
        var tracker = UnitTracker()
        _ = tracker.observe(Self.running, at: Self.at(0))
        let failure = UnitFailure(code: code, since: Self.at(3))
        #expect(tracker.observe(snapshot, at: Self.at(3)) == [.failing(failure)])
        #expect(tracker.nextTick() == Self.at(4))
        #expect(tracker.tick(at: Self.at(3)) == [])  // systemd may yet restart it
        #expect(tracker.tick(at: Self.at(4)) == [.down(failure)])
        #expect(tracker.state == .down(failure))
        // Down until systemd says otherwise: nothing waits on the clock.
        #expect(tracker.nextTick() == nil)
    }

    /// A timer's oneshot rsync: activating while it runs, inactive (success) or failed after.
    @Test func oneshotRunsAreCycles() {
        var tracker = UnitTracker()
        func oneshot(_ active: String, _ sub: String, result: String = "success", status: Int32 = 0, start: Int64?, exit: Int64?) -> UnitSnapshot {
            UnitSnapshot(
                activeState: UnitActiveState(active), subState: UnitSubState(sub), result: UnitResult(result), execMainCode: status == 0 ? 0 : 1,
                execMainStatus: status,
                serviceType: "oneshot", program: "/usr/bin/rsync", mainStarted: start.map(Self.at), mainExited: exit.map(Self.at)
            )
        }
        // The first look finds the last run (it succeeded at 0…2): that is the last cycle.
        let actions = Self.run(
            [
                (10, oneshot("inactive", "dead", start: 0, exit: 2)),
                (60, oneshot("activating", "start", start: 60, exit: 2)),
                (61, oneshot("inactive", "dead", start: 60, exit: 61)),
                (120, oneshot("activating", "start", start: 120, exit: 61)),
                (121, oneshot("failed", "failed", result: "exit-code", status: 23, start: 120, exit: 121)),
            ],
            tracker: &tracker
        )
        #expect(
            actions == [
                [.up, .cycleStarted(at: Self.at(0)), .cycleEnded(started: Self.at(0), ended: Self.at(2), failure: nil)],
                [.cycleStarted(at: Self.at(60))],
                [.cycleEnded(started: Self.at(60), ended: Self.at(61), failure: nil)],
                [.cycleStarted(at: Self.at(120))],
                [.cycleEnded(started: Self.at(120), ended: Self.at(121), failure: UnitFailure(code: "partialTransfer", since: Self.at(121)))],
            ]
        )
        #expect(tracker.isUp)  // between runs: never stopped or down
    }

    @Test func oneshotNeverRunIsNoCycle() {
        var tracker = UnitTracker()
        let never = UnitSnapshot(activeState: .inactive, subState: .dead, serviceType: "oneshot")
        #expect(tracker.observe(never, at: Self.at(0)) == [.up])
    }

    /// Each state carries what it needs: a failed service is down with its failure; started
    /// again, it is up with the failure outstanding until it has stayed active for the recovery
    /// time; stopped, nothing is outstanding.
    @Test func downThenStartedAgainRecoversThenStops() {
        var tracker = UnitTracker()
        let failed = UnitSnapshot(activeState: .failed, subState: .failed, result: .exitCode, execMainCode: 1, execMainStatus: 2)
        let failure = UnitFailure(code: "exit2", since: Self.at(1))
        #expect(tracker.observe(Self.running, at: Self.at(0)) == [.up])
        #expect(tracker.observe(failed, at: Self.at(1)) == [.failing(failure)])
        #expect(tracker.tick(at: Self.at(2)) == [.down(failure)])
        #expect(tracker.state == .down(failure))
        #expect(tracker.observe(Self.running, at: Self.at(10)) == [.up])
        #expect(tracker.isUp && tracker.failure == failure)
        #expect(tracker.nextTick() == Self.at(70))
        #expect(tracker.tick(at: Self.at(70)) == [.recovered])
        #expect(tracker.isUp && tracker.failure == nil && tracker.nextTick() == nil)
        var stopping = UnitSnapshot(activeState: .deactivating, subState: .other("stop-sigterm"))
        stopping.jobType = "stop"
        #expect(Self.run([(80, stopping), (80, UnitSnapshot(activeState: .inactive, subState: .dead))], tracker: &tracker) == [[], [.stopped]])
        #expect(tracker.state == .stopped)
    }

    /// A system syncmon's first look at a user's unit found it failed (an earlier `kill -9`), a
    /// person started it again within the grace, and it was killed again: the start ties the
    /// pair (`running`, the failure kept) so that the second kill is down, not an `error` for good
    /// (scripts/test-user-session.sh found it).
    @Test func foundFailedStartedWithinTheGraceThenKilledIsDown() {
        var tracker = UnitTracker()
        let killed = UnitSnapshot(activeState: .failed, subState: .failed, result: .signal, execMainCode: 2, execMainStatus: 9)
        let failure = UnitFailure(code: "signalSIGKILL", since: Self.at(0))
        #expect(tracker.observe(killed, at: Self.at(0)) == [.failing(failure)])
        #expect(tracker.observe(Self.running, at: Self.at(0)) == [.running])
        #expect(tracker.observe(Self.running, at: Self.at(1)) == [])
        #expect(tracker.isUp && tracker.failure == failure)
        #expect(tracker.observe(killed, at: Self.at(5)) == [])
        #expect(tracker.nextTick() == Self.at(6))
        #expect(tracker.tick(at: Self.at(6)) == [.down(failure)])
    }
}
