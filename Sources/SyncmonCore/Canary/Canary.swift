/// One canary (docs/canary.md): this host's `seq`, the peers it reads, their moves
/// and round trips, and which of them are late.
///
/// Pure: the owner passes in every moment (this host's monotonic clock, with the real-time
/// reading only for display), performs the actions it gets back, and reports the outcome
/// (`wrote`, `failed`, `read`). No clock agreement between hosts is needed: a peer *moved*
/// when its `seq` grew, at this host's time of reading, and a round trip runs from this
/// host's write to this host's reading of the acknowledgement. A host acknowledges a peer's
/// move soon after reading it (rewriting its file, same `seq`), not at its next interval, so
/// a round trip is the latency of the sync both ways, not the interval.
public struct Canary: Sendable {
    public let configuration: CanaryConfiguration
    /// The latest `seq` this host wrote (or the persisted one, before the first write).
    public private(set) var seq: Int64
    /// The peers by host, at most `configuration.maximumPeers`.
    public internal(set) var peers: [CanaryHost: CanaryPeer] = [:]
    /// Errors by reason (`syncmon_canary_errors_total`).
    public internal(set) var errors = CanaryErrorCounts()
    /// The latest error, for status: what failed, naming the path; cleared by the next success
    /// of the same kind of work.
    public internal(set) var lastError: (reason: CanaryErrorReason, detail: String)?

    /// When the daemon started: every clock counts from it at the earliest.
    let started: MonotonicInstant
    /// This run's successful writes not yet acknowledged by every peer, oldest first, so an
    /// acknowledgement can be timed (bounded by ``maximumWrites``).
    var writes: [(seq: Int64, at: MonotonicInstant)] = []
    /// When the latest write was attempted, and the peers last read.
    var lastWriteAttempt: MonotonicInstant?
    var lastRead: MonotonicInstant?
    /// The pair's engine could not have synced (down, stopped, no network or account, throttled).
    var suppressed = false
    /// When the latest suppression ended.
    var suppressionEnded: MonotonicInstant?
    /// Forgotten peers and the `seq` they had, so a stale file does not come back as a new
    /// peer at every read: it returns only when it moves (bounded by ``maximumForgotten``).
    var forgotten: [CanaryHost: Int64] = [:]
    /// The latest file this run wrote: an acknowledgement writes it again, same `seq`, with
    /// the peers' latest `seq` in `seen`.
    var lastFile: CanaryFile?
    /// When an acknowledgement is due: a peer moved since this host's file last said so.
    var acknowledgementDue: MonotonicInstant?
    /// When the latest acknowledgement was written, to space them.
    var lastAcknowledgement: MonotonicInstant?

    /// The most writes remembered for timing round trips: far more than `late-after` over
    /// `interval` in any sane configuration; older ones are no longer timed.
    static let maximumWrites = 1024
    /// The most forgotten peers remembered.
    static let maximumForgotten = 1024
    /// The least time between two acknowledgements (the interval, when shorter): a folder with
    /// many peers is not rewritten at every move, and a round trip is late by at most this.
    static let acknowledgementSpacing = TimeSpan.seconds(5 as Int64)

    /// A canary whose daemon started at `started`, with the `seq` persisted by the last run.
    public init(configuration: CanaryConfiguration, startedAt started: MonotonicInstant, restoredSeq: Int64 = 0) {
        self.configuration = configuration
        self.started = started
        self.seq = max(0, restoredSeq)
    }

    // MARK: Schedule

