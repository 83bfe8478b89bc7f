import FuzzSupport
import SyncmonCore

/// The NDJSON line framer, fed the input in chunks of fuzzer-chosen sizes with a small limit.
///
/// Oracle: the framed lines must be exactly those of splitting the whole input at `\n` (a last
/// piece without `\n` still counts when not empty), with every piece longer than the limit plus
/// one byte (the `\r` slack) reported as too large instead; so never more lines than `\n` plus
/// one, whatever the chunk boundaries.
@c(LLVMFuzzerTestOneInput)
public func fuzzLineFramer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let (selector, rest) = input.selectorAndRest
    // A limit of 0...31 bytes makes the over-long paths common; chunk sizes 1...8, then the rest.
    let limit = Int(selector & 0x1F)
    let chunkSizes = [1 + Int(selector >> 5), 3, 1 + Int(selector >> 5) * 2]

    var expected: [Piece] = []
    let split = rest.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    for (index, piece) in split.enumerated() {
        if index == split.count - 1, piece.isEmpty { break }  // nothing after the last `\n`
        expected.append(piece.count > limit + 1 ? .tooLarge : .line(Array(piece)))
    }

    var framer = LineFramer(maximumLineLength: limit)
    var framed: [Piece] = []
    let record: (LineFramer.Line) -> Void = { line in
        switch line {
        case .line(let bytes): framed.append(.line(Array(bytes)))
        case .tooLarge: framed.append(.tooLarge)
        }
    }
    for chunk in FuzzInput.chunks(rest, sizes: chunkSizes) {
        Array(chunk).withUnsafeBytes { framer.feed($0, record) }
    }
    framer.finish(record)

    let newlines = FuzzInput.count(of: UInt8(ascii: "\n"), in: rest)
    invariant(framed.count <= newlines + 1, "\(framed.count) lines from \(newlines) newlines")
    invariant(framed == expected, "framed \(framed), expected \(expected) (limit \(limit), chunks \(chunkSizes))")
    return 0
}

/// A framed line, comparable.
private enum Piece: Equatable {
    case line([UInt8])
    case tooLarge
}
