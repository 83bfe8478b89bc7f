import Synchronization

/// Remembers whether journald is currently failing, so the switch to stderr is announced once per outage rather than
/// on every line.
package final class JournalFailureTracker: Sendable {
    /// The tracker every ``JournaldLogHandler`` of the process shares: journald is one daemon, so one outage.
    package static let shared = JournalFailureTracker()

    /// Whether the last send failed.
    private let failing = Atomic<Bool>(false)

    /// Creates a tracker in the healthy state.
    package init() {}

    /// Records a failed send; true only for the first failure of an outage.
    package func recordFailure() -> Bool {
        !self.failing.exchange(true, ordering: .relaxed)
    }

    /// Records a delivered entry, which ends an outage.
    package func recordSuccess() {
        // A plain load first: the common case is healthy, and it avoids a write to a shared cache line per entry.
        if self.failing.load(ordering: .relaxed) {
            self.failing.store(false, ordering: .relaxed)
        }
    }
}
