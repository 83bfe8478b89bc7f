import SyncmonCore
import Testing

@testable import SyncmonDaemon

/// When the saver writes the state: every change on disk within the budget (1 s), however
/// long a save takes, so a `kill -9` loses at most that much (docs/operations.md, "Persisted
/// state"); failed saves back off.
@Suite("Persistence: the save schedule")
struct SaveScheduleTests {
    private static func t(_ seconds: Double) -> Timestamp { Timestamp(microseconds: Int64((seconds * 1_000_000).rounded())) }
    private static let budget = TimeSpan.seconds(1 as Int64)

    /// One decision: the last save (start, duration) and the oldest unsaved change.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var lastSave: (start: Double, duration: Double)?
        var dirtySince: Double?
        var due: Double?
        var testDescription: String { self.name }
    }

    @Test(
        "when a save is due",
        arguments: [
            Case(name: "nothing unsaved", lastSave: (0, 0.01), dirtySince: nil, due: nil),
            Case(name: "first change, quick saves: one budget after it", lastSave: nil, dirtySince: 10, due: 11),
            Case(name: "quick save: a budget less its duration", lastSave: (9, 0.05), dirtySince: 10, due: 10.95),
            // The regression: a 0.4 s save used to wait a whole second after the previous
            // save ended, then take 0.4 s more (1.8 s of changes at stake).
            Case(name: "slow save starts early enough to finish within the budget", lastSave: (9, 0.4), dirtySince: 10, due: 10.6),
            Case(name: "saves start at least half a budget apart", lastSave: (10, 0.9), dirtySince: 10, due: 10.5),
        ]
    )
    func due(_ example: Case) {
        var schedule = SaveSchedule(budget: Self.budget)
        if let save = example.lastSave {
            schedule.saved(start: Self.t(save.start), end: Self.t(save.start + save.duration), succeeded: true)
        }
        let since = example.dirtySince.map(Self.t)
        guard let due = example.due, let since else {
            #expect(!schedule.isDue(now: Self.t(1_000), dirtySince: since))
            // Nothing to save: no deadline, the saver waits for the store to turn dirty.
            #expect(schedule.nextCheck(now: Self.t(20), dirtySince: nil) == nil)
            return
        }
        #expect(!schedule.isDue(now: Self.t(due - 0.001), dirtySince: since))
        #expect(schedule.isDue(now: Self.t(due), dirtySince: since))
        #expect(schedule.nextCheck(now: Self.t(due - 0.3), dirtySince: since) == Self.t(due))
    }

    @Test("a failed save is retried after 1, 2, 4, then every 5 budgets, changes or not")
    func backoff() {
        var schedule = SaveSchedule(budget: Self.budget)
        var end = 100.0
        for wait in [1.0, 2, 4, 5, 5, 5] {
            schedule.saved(start: Self.t(end - 0.01), end: Self.t(end), succeeded: false)
            #expect(!schedule.isDue(now: Self.t(end + wait - 0.001), dirtySince: Self.t(end + wait - 0.5)))
            #expect(schedule.isDue(now: Self.t(end + wait), dirtySince: Self.t(50)))
            end += wait
        }
        // A success ends the backoff.
        schedule.saved(start: Self.t(end), end: Self.t(end + 0.01), succeeded: true)
        #expect(schedule.isDue(now: Self.t(end + 2.99), dirtySince: Self.t(end + 2)))
    }

    @Test("a clock stepped back (a change in the future) saves at once")
    func clockBack() {
        var schedule = SaveSchedule(budget: Self.budget)
        schedule.saved(start: Self.t(40), end: Self.t(40.1), succeeded: true)
        #expect(schedule.isDue(now: Self.t(50), dirtySince: Self.t(60)))
        #expect(schedule.nextCheck(now: Self.t(50), dirtySince: Self.t(60)) == Self.t(50))
    }

    @Test(
        "under a steady stream of changes each is durable within the budget",
        arguments: [0.0, 0.05, 0.2, 0.45]
    )
    func steadyStream(saveDuration: Double) {
        // Changes every 10 ms for 20 s; the saver wakes when `nextCheck` says and a save takes
        // `saveDuration`. A change is durable when a save that started after it ends.
        var schedule = SaveSchedule(budget: Self.budget)
        var now = 0.0
        var oldestUnsaved: Double? = nil
        var nextChange = 0.0
        var worst = 0.0
        var saves = 0
        while now < 20 {
            while nextChange <= now {
                if oldestUnsaved == nil { oldestUnsaved = nextChange }
                nextChange += 0.01
            }
            let since = oldestUnsaved.map(Self.t)
            if schedule.isDue(now: Self.t(now), dirtySince: since), let taken = oldestUnsaved {
                oldestUnsaved = nil
                let end = now + saveDuration
                schedule.saved(start: Self.t(now), end: Self.t(end), succeeded: true)
                // The first save teaches the schedule how long a save takes; from the second on
                // each change is durable within the budget.
                if saves > 0 { worst = max(worst, end - taken) }
                saves += 1
                // Changes made during the save wait for the next one.
                while nextChange <= end {
                    if oldestUnsaved == nil { oldestUnsaved = nextChange }
                    nextChange += 0.01
                }
                now = end
                continue
            }
            // Nothing unsaved: the next change wakes the saver.
            guard let wake = schedule.nextCheck(now: Self.t(now), dirtySince: since) else {
                now = max(nextChange, now + 0.001)
                continue
            }
            now = max(Double(wake.microseconds) / 1_000_000, now + 0.001)
        }
        #expect(worst <= 1.0 + 1e-6, "a change waited \(worst) s to be durable")
        // Saves stay at most two a second.
        #expect(saves <= 41)
    }
}
