import FoundationEssentials
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
            invariant(same(result, again), "a trailing \\r changed the result of \(String(decoding: line, as: UTF8.self))")
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

    // Evaluate as the daemon would at the last event, then as a scrape and `syncmon status`
    // would an hour later.
    _ = monitor.changes(at: session.now(advancedBy: .seconds(0 as Int64), fallbackTime: fallback))
    let later = session.now(advancedBy: .seconds(3600 as Int64), fallbackTime: fallback)
    _ = monitor.changes(at: later)
    _ = monitor.summaries(at: later)
    // The status document, written as the daemon writes it, must always read back.
    let document = StatusDocument(now: later, engines: monitor.rows(at: later))
    let decoded = try? JSONDecoder().decode(StatusDocument.self, from: Data(document.json(pretty: false)))
    invariant(decoded?.engines.count == document.engines.count, "the status document does not read back")
    return 0
}

/// Whether two decode results say the same (`Event` is not `Equatable`; its parts are).
private func same(_ first: DecodeResult, _ second: DecodeResult) -> Bool {
    switch (first, second) {
    case (.blank, .blank): true
    case (.rejected(let a), .rejected(let b)): a == b
    case (.event(let a), .event(let b)):
        a.engine == b.engine && a.database == b.database && a.time == b.time && a.sequence == b.sequence && a.payload == b.payload
    default: false
    }
}
