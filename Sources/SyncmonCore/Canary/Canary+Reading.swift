extension Canary {
    /// Takes in the peer files the owner read at `now`: each moved peer, each acknowledgement
    /// (timed when this run wrote that `seq`), each entry skipped and counted. Files missing
    /// from `files` change nothing: a peer whose file is gone simply stops moving.
    public mutating func read(_ files: [CanaryPeerRead], at now: CanaryMoment) -> [CanaryAction] {
        self.lastRead = now.monotonic
        if self.lastError?.reason == .read { self.lastError = nil }
        var actions: [CanaryAction] = []
        for entry in files {
            switch entry {
            case .file(let name, let bytes):
                self.take(name: name, bytes: bytes, at: now, into: &actions)
            case .notRegular(let name):
                self.reject(.malformed, name: name, detail: "not a regular file (a symbolic link or a directory): skipped", into: &actions)
            case .tooLarge(let name, let size):
                self.reject(.malformed, name: name, detail: "\(size) bytes, more than a canary's \(CanaryFile.maximumSize)", into: &actions)
            case .unreadable(let name, let reason):
                self.reject(.read, name: name, detail: reason, into: &actions)
            }
        }
        self.pruneWrites()
        self.look(at: now.monotonic, into: &actions)
        return actions
    }

    private mutating func reject(_ reason: CanaryErrorReason, name: String, detail: String, into actions: inout [CanaryAction]) {
        self.errors[reason] &+= 1
        actions.append(.rejected(reason, name: name, detail: detail))
    }

    /// One regular file named like a canary.
    private mutating func take(name: String, bytes: [UInt8], at now: CanaryMoment, into actions: inout [CanaryAction]) {
        guard let named = CanaryHost(fileName: name), named != self.configuration.host else { return }
        guard let file = CanaryFile.parse(bytes) else {
            self.reject(.malformed, name: name, detail: "not a canary file (JSON with v 1, host, seq, written, seen)", into: &actions)
            return
        }
        guard file.host == named else {
            self.reject(.malformed, name: name, detail: "names host \(file.host), not \(named)", into: &actions)
            return
        }
        // An acknowledgement of a `seq` this host never wrote (its state was lost) counts up to
        // the latest it did write: the later writes must still come back.
        let acknowledged = min(file.seen[self.configuration.host] ?? 0, self.seq)
        guard var peer = self.peers[named] else {
            self.add(file, acknowledged: acknowledged, name: name, at: now, into: &actions)
            return
        }
        if file.seq > peer.seq {
            peer.lastMoved = now
            actions.append(.moved(peer: named, seq: file.seq))
            self.acknowledgeSoon(at: now.monotonic)
        }
        // A `seq` that went down (the peer lost its state) is the new baseline, not a move.
        peer.seq = file.seq
        if acknowledged > peer.acknowledged {
            peer.acknowledged = acknowledged
            let roundTrip = self.writeTime(of: acknowledged).map { now.monotonic.since($0) }
            if let roundTrip { peer.roundTrip = roundTrip }
            actions.append(.acknowledged(peer: named, seq: acknowledged, roundTrip: roundTrip))
        }
        self.peers[named] = peer
    }

    /// A peer read for the first time (or again, after it was forgotten and moved since).
    private mutating func add(_ file: CanaryFile, acknowledged: Int64, name: String, at now: CanaryMoment, into actions: inout [CanaryAction]) {
        if let forgottenSeq = self.forgotten[file.host] {
            guard file.seq > forgottenSeq else { return }
            self.forgotten[file.host] = nil
        }
        guard self.peers.count < self.configuration.maximumPeers else {
            self.reject(.peerLimit, name: name, detail: "more than \(self.configuration.maximumPeers) peers: ignored", into: &actions)
            return
        }
        var peer = CanaryPeer(seq: file.seq, firstSeen: now.monotonic, lastMoved: nil, acknowledged: acknowledged, roundTrip: nil, late: nil)
        if acknowledged > 0, let written = self.writeTime(of: acknowledged) {
            peer.roundTrip = now.monotonic.since(written)
            actions.append(.acknowledged(peer: file.host, seq: acknowledged, roundTrip: peer.roundTrip))
        }
        self.peers[file.host] = peer
    }

    /// When this run wrote `seq`, if it did and still remembers.
    private func writeTime(of seq: Int64) -> MonotonicInstant? {
        self.writes.last { $0.seq == seq }?.at
    }

    /// Forgets writes every peer has acknowledged, but the latest: it times the next acknowledgement.
    private mutating func pruneWrites() {
        guard let oldestNeeded = self.peers.values.map(\.acknowledged).min() else { return }
        let drop = self.writes.prefix { $0.seq < oldestNeeded }.count
        if drop > 0 { self.writes.removeFirst(drop) }
    }
}
