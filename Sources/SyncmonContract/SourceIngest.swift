import SyncmonCore

/// The one way a source's events enter the state model (the daemon's `EventIngest`): NDJSON
/// bytes framed into lines, whole documents (an SSE event's data), or events an adapter made.
/// Lines are framed with the configured line limit and applied a batch at a time; changes and
/// rejections are reported by the daemon, never by the source.
///
/// Used from one context at a time (a channel's event loop, or a source's task).
package protocol SourceIngest: AnyObject {
    /// What the events' arrival is timed with.
    var clock: any ServiceClock { get }
    /// The highest `seq` among the events applied so far.
    var highestSequence: Int64? { get }
    /// Frames a chunk of NDJSON and applies the lines it completes.
    func feed(_ bytes: UnsafeRawBufferPointer)
    /// The stream ended: a last line without `\n` is still read (docs/protocol.md, "Framing").
    func finish()
    /// Forgets a partial line (the stream restarted elsewhere, e.g. a truncated file).
    func discardPartialLine()
    /// Adds one whole document (an SSE event's data); `flush(asOneState:)` applies it.
    func add(document: [UInt8])
    /// Counts one over-long document.
    func addTooLarge()
    /// Applies events an adapter made, in one go; `asOneState` when they are a snapshot of
    /// how things stand.
    func apply(_ events: [Event], asOneState: Bool)
    /// Applies what was added.
    func flush(asOneState: Bool)
    /// Lines applied since the last call.
    func takeDelivered() -> Int
}

extension SourceIngest {
    /// Applies events an adapter made, as they come (not a snapshot).
    package func apply(_ events: [Event]) {
        self.apply(events, asOneState: false)
    }

    /// Applies what was added, as it comes (not a snapshot).
    package func flush() {
        self.flush(asOneState: false)
    }
}
