import SyncmonCore
import SyncmonLock

/// How saving the state goes, for `/metrics` (`syncmon_state_save_failures_total`,
/// `syncmon_state_last_save_timestamp_seconds`): a full or read-only state directory must show,
/// not only in one log line.
package final class PersistenceHealth: Sendable {
    /// A moment's counts.
    package struct Snapshot: Sendable, Equatable {
        /// Saves that failed since the daemon started.
        package var failures: UInt64 = 0
        /// When the state was last written completely; `nil` before the first save.
        package var lastSuccess: Timestamp? = nil
        /// Failures since the last success: above zero, the state on disk is behind.
        package var failingInARow: UInt64 = 0
    }

    private let state = Locked(Snapshot())

    package init() {}

    func succeeded(at time: Timestamp) {
        self.state.withLock {
            $0.lastSuccess = time
            $0.failingInARow = 0
        }
    }

    /// Counts a failure; returns how many failed in a row, this one included.
    func failed() -> UInt64 {
        self.state.withLock {
            $0.failures += 1
            $0.failingInARow += 1
            return $0.failingInARow
        }
    }

    package var snapshot: Snapshot { self.state.withLock { $0 } }
}
