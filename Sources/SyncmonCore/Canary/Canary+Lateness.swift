extension Canary {
    /// Whether any peer is late.
    public var isLate: Bool { self.peers.values.contains { $0.late != nil } }

    /// Updates each peer's lateness at `now`, forgets the silent ones, and appends what changed.
    mutating func look(at now: MonotonicInstant, into actions: inout [CanaryAction]) {
        for host in self.peers.keys.sorted() {
            guard var peer = self.peers[host] else { continue }
            if now >= peer.heard.adding(self.configuration.forgetAfter) {
                self.forget(host, seq: peer.seq)
                actions.append(.forgotten(peer: host))
                continue
            }
            let late = self.lateness(of: peer, at: now)
            if late != nil, peer.late == nil { actions.append(.late(peer: host, late!)) }
            // Not while suppressed: the engine could not sync, so this is no recovery (the
            // pair's summary says why); lateness starts over when the suppression ends.
            if late == nil, peer.late != nil, !self.suppressed { actions.append(.recovered(peer: host)) }
            peer.late = late
            self.peers[host] = peer
        }
    }

    private mutating func forget(_ host: CanaryHost, seq: Int64) {
        self.peers[host] = nil
        if self.forgotten.count >= Self.maximumForgotten, let any = self.forgotten.keys.first { self.forgotten[any] = nil }
        self.forgotten[host] = seq
    }

    /// The rule `peer` breaks at `now`, if any (docs/canary.md): its canary has not moved
    /// for `late-after`; or (mode `both`) it still moves but has not acknowledged a `seq`
    /// written `late-after` ago. Each clock counts from the latest of its own start, the
    /// peer's first sighting, the daemon's start and the end of the last suppression.
    func lateness(of peer: CanaryPeer, at now: MonotonicInstant) -> CanaryLateness? {
        guard !self.suppressed, self.configuration.lateAfter > .zero else { return nil }
        let deadlines = self.lateDeadlines(of: peer)
        if let notMoving = deadlines.first, now >= notMoving { return .notMoving }
        if deadlines.count == 2, now >= deadlines[1], let pending = self.oldestUnacknowledged(by: peer) {
            return .notAcknowledged(seq: pending.seq)
        }
        return nil
    }

    /// When `peer` falls late by each rule that applies: not moving, then not acknowledging.
    func lateDeadlines(of peer: CanaryPeer) -> [MonotonicInstant] {
        guard self.configuration.mode.reads, self.configuration.lateAfter > .zero else { return [] }
        let floor = max(max(peer.firstSeen, self.started), self.suppressionEnded ?? self.started)
        var deadlines = [max(peer.heard, floor).adding(self.configuration.lateAfter)]
        if self.configuration.mode == .both, let pending = self.oldestUnacknowledged(by: peer) {
            deadlines.append(max(pending.at, floor).adding(self.configuration.lateAfter))
        }
        return deadlines
    }

    /// The oldest write of this run that `peer` has not acknowledged.
    private func oldestUnacknowledged(by peer: CanaryPeer) -> (seq: Int64, at: MonotonicInstant)? {
        self.writes.first { $0.seq > peer.acknowledged }
    }
}
