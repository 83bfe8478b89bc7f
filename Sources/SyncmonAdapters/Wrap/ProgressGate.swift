import SyncmonCore

/// Decides, once a second, whether a wrapped run showed life in that second, and gathers what
/// it did into the batch that says so (docs/wrap.md).
///
/// Two signals feed it: the tool's own counters (``add(_:)``) and the bytes its process tree
/// moved (``tick(ioMoved:ioReadable:at:)``). They differ in when they tell: the process tree's
/// I/O is read every second, while a tool may report long after the bytes moved (rclone's stats
/// line every 5 s sums what its read-ahead took in since the last one). When the tree's I/O
/// can be read and has shown activity within ``vouchingWindow``, it is the clock of the run:
/// counters that grew in a second without I/O are late news and do not count as life then (their
/// files and deletions wait for the next batch). Otherwise (I/O unreadable, off, or quiet for
/// longer: a server-side copy moves nothing through the tool) the counters are the clock.
public struct ProgressGate: Sendable {
    /// How long a second of I/O vouches for the run: longer than rclone's 5 s between stats
    /// lines, so that the last line of a stalled transfer is read as late news.
    public static let vouchingWindow = TimeSpan.seconds(Int64(15))

    private var pending = ProgressDelta()
    private var counterGrew = false
    private var lastIOActivity: Timestamp?

    public init() {}

    /// What the tool's counters say grew.
    public mutating func add(_ delta: ProgressDelta) {
        guard delta.isProgress else { return }
        self.pending.add(delta)
        self.counterGrew = true
    }

    /// One second's end: `ioMoved` the bytes the process tree moved when they count as progress
    /// (`nil` otherwise), `ioReadable` whether its counters could be read at all. Returns the
    /// batch to send when the run showed life in this second.
    public mutating func tick(ioMoved: Int64?, ioReadable: Bool, at now: Timestamp) -> ProgressDelta? {
        defer { self.counterGrew = false }
        if let moved = ioMoved {
            self.lastIOActivity = now
            self.pending.add(ProgressDelta(bytes: moved))
        }
        let ioVouches = ioReadable && self.lastIOActivity.map { now.since($0) < Self.vouchingWindow } == true
        let alive = ioMoved != nil || (self.counterGrew && !ioVouches)
        guard alive, self.pending.isProgress else { return nil }
        defer { self.pending = ProgressDelta() }
        return self.pending
    }

    /// What is left when the run ends (files done in its last seconds), to be sent with it.
    public mutating func drain() -> ProgressDelta? {
        defer { self.pending = ProgressDelta() }
        return self.pending.isProgress ? self.pending : nil
    }
}
