import FuzzSupport
import SyncmonCore

/// The wire-line decoder every pushed event goes through, then the state model it feeds.
///
/// Each `\n`-separated line is decoded alone, and the whole input is replayed as a stream
/// (framer → decoder → `Monitor`) and evaluated, as `syncmon replay` and the daemon do.
/// Invariants: decoding is deterministic and ignores one trailing `\r`; a decoded engine name
/// is a valid one; the stream has no more lines than the input has `\n` plus one; every line
/// is counted at most once (accepted, duplicate or rejected).
@c(LLVMFuzzerTestOneInput)
public func fuzzEventDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let decoder = EventDecoder()
    for line in input.pieces(separatedBy: UInt8(ascii: "\n")) {
        let result = decoder.decode(line)
        if case .event(let event) = result {
            invariant(EngineName.isValid(event.engine.description.utf8), "decoded engine \(event.engine) is not a valid name")
        }
        if line.last != UInt8(ascii: "\r") {
            let again = decoder.decode(line + [UInt8(ascii: "\r")])
            invariant(summary(result) == summary(again), "a trailing \\r changed \(summary(result)) into \(summary(again))")
        }
    }

    let fallback = Timestamp(seconds: 1_700_000_000)
    var session = ReplaySession()
    input.bytes.withUnsafeBytes { session.feed($0) }
    session.finish(fallbackTime: fallback)
    let newlines = FuzzInput.count(of: UInt8(ascii: "\n"), in: input.bytes)
    invariant(session.lines <= UInt64(newlines) + 1, "\(session.lines) lines from \(newlines) newlines")
    var monitor = session.monitor
    let counted = monitor.accepted + monitor.duplicates + monitor.rejected.reduce(0, +)
    invariant(counted <= session.lines, "\(counted) counted for \(session.lines) lines")

    // Evaluate as a scrape and `syncmon status` would, now and an hour later.
    for advance in [TimeSpan.seconds(0 as Int64), .seconds(3600 as Int64)] {
        let now = session.now(advancedBy: advance, fallbackTime: fallback)
        _ = monitor.changes(at: now)
        let rows = monitor.rows(at: now)
        _ = monitor.summaries(at: now)
        _ = StatusDocument.json(rows: rows, now: now, pretty: false)
    }
    return 0
}

/// What a decode result says, comparable (`Event` is not `Equatable`).
private func summary(_ result: DecodeResult) -> String {
    switch result {
    case .blank: "blank"
    case .rejected(let rejection): "rejected \(rejection)"
    case .event(let event): "event \(event)"
    }
}