    /// What is due at `now`: a write, a read, and the peers that became late, recovered or are
    /// forgotten. Call it at ``nextDeadline`` at the latest.
    public mutating func tick(at now: CanaryMoment) -> [CanaryAction] {
        var actions: [CanaryAction] = []
        if self.configuration.mode.writes, self.lastWriteAttempt.map({ now.monotonic >= $0.adding(self.configuration.interval) }) ?? true {
            self.lastWriteAttempt = now.monotonic
            self.acknowledgementDue = nil
            actions.append(.write(self.nextFile(at: now.wall)))
        } else if let due = self.acknowledgementDue, now.monotonic >= due {
            self.acknowledgementDue = nil
            if let file = self.acknowledgementFile {
                self.lastAcknowledgement = now.monotonic
                actions.append(.write(file))
            }
        }
        if self.configuration.mode.reads, self.lastRead.map({ now.monotonic >= $0.adding(self.configuration.interval) }) ?? true {
            actions.append(.readPeers)
        }
        self.look(at: now.monotonic, into: &actions)
        return actions
    }

    /// The latest moment to call ``tick(at:)`` again: the next write or read, or a peer falling late or forgotten.
    public func nextDeadline(after now: MonotonicInstant) -> MonotonicInstant {
        var next = MonotonicInstant(microseconds: .max)
        if self.configuration.mode.writes { next = min(next, (self.lastWriteAttempt ?? now).adding(self.configuration.interval)) }
        if self.configuration.mode.reads { next = min(next, (self.lastRead ?? now).adding(self.configuration.interval)) }
        if let due = self.acknowledgementDue { next = min(next, due) }
        for (_, peer) in self.peers {
            next = min(next, peer.heard.adding(self.configuration.forgetAfter))
            for deadline in self.lateDeadlines(of: peer) where deadline > now { next = min(next, deadline) }
        }
        return max(next, now)
    }

    /// The file the next write puts down: the next `seq`, and the latest `seq` of every peer.
    private func nextFile(at wall: Timestamp) -> CanaryFile {
        CanaryFile(host: self.configuration.host, seq: self.seq + 1, written: wall, seen: self.peers.mapValues(\.seq))
    }

    /// The acknowledgement to write: this run's latest file again, same `seq` and `written`,
    /// saying the peers' latest `seq`. Its `seq` does not grow, so it is no move at the peers
    /// and they do not acknowledge it in turn. `nil` when the file says that already.
    private var acknowledgementFile: CanaryFile? {
        guard var file = self.lastFile else { return nil }
        let seen = self.peers.mapValues(\.seq)
        guard seen != file.seen else { return nil }
        file.seen = seen
        return file
    }

    /// Asks for an acknowledgement after a peer moved at `now` (mode `both`, once this run has
    /// written): at once, or ``acknowledgementSpacing`` after the last one.
    mutating func acknowledgeSoon(at now: MonotonicInstant) {
        guard self.configuration.mode == .both, self.lastFile != nil else { return }
        let spacing = min(Self.acknowledgementSpacing, self.configuration.interval)
        let due = max(now, self.lastAcknowledgement.map { $0.adding(spacing) } ?? now)
        self.acknowledgementDue = min(self.acknowledgementDue ?? due, due)
    }

    // MARK: Outcomes

    /// The owner wrote `file` (and persisted its `seq`) at `now`.
    public mutating func wrote(_ file: CanaryFile, at now: MonotonicInstant) {
        self.seq = max(self.seq, file.seq)
        self.lastFile = file
        // An acknowledgement writes the same `seq` again: its round trip runs from the first.
        if self.writes.last?.seq != file.seq { self.writes.append((file.seq, now)) }
        if self.writes.count > Self.maximumWrites { self.writes.removeFirst(self.writes.count - Self.maximumWrites) }
        if self.lastError?.reason == .write { self.lastError = nil }
    }

    /// Counts an error the owner met (a write that failed, a directory it could not list).
    public mutating func failed(_ reason: CanaryErrorReason, detail: String) {
        self.errors[reason] &+= 1
        self.lastError = (reason, detail)
    }

    /// The pair's engine could (not) have synced since `now`: while suppressed nothing is
    /// late, and when it ends every clock starts over.
    public mutating func setSuppressed(_ suppressed: Bool, at now: MonotonicInstant) {
        if self.suppressed, !suppressed { self.suppressionEnded = now }
        self.suppressed = suppressed
    }
}
