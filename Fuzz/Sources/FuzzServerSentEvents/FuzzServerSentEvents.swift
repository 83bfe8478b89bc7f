import FuzzSupport
import SyncmonSources

/// The `text/event-stream` parser of subscribe sources (Syncthing-style SSE streams).
///
/// The input is fed whole and again in chunks of fuzzer-chosen sizes, with a small data limit.
/// Invariants: the outputs do not depend on chunk boundaries; an event's data fits the limit
/// and is empty when it is marked too large; no more outputs than line ends plus one; a
/// `retry:` is never negative.
@c(LLVMFuzzerTestOneInput)
public func fuzzServerSentEvents(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let (selector, rest) = input.selectorAndRest
    let limit = Int(selector & 0x3F)
    let chunkSizes = [1 + Int(selector >> 6), 2, 7]

    let whole = parse(chunks: [rest], limit: limit)
    let chunked = parse(chunks: FuzzInput.chunks(rest, sizes: chunkSizes), limit: limit)
    invariant(whole.outputs == chunked.outputs, "chunks \(chunkSizes) changed the events: \(whole.outputs) vs \(chunked.outputs)")
    invariant(whole.lastEventID == chunked.lastEventID, "chunks changed the last event ID")

    let lineEnds = FuzzInput.count(of: UInt8(ascii: "\n"), in: rest) + FuzzInput.count(of: UInt8(ascii: "\r"), in: rest)
    invariant(whole.outputs.count <= lineEnds + 1, "\(whole.outputs.count) outputs from \(lineEnds) line ends")
    for output in whole.outputs {
        switch output {
        case .event(let event):
            invariant(event.data.count <= limit, "\(event.data.count) bytes of data over the limit \(limit)")
            invariant(!event.isTooLarge || event.data.isEmpty, "a too-large event kept its data")
            _ = event.text
        case .retry(let milliseconds):
            invariant(milliseconds >= 0, "retry \(milliseconds)")
        }
    }
    return 0
}

private func parse(chunks: [ArraySlice<UInt8>], limit: Int) -> (outputs: [ServerSentEventParser.Output], lastEventID: String) {
    var parser = ServerSentEventParser(maximumDataLength: limit, lastEventID: "resume")
    var outputs: [ServerSentEventParser.Output] = []
    for chunk in chunks {
        Array(chunk).withUnsafeBytes { parser.feed($0) { outputs.append($0) } }
    }
    parser.finish()
    return (outputs, parser.lastEventID)
}
