import Glibc
import SyncmonLock

@testable import SyncmonSystemd

/// A journal sink that keeps entries in memory, or fails like a journald that is not running.
final class RecordingJournalSink: JournalSink {
    /// The entries sent so far, in order.
    private let storage = Locked<[JournalEntry]>([])

    /// Whether `send` fails; switchable so a test can take journald away and bring it back.
    private let failing: Locked<Bool>

    /// Creates a sink that starts healthy or failing.
    init(failing: Bool = false) {
        self.failing = Locked(failing)
    }

    /// The entries delivered so far.
    var entries: [JournalEntry] { self.storage.withLock { $0 } }

    /// Makes later sends fail (or succeed again).
    func setFailing(_ failing: Bool) {
        self.failing.withLock { $0 = failing }
    }

    func send(_ entry: JournalEntry) throws(SystemdError) {
        if self.failing.withLock({ $0 }) {
            // What sd_journal_sendv reports when the socket file is left over but journald is gone.
            throw SystemdError(operation: "sd_journal_sendv", errno: ECONNREFUSED)
        }
        self.storage.withLock { $0.append(entry) }
    }
}
