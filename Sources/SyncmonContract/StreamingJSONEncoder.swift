import SyncmonCore

/// Encodes an `Encodable` value as JSON bytes written straight into one buffer, as the value's
/// `encode(to:)` calls come: `state.json`'s encoder (docs/performance.md).
///
/// FoundationEssentials' `JSONEncoder` builds the whole value as a tree first (an enum per
/// value, a dictionary per object, dynamic casts at each level) and then serializes it: saving
/// 10,000 pairs took it 0.6-0.8 s of CPU, about once a second while events came. This writes each
/// key and value as it is encoded, so the cost is the `Codable` calls and the bytes: the same
/// conformances, the same document (an object's keys in the order they are encoded, which
/// `JSONEncoder` never fixed; integers, strings, `null` and arrays as it writes them).
///
/// `Codable` never says when a container is finished, so the open objects and arrays are kept
/// on a stack: writing into a container closes every container opened deeper than it, and a
/// value's `encode(to:)` returning closes what it opened. A value that encodes nothing is
/// written `{}`, as `JSONEncoder` writes it. `codingPath` is always empty (no conformance of
/// ours reads it while encoding) and `superEncoder` writes into the key's slot.
///
/// The small documents written with their keys sorted for people to read (`notify.json`, a
/// source's position, the notification API's replies) keep `JSONEncoder`: they are written
/// rarely, and sorting keys is its job.
///
/// Not thread-safe; reuse one per thread to keep its buffer's capacity.
public final class StreamingJSONEncoder: Encoder {
    // Unchecked: a class's stored properties are otherwise checked for exclusive access at
    // run time at every write, a sixth of a save's CPU. The encoder is used from one thread,
    // and nothing it calls back into writes them while it does.
    /// The bytes written so far.
    @exclusivity(unchecked) var bytes: [UInt8] = []
    /// The objects and arrays still open, innermost last.
    @exclusivity(unchecked) private var open: [OpenContainer] = []

    public var codingPath: [any CodingKey] { [] }
    public var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// An open object or array: the byte that closes it and whether it holds an element yet.
    private struct OpenContainer {
        let closer: UInt8
        var isEmpty = true
    }

    public init() {}

    /// Encodes `value` alone: the buffer is emptied first (its capacity kept).
    public func encode<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        try self.withEncoded(value) { Array($0) }
    }

    /// Calls `body` with the bytes of `value`, without copying them out of the buffer.
    public func withEncoded<Value: Encodable, Result>(_ value: Value, _ body: (UnsafeRawBufferPointer) throws -> Result) throws -> Result {
        self.bytes.removeAll(keepingCapacity: true)
        self.open.removeAll(keepingCapacity: true)
        try self.write(value)
        return try self.bytes.withUnsafeBytes(body)
    }

    // MARK: Encoder

    public func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedContainer<Key>(encoder: self, depth: self.opening(UInt8(ascii: "{"), closer: UInt8(ascii: "}"))))
    }

    public func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedContainer(encoder: self, depth: self.opening(UInt8(ascii: "["), closer: UInt8(ascii: "]")))
    }

    public func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(encoder: self, depth: self.open.count)
    }

    // MARK: Writing, for the containers

    /// Opens an object or array in the current slot; returns the depth of the container in it.
    func opening(_ opener: UInt8, closer: UInt8) -> Int {
        self.bytes.append(opener)
        self.open.append(OpenContainer(closer: closer))
        return self.open.count
    }

    /// Closes every container deeper than `depth`, and starts the next element of the one at
    /// `depth` (a comma after the first).
    func nextElement(at depth: Int) {
        self.close(deeperThan: depth)
        guard depth > 0 else { return }
        if self.open[depth - 1].isEmpty {
            self.open[depth - 1].isEmpty = false
        } else {
            self.bytes.append(UInt8(ascii: ","))
        }
    }

    /// Starts the next member of the object at `depth`: its key and the colon.
    func key(_ key: some CodingKey, at depth: Int) {
        self.nextElement(at: depth)
        self.string(key.stringValue)
        self.bytes.append(UInt8(ascii: ":"))
    }

    func close(deeperThan depth: Int) {
        while self.open.count > depth { self.bytes.append(self.open.removeLast().closer) }
    }

    /// Writes any value in the current slot: through its own `encode(to:)`, closing what it
    /// opened; `{}` when it wrote nothing.
    func write<Value: Encodable>(_ value: Value) throws {
        let depth = self.open.count
        let start = self.bytes.count
        try value.encode(to: self)
        self.close(deeperThan: depth)
        if self.bytes.count == start { self.bytes.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")]) }
    }

    func null() {
        self.bytes.append(contentsOf: [UInt8(ascii: "n"), UInt8(ascii: "u"), UInt8(ascii: "l"), UInt8(ascii: "l")])
    }

    func boolean(_ value: Bool) {
        if value {
            self.bytes.append(contentsOf: [UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "u"), UInt8(ascii: "e")])
        } else {
            self.bytes.append(contentsOf: [UInt8(ascii: "f"), UInt8(ascii: "a"), UInt8(ascii: "l"), UInt8(ascii: "s"), UInt8(ascii: "e")])
        }
    }

    /// An integer in decimal, without a `String` made for it.
    func integer(_ value: some BinaryInteger) {
        if value < 0 { self.bytes.append(UInt8(ascii: "-")) }
        // The magnitude as a `UInt64` (every integer type `Codable` knows fits), digits from the right.
        var magnitude = UInt64(value.magnitude)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var index = 20
            repeat {
                index -= 1
                digits[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            self.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[index...]))
        }
    }

    /// A finite floating-point number as Swift prints it (`1.5`, `1e-05`); JSON has no
    /// infinity or NaN, so those are refused, as `JSONEncoder` refuses them.
    func floatingPoint<Number: BinaryFloatingPoint & LosslessStringConvertible>(_ value: Number) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: [], debugDescription: "\(value) is not a JSON number"))
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        self.bytes.append(contentsOf: text.utf8)
    }

    /// A string with its quotes, escaped as `JSONEncoder` escapes it (``JSONText/appendQuoted(_:to:)``).
    func string(_ value: String) {
        JSONText.appendQuoted(value, to: &self.bytes)
    }
}
