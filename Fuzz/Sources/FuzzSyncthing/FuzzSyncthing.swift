import FuzzSupport
import SyncmonAdapters
import SyncmonCore

/// The Syncthing adapter: REST snapshot answers and `/rest/events` batches, as JSON bytes.
///
/// The input is split at NUL bytes (which JSON text cannot hold). The pieces answer the
/// snapshot's requests in the order it asks them (`/rest/system/status`, the latest event,
/// `/rest/system/connections`, `/rest/config`, then per folder); the first answer it refuses
/// abandons the snapshot, and the remaining pieces are event batches. Everything the adapter
/// emits is applied to a `Monitor`, as the daemon does. Invariants: emitted events belong to the
/// adapter's engine; event ids only move forward; nothing traps.
@c(LLVMFuzzerTestOneInput)
public func fuzzSyncthing(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    var pieces = input.pieces(separatedBy: 0)[...]
    var adapter = SyncthingAdapter(engine: engine)
    var monitor = Monitor()
    var now = Timestamp(seconds: 1_780_000_000)

    func take(_ output: SyncthingOutput) {
        for event in output.events {
            invariant(event.engine == engine, "event for engine \(event.engine)")
            _ = monitor.apply(event, at: now)
        }
        for notice in output.notices { _ = notice.description }
        _ = monitor.changes(at: now)
    }

    var snapshot = adapter.makeSnapshot()
    var complete = true
    while let request = snapshot.nextRequest {
        guard let piece = pieces.popFirst() else {
            complete = false
            break
        }
        do {
            try snapshot.record(request, body: Array(piece))
        } catch {
            _ = error.description
            complete = false
            break
        }
    }
    if complete { take(adapter.ingest(snapshot: snapshot, at: now)) }

    for piece in pieces {
        now = now.adding(.seconds(5 as Int64))
        let since = adapter.since
        do {
            take(try adapter.ingest(events: Array(piece), at: now))
            invariant(adapter.since >= since || adapter.needsSnapshot, "since went back from \(since) to \(adapter.since)")
        } catch {
            _ = error.description
            invariant(adapter.needsSnapshot, "an undecodable batch left the adapter trusting its state")
        }
    }
    _ = adapter.reportedPairs
    _ = monitor.rows(at: now)
    return 0
}

private let engine = InlineName("syncthing")!
