/// A canary as status, metrics and the stall detector see it (docs/canary.md): the status JSON's
/// `canary` object, `{"host","seq","peers":[{"host","seq","lastMoved","roundTripSeconds","late"}]}`,
/// with the counts of errors and the latest one besides.
public struct CanaryStatus: Hashable, Sendable {
    /// One peer.
    public struct Peer: Hashable, Sendable {
        public var host: CanaryHost
        public var seq: Int64
        /// When its canary last moved, on this host's real-time clock at the reading.
        public var lastMoved: Timestamp?
        /// The latest round trip, in seconds.
        public var roundTripSeconds: Double?
        /// Why it is late, while it is.
        public var late: CanaryLateness?

        public init(host: CanaryHost, seq: Int64, lastMoved: Timestamp?, roundTripSeconds: Double?, late: CanaryLateness?) {
            self.host = host
            self.seq = seq
            self.lastMoved = lastMoved
            self.roundTripSeconds = roundTripSeconds
            self.late = late
        }
    }

    public var host: CanaryHost
    public var seq: Int64
    /// In host order.
    public var peers: [Peer]
    /// `T` of `canary_late`; zero when the stall is disabled.
    public var lateAfter: TimeSpan
    /// Errors by reason.
    public var errors: CanaryErrorCounts
    /// The latest error not yet followed by a success of the same work, naming the path.
    public var error: String?

    public init(host: CanaryHost, seq: Int64, peers: [Peer], lateAfter: TimeSpan, errors: CanaryErrorCounts = CanaryErrorCounts(), error: String? = nil) {
        self.host = host
        self.seq = seq
        self.peers = peers
        self.lateAfter = lateAfter
        self.errors = errors
        self.error = error
    }

    /// Whether a peer is late.
    public var isLate: Bool { self.peers.contains { $0.late != nil } }

    /// The late peers' names, for the table's detail and the Nagios line.
    public var latePeers: [CanaryHost] { self.peers.filter { $0.late != nil }.map(\.host) }
}

extension Canary {
    /// The status at this moment.
    public var status: CanaryStatus {
        CanaryStatus(
            host: self.configuration.host,
            seq: self.seq,
            peers: self.peers.sorted { $0.key < $1.key }.map { host, peer in
                CanaryStatus.Peer(host: host, seq: peer.seq, lastMoved: peer.lastMoved?.wall, roundTripSeconds: peer.roundTrip?.seconds, late: peer.late)
            },
            lateAfter: self.configuration.lateAfter,
            errors: self.errors,
            error: self.lastError.map { "\($0.reason): \($0.detail)" }
        )
    }
}
