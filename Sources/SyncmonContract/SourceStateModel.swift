import SyncmonCore

/// The state model as a source sees it: what it may hand over and ask, and nothing else. The
/// daemon implements it over its store and reporter, so that every change a source causes is
/// applied under the store's lock and reported (journal, status) in one place; a test
/// implements it with a recorder.
package protocol SourceStateModel: Sendable {
    /// An ingest for one stream of a source's events. `connection` ties the pairs that start on
    /// it, so that `connectionClosed(_:now:)` marks them down when the source loses its engine;
    /// `highestSequence` is where a resumed stream left off.
    func makeIngest(clock: any ServiceClock, connection: UInt64?, maximumLineLength: Int, highestSequence: Int64?) -> any SourceIngest
    /// The pairs tied to `connection` lost their engine (`engine_down`).
    func connectionClosed(_ connection: UInt64, now: Timestamp)
    /// `engine`'s pairs tied to `connection` lost their source (a refused or silent API).
    func sourceLost(_ engine: InlineName, connection: UInt64, now: Timestamp)
    /// `key`'s state is not known, and why (`nil`: known again).
    func setUnknown(_ key: PairKey, because reason: String?, now: Timestamp)
    /// A canary's status and the cycles it completed, put on its pair.
    func canary(_ key: PairKey, _ status: CanaryStatus, cycles: [(phase: Phase, at: Timestamp)], now: Timestamp)
    /// Whether `key` is suppressed (docs/protocol.md, "suppress") at `time`.
    func isSuppressed(_ key: PairKey, at time: Timestamp) -> Bool
}
