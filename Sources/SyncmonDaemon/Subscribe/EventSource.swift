import Logging
import NIOCore
import SyncmonCore
import SyncmonSystemd

/// One configured source of events besides the push socket (docs/subscribe.md): a stream an
/// engine serves, a file it appends to, or a foreign tool's own API read through an adapter.
///
/// Every source hands what it receives to an `EventIngest` made by its context, so lines and
/// adapter events take the same path into the state model as the push socket's. A new kind of
/// source is one type conforming to this, and one case in `SourceSpec.Endpoint.makeSource`.
protocol EventSource: Sendable {
    /// Runs until the task is cancelled (graceful shutdown): connects, feeds the context's
    /// ingest, reports its state through `context.health`, and reconnects with backoff.
    func run(in context: SourceContext) async
}

/// What every source works with: the state model, the reporter, the event loops, the clock,
/// its own health (the `syncmon_source_*` series) and where it may keep state.
struct SourceContext: Sendable {
    let name: String
    let store: MonitorStore
    let reporter: EventReporter
    let group: any EventLoopGroup
    /// What the source reads time from and sleeps on.
    let clock: any ServiceClock
    let health: SourceHealth
    let stateDirectory: String
    let maximumLineLength: Int
    let logger: Logger

    /// An ingest for this source's events; `connection` ties the pairs that start on it, so
    /// that `connectionClosed(_:)` marks them down when the source loses its engine.
    func makeIngest(connection: UInt64? = nil, highestSequence: Int64? = nil) -> EventIngest {
        EventIngest(
            store: self.store,
            reporter: self.reporter,
            transport: .subscribe,
            clock: self.clock,
            connection: connection,
            maximumLineLength: self.maximumLineLength,
            highestSequence: highestSequence
        )
    }

    /// Log metadata naming the source.
    var metadata: Logger.Metadata { [SyncmonMetadataKey.source: "\(self.name)"] }
}
