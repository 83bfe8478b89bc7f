/// What a canary knows of one peer, all on this host's monotonic clock.
public struct CanaryPeer: Hashable, Sendable {
    /// The latest `seq` read from the peer's file.
    public var seq: Int64
    /// When the peer's file was first read.
    public var firstSeen: MonotonicInstant
    /// When its `seq` last grew, on this host's clocks; `nil` until it has.
    public var lastMoved: CanaryMoment?
    /// The highest of this host's `seq` the peer has acknowledged (`seen[HOST]`).
    public var acknowledged: Int64
    /// The latest round trip: from writing a `seq` to reading its acknowledgement.
    public var roundTrip: TimeSpan?
    /// Why the peer is late, while it is.
    public var late: CanaryLateness?

    /// When the peer was last heard from: its last move, else its first sighting.
    var heard: MonotonicInstant { self.lastMoved?.monotonic ?? self.firstSeen }
}

/// Which rule of `canary_late` a peer breaks (docs/canary.md).
public enum CanaryLateness: Hashable, Sendable, CustomStringConvertible {
    /// The peer's canary has not moved for `late-after`.
    case notMoving
    /// The peer's canary moves, but this host's `seq` has not come back from it within
    /// `late-after` of writing it.
    case notAcknowledged(seq: Int64)

    public var description: String {
        switch self {
        case .notMoving: "its canary has not moved"
        case .notAcknowledged(let seq): "it has not acknowledged seq \(seq)"
        }
    }
}

/// One entry of `PATH/.syncmon/` that looks like a peer's canary, as the owner read it.
public enum CanaryPeerRead: Sendable {
    /// A regular file of at most 64 KiB (plus one byte, so a larger one is told apart).
    case file(name: String, bytes: [UInt8])
    /// A symbolic link, a directory or anything else that is not a regular file: skipped.
    case notRegular(name: String)
    /// A regular file too large to be a canary (not read further).
    case tooLarge(name: String, size: Int64)
    /// It could not be opened or read; `reason` says why (for the log line).
    case unreadable(name: String, reason: String)
}
