import SyncmonCore

/// Progress read from the bytes a process tree reads and writes (`/proc/PID/io`): the signal
/// for commands wrap has no parser for, and the one that covers the stretches a tool's own
/// counters do not (restic's upload of the packs it has already counted) (docs/wrap.md).
///
/// A sample counts as progress when the tree moved at least ``minimumRate`` bytes per second
/// since the previous one, not counting the output wrap itself carried from the tool's pipes.
/// The floor is what keeps keep-alives (rsync's, ssh's), a chatty retry loop writing to the
/// terminal, or a polling loop from passing for progress while a transfer is stuck.
public struct IOProgressSignal: Sendable {
    /// 16 KiB/s: far above keep-alive traffic, far below any transfer worth watching.
    public static let defaultMinimumRate: Int64 = 16 * 1024

    public let minimumRate: Int64
    private var previous: (bytes: Int64, time: Timestamp)?

    public init(minimumRate: Int64 = Self.defaultMinimumRate) {
        self.minimumRate = minimumRate
    }

    /// Takes a sample: `treeBytes` is the sum of `rchar`, `wchar`, `read_bytes` and
    /// `write_bytes` over the process tree, `carriedBytes` what wrap has read from the tool's
    /// output pipes so far (the tool's own writes of its output, which are not its work).
    /// Returns the bytes moved when they count as progress.
    public mutating func sample(treeBytes: Int64, carriedBytes: Int64, at time: Timestamp) -> Int64? {
        let work = treeBytes - carriedBytes
        defer { self.previous = (work, time) }
        guard let previous = self.previous else { return nil }
        let moved = work - previous.bytes
        let elapsed = time.since(previous.time).seconds
        guard moved > 0, elapsed > 0 else { return nil }
        return Double(moved) / elapsed >= Double(self.minimumRate) ? moved : nil
    }
}
