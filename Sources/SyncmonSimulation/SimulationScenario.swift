import SyncmonClient
import SyncmonCore

/// What a simulated engine goes through (`syncmon simulate`).
package enum SimulationScenario: String, CaseIterable, Sendable, Hashable {
    /// Cycles fetch and send with realistic batches and pending counts; now and then a
    /// `serverRecordChanged` conflict, which is normal multi-device life.
    case healthy
    /// Loses the network for a while every minute or two (`networkStatus` false, then true), and
    /// some cycles fail with transient `networkFailure` errors.
    case flakyNetwork = "flaky-network"
    /// After a healthy start the server rate-limits every send (`requestRateLimited` with a
    /// `retryAfter` of 30-120 s) for 10-20 minutes; the engine waits as told, then recovers.
    case rateLimited = "rate-limited"
    /// Every send has some saves fail with `quotaExceeded`; pending changes pile up.
    case quotaExceeded = "quota-exceeded"
    /// After a few cycles a fetch starts and makes no progress for 20-30 minutes while the
    /// engine stays alive (heartbeats): `no_progress` once the daemon's threshold (5 min) passes.
    case hungFetch = "hung-fetch"
    /// Dies after 2-3 minutes (or half of `--duration`, if shorter): no `engineStopped`, no more
    /// heartbeats, the connection drops.
    case crash

    /// The default fleet, by engine index (repeating): one engine of each troubled kind in
    /// every twenty, the rest healthy.
    package static let defaultMix: [SimulationScenario] =
        [.healthy, .flakyNetwork, .rateLimited, .quotaExceeded, .hungFetch, .crash] + Array(repeating: .healthy, count: 14)

    /// What `status` should end up showing for an engine of this scenario, once its trouble
    /// has had time to show (a one-line description for `--help` and the start banner).
    package var expectation: String {
        switch self {
        case .healthy: "succeeded / in_progress"
        case .flakyNetwork: "no_network, retrying or succeeded, changing"
        case .rateLimited: "throttled after ~1 min"
        case .quotaExceeded: "error (quotaExceeded) from the first send"
        case .hungFetch: "stalled (no_progress) ~5 min after the fetch hangs"
        case .crash: "engine_down after 2-3 min"
        }
    }
}
