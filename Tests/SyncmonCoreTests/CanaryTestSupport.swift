import SyncmonCore

/// A canary driven by hand: seconds on a manual monotonic clock, a real-time clock that may
/// jump, and writes that succeed unless told otherwise.
struct CanaryRig {
    var canary: Canary
    /// Added to the real-time reading: a step of the wall clock (NTP, `date -s`).
    var wallJump: Int64 = 0
    /// Every action seen, in order.
    var log: [CanaryAction] = []

    static let me = CanaryHost("me")!

    init(
        mode: CanaryMode = .both,
        lateAfter: Int64 = 20,
        interval: Int64 = 2,
        maximumPeers: Int = 32,
        forgetAfter: Int64 = 7 * 86_400,
        startedAt: Int64 = 0,
        restoredSeq: Int64 = 0
    ) {
        let configuration = CanaryConfiguration(
            path: "/srv/shared", host: Self.me, interval: span(interval), lateAfter: span(lateAfter), mode: mode,
            maximumPeers: maximumPeers, forgetAfter: span(forgetAfter))
        self.canary = Canary(configuration: configuration, startedAt: mono(startedAt), restoredSeq: restoredSeq)
    }

    func moment(_ seconds: Int64) -> CanaryMoment {
        CanaryMoment(monotonic: mono(seconds), wall: at(seconds + self.wallJump))
    }

    /// A tick at `seconds`; its writes succeed. Returns the actions but the writes and reads.
    @discardableResult
    mutating func tick(_ seconds: Int64) -> [CanaryAction] {
        let actions = self.canary.tick(at: self.moment(seconds))
        for case .write(let file) in actions { self.canary.wrote(file, at: mono(seconds)) }
        self.log += actions
        return actions.filter { if case .write = $0 { false } else if case .readPeers = $0 { false } else { true } }
    }

    /// Peer files read at `seconds`.
    @discardableResult
    mutating func read(_ seconds: Int64, _ files: CanaryPeerRead...) -> [CanaryAction] {
        let actions = self.canary.read(files, at: self.moment(seconds))
        self.log += actions
        return actions
    }

    func late(_ host: String) -> CanaryLateness? {
        self.canary.peers[CanaryHost(host)!]?.late
    }
}

func mono(_ seconds: Int64) -> MonotonicInstant {
    MonotonicInstant(microseconds: (1_000_000 + seconds) * 1_000_000)
}

/// Peer `host`'s file at `seq`, having read this host's `seen`.
func peerFile(_ host: String, seq: Int64, seen: Int64? = nil, name: String? = nil) -> CanaryPeerRead {
    let file = CanaryFile(
        host: CanaryHost(host)!, seq: seq, written: at(0), seen: seen.map { [CanaryRig.me: $0] } ?? [:])
    return .file(name: name ?? "canary-\(host).json", bytes: Array(file.encoded.utf8))
}

func peer(_ host: String) -> CanaryHost { CanaryHost(host)! }
