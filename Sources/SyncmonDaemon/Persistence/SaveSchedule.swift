import SyncmonCore

/// When to write the state file: every change on disk within `budget` of being made, so a
/// `kill -9` loses at most that much (docs/operations.md, "Persisted state").
///
/// Saving after a fixed sleep that follows the previous save lost up to the sleep plus two
/// save durations (a change just after one snapshot waits the sleep and a whole save, and the
/// kill may land during it): 1.5–2.9 s with 1,000 pairs on a loaded machine. Instead a save
/// starts when the oldest unsaved change is `budget` minus the last save's duration old, so it
/// is durable by `budget`. Two floors keep a busy daemon from saving without pause: saves start
/// at least `budget / 2` apart, and a failed save waits 1, 2, 4, then every 5 budgets before it
/// is tried again (a full disk must not be hammered).
///
/// Pure: time comes in as arguments; `PersistenceService` does the sleeping and the writing.
struct SaveSchedule: Sendable, Equatable {
    /// How old a change may get before it is on disk.
    let budget: TimeSpan
    /// When the last save (successful or not) started and how long the last successful one took.
    private(set) var lastStart: Timestamp? = nil
    private(set) var lastDuration = TimeSpan.zero
    /// Failed saves since the last success.
    private(set) var failingInARow: Int64 = 0
    /// When the last failed save ended.
    private var lastFailure: Timestamp? = nil

    /// The longest wait between retries, in budgets.
    static let maximumRetryBudgets: Int64 = 5

    init(budget: TimeSpan) {
        self.budget = budget
    }

    /// Whether to save at `now`, given the time of the oldest unsaved change (`nil`: nothing to save).
    func isDue(now: Timestamp, dirtySince: Timestamp?) -> Bool {
        guard let dirtySince else { return false }
        return now >= self.dueTime(now: now, dirtySince: dirtySince)
    }

    /// When the state, unsaved since `dirtySince`, is to be saved.
    func dueTime(now: Timestamp, dirtySince: Timestamp) -> Timestamp {
        if let lastFailure, self.failingInARow > 0 {
            let backoff = min(Int64(1) << min(self.failingInARow - 1, 62), Self.maximumRetryBudgets)
            return lastFailure.adding(self.budget.multiplied(by: backoff))
        }
        // A clock stepped back leaves dirtySince in the future: how old the change is cannot
        // be told, so it is saved at once rather than held until the clock catches up.
        if dirtySince > now { return now }
        let due = dirtySince.adding(TimeSpan(microseconds: self.budget.microseconds - self.lastDuration.microseconds))
        guard let lastStart else { return due }
        return max(due, lastStart.adding(TimeSpan(microseconds: self.budget.microseconds / 2)))
    }

    /// When to look next: at the due time when something is unsaved; `nil` when nothing is,
    /// and the saver sleeps until a change wakes it (an idle daemon does not poll).
    func nextCheck(now: Timestamp, dirtySince: Timestamp?) -> Timestamp? {
        guard let dirtySince else { return nil }
        return max(now, self.dueTime(now: now, dirtySince: dirtySince))
    }

    /// Records a save that started at `start` and ended at `end`.
    mutating func saved(start: Timestamp, end: Timestamp, succeeded: Bool) {
        self.lastStart = start
        if succeeded {
            self.lastDuration = max(.zero, end.since(start))
            self.failingInARow = 0
            self.lastFailure = nil
        } else {
            self.failingInARow += 1
            self.lastFailure = end
        }
    }
}
