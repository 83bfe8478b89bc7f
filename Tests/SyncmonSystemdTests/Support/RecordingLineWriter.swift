import SyncmonLock

@testable import SyncmonSystemd

/// A line writer that keeps every line in memory, for asserting what a handler wrote.
final class RecordingLineWriter: LogLineWriter {
    /// The lines written so far, in order.
    private let storage = Locked<[String]>([])

    /// The lines written so far, in order.
    var lines: [String] { self.storage.withLock { $0 } }

    func write(line: String) {
        self.storage.withLock { $0.append(line) }
    }
}
