import SyncmonCore

/// The one-line `STATUS=` text systemd shows (docs/operations.md#systemd), e.g. "3 engines: 2 ok, 1 stalled".
package enum StatusLine {
    /// Counts engines (not pairs) by their worst summary; healthy ones are "ok".
    package static func text(summaries: [(key: PairKey, summary: Summary)]) -> String {
        var worst: [InlineName: Summary] = [:]
        for (key, summary) in summaries { worst[key.engine] = min(worst[key.engine] ?? summary, summary) }
        guard !worst.isEmpty else { return "no engines yet" }
        var counts: [String: Int] = [:]
        for summary in worst.values {
            counts[summary.severity == .ok ? "ok" : summary.description, default: 0] += 1
        }
        // "ok" first, then problems in precedence order.
        let order = ["ok"] + Summary.allCases.map(\.description)
        let parts = order.compactMap { name in counts[name].map { "\($0) \(name)" } }
        let noun = worst.count == 1 ? "engine" : "engines"
        return "\(worst.count) \(noun): " + parts.joined(separator: ", ")
    }
}
