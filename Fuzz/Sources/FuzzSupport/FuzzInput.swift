/// One libFuzzer input, carved into the pieces a target needs.
///
/// The carving is deterministic and cheap, so the fuzzer learns it like any other branch: a
/// leading byte chooses options or chunk sizes, a separator byte splits documents.
public struct FuzzInput {
    /// The input's bytes (copied: the fuzzer's buffer is only valid during the call).
    public let bytes: [UInt8]

    public init(_ data: UnsafePointer<UInt8>, _ size: Int) {
        self.bytes = Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// The first byte (0 for an empty input) and the rest.
    public var selectorAndRest: (selector: UInt8, rest: ArraySlice<UInt8>) {
        guard let first = self.bytes.first else { return (0, []) }
        return (first, self.bytes.dropFirst())
    }

    /// The bytes split at every `separator`, empty pieces kept.
    public func pieces(separatedBy separator: UInt8) -> [ArraySlice<UInt8>] {
        self.bytes.split(separator: separator, omittingEmptySubsequences: false)
    }

    /// Counts `byte` in `bytes`.
    public static func count(of byte: UInt8, in bytes: some Sequence<UInt8>) -> Int {
        bytes.reduce(0) { $0 + ($1 == byte ? 1 : 0) }
    }

    /// Splits `bytes` into chunks whose sizes cycle through `sizes` (all at least 1), as a
    /// socket might deliver them.
    public static func chunks(_ bytes: ArraySlice<UInt8>, sizes: [Int]) -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var turn = 0
        while start < bytes.endIndex {
            let size = max(1, sizes.isEmpty ? bytes.count : sizes[turn % sizes.count])
            let end = min(bytes.endIndex, start + size)
            result.append(bytes[start..<end])
            start = end
            turn += 1
        }
        return result
    }
}

/// Stops the fuzzer with a message when a parser breaks one of its own invariants: a trap
/// libFuzzer records as a crash, with the input that caused it.
public func invariant(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #file, line: UInt = #line) {
    if !condition() {
        fatalError("invariant broken: \(message())", file: file, line: line)
    }
}
