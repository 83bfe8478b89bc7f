import SyncmonCore
import SyncmonExposition

/// The canary families of docs/metrics.md (docs/canary.md): per pair with a canary, and per peer
/// (`peer`, at most 32 per canary).
extension MetricsRenderer {
    /// The canary families, defined once, and the `reason` label sets of the error counter.
    enum CanaryFamilies {
        static let roundTrip = MetricFamily.gauge(
            "syncmon_canary_round_trip_seconds",
            help:
                "The last round trip of this host's canary through the peer: from writing a seq to reading the peer's acknowledgement, which the peer writes as soon as it reads the seq."
        )
        static let lastMoved = MetricFamily.gauge(
            "syncmon_canary_last_moved_timestamp_seconds",
            help: "When the peer's canary last moved (its seq grew), read on this host; absent until it has."
        )
        static let peers = MetricFamily.gauge("syncmon_canary_peers", help: "Peers the canary follows.")
        static let errors = MetricFamily.counter(
            "syncmon_canary_errors_total",
            help: "Canary errors by reason: write, read, malformed (a peer file skipped), peer_limit (a peer beyond 32 ignored)."
        )
        static let reasons = CanaryErrorReason.allCases.map { LabelSet("reason", $0.description) }
    }

    /// Writes the four families for `pairs` (sorted, with their `engine`/`database` labels).
    static func writeCanaries(
        into writer: inout ExpositionWriter,
        pairs: SortedPairs,
        labels: PairLabels
    ) {
        writer.family(CanaryFamilies.roundTrip)
        for index in pairs.indices {
            for peer in pairs[index].value.canary?.peers ?? [] {
                if let seconds = peer.roundTripSeconds {
                    writer.sample(Lines.canaryRoundTrip, labels: labels[index], extra: LabelSet("peer", peer.host.description), value: seconds)
                }
            }
        }
        writer.family(CanaryFamilies.lastMoved)
        for index in pairs.indices {
            for peer in pairs[index].value.canary?.peers ?? [] {
                if let moved = peer.lastMoved {
                    writer.sample(Lines.canaryLastMoved, labels: labels[index], extra: LabelSet("peer", peer.host.description), value: moved.seconds)
                }
            }
        }
        writer.family(CanaryFamilies.peers)
        for index in pairs.indices {
            if let canary = pairs[index].value.canary { writer.sample(Lines.canaryPeers, labels: labels[index], value: canary.peers.count) }
        }
        writer.family(CanaryFamilies.errors)
        for index in pairs.indices {
            guard let canary = pairs[index].value.canary else { continue }
            for reason in CanaryErrorReason.allCases {
                writer.sample(Lines.canaryErrors, labels: labels[index], tail: reason.rawValue, value: canary.errors[reason])
            }
        }
    }
}
