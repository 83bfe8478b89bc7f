import Logging
import NIOCore
import SyncmonContract
import SyncmonCore
import SyncmonSystemd

/// One configured source of events besides the push socket (docs/subscribe.md): a stream an
/// engine serves, a file it appends to, or a foreign tool's own API read through an adapter.
///
/// Every source hands what it receives to a `SourceIngest` made by its context, so lines and
/// adapter events take the same path into the state model as the push socket's. A new kind of
/// source is one type conforming to this, and one case in `SourceSpec.Endpoint.makeSource`.
package protocol EventSource: Sendable {
    /// Runs until the task is cancelled (graceful shutdown): connects, feeds the context's
    /// ingest, reports its state through `context.health`, and reconnects with backoff.
    func run(in context: SourceContext) async
}

/// What every source works with: the state model (as `SourceStateModel` shows it), the event
/// loops, the clock, its own health (the `syncmon_source_*` series) and where it may keep state.
package struct SourceContext: Sendable {
    let name: String
    let model: any SourceStateModel
    let group: any EventLoopGroup
    /// What the source reads time from and sleeps on.
    let clock: any ServiceClock
    let health: SourceHealth
    let stateDirectory: String
    let maximumLineLength: Int
    let logger: Logger

    /// An ingest for this source's events; `connection` ties the pairs that start on it, so
    /// that `connectionClosed(_:)` marks them down when the source loses its engine.
    func makeIngest(connection: UInt64? = nil, highestSequence: Int64? = nil) -> any SourceIngest {
        self.model.makeIngest(clock: self.clock, connection: connection, maximumLineLength: self.maximumLineLength, highestSequence: highestSequence)
    }

    /// A connection id no push connection uses (those count up from 1): the top bit set, and
    /// the name's hash below it so that several sources do not share one.
    static func connectionID(for name: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return (1 << 63) | (hash >> 1)
    }

    /// Log metadata naming the source.
    var metadata: Logger.Metadata { [SyncmonMetadataKey.source: "\(self.name)"] }
}
