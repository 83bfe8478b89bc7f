/// A write position inside memory the caller has already made big enough.
///
/// The writer's hot path: ``ExpositionWriter`` checks capacity once per sample line, then copies the
/// line's pieces through a cursor with no further checks. Going through `Array.append` for each piece
/// instead costs a uniqueness and capacity check per piece (some ten per line), which at ~100,000
/// lines was most of the render time.
struct ByteCursor {
    /// Where the next byte goes.
    private(set) var position: UnsafeMutablePointer<UInt8>

    init(_ position: UnsafeMutablePointer<UInt8>) {
        self.position = position
    }

    @inline(__always)
    mutating func put(_ byte: UInt8) {
        self.position.initialize(to: byte)
        self.position += 1
    }

    @inline(__always)
    mutating func put(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            self.position.update(from: base, count: source.count)
            self.position += source.count
        }
    }

    /// Copies `source` with plain 16-, 8- and 4-byte moves, overlapping at the end, instead of
    /// calling `memmove`: the pieces of a sample line are 1–80 bytes, and the call itself (through
    /// the PLT, then dispatching on the size) cost more than the copy; `memmove` was a quarter of
    /// the 10,000-pair render.
    @inline(__always)
    mutating func put(_ source: UnsafeRawBufferPointer) {
        let count = source.count
        guard count > 0, let from = source.baseAddress else { return }
        let to = UnsafeMutableRawPointer(self.position)
        if count >= 16 {
            var offset = 0
            while offset + 16 <= count {
                to.storeBytes(of: from.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self), toByteOffset: offset, as: SIMD16<UInt8>.self)
                offset += 16
            }
            if offset < count {
                let last = count - 16
                to.storeBytes(of: from.loadUnaligned(fromByteOffset: last, as: SIMD16<UInt8>.self), toByteOffset: last, as: SIMD16<UInt8>.self)
            }
        } else if count >= 8 {
            to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self), toByteOffset: count - 8, as: UInt64.self)
        } else if count >= 4 {
            to.storeBytes(of: from.loadUnaligned(as: UInt32.self), as: UInt32.self)
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self), toByteOffset: count - 4, as: UInt32.self)
        } else {
            for offset in 0..<count {
                to.storeBytes(of: from.load(fromByteOffset: offset, as: UInt8.self), toByteOffset: offset, as: UInt8.self)
            }
        }
        self.position += count
    }

    /// The bytes ``putBlocks(_:)`` may read past its source's end and write past the copy's:
    /// its sources are padded with this many readable bytes, and the rooms it writes into
    /// leave this much over.
    static let blockSlack = 16

    /// Copies `source` in whole 16-byte blocks: reads and writes up to ``blockSlack`` - 1 bytes
    /// past the end, which the next piece of the line overwrites, or which lie past the line in
    /// the slack the caller's room leaves. A line's head, labels and tail (15, 40 and 25 bytes
    /// or so) go in one to three blocks each, without the overlapping last copy and length
    /// checks of ``put(_:)-(UnsafeRawBufferPointer)``: a state-set line took about 110
    /// instructions through that, 80 through this (docs/performance.md, fifth pass).
    ///
    /// Only for sources padded with ``blockSlack`` readable bytes (``SeriesLines``' heads and
    /// tails, ``SeriesLabels``' labels).
    @inline(__always)
    mutating func putBlocks(_ source: UnsafeRawBufferPointer) {
        let count = source.count
        guard count > 0, let from = source.baseAddress else { return }
        let to = UnsafeMutableRawPointer(self.position)
        var offset = 0
        repeat {
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self), toByteOffset: offset, as: SIMD16<UInt8>.self)
            offset &+= 16
        } while offset < count
        self.position += count
    }

    @inline(__always)
    mutating func put(_ text: StaticString) {
        self.position.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        self.position += text.utf8CodeUnitCount
    }

    /// Writes the decimal digits of `value`, at most 20 bytes.
    @inline(__always)
    mutating func putDecimal(_ value: UInt64) {
        // Single digits dominate (state sets, up/down gauges, small counters).
        if value < 10 {
            self.put(UInt8(truncatingIfNeeded: value) &+ UInt8(ascii: "0"))
            return
        }
        // Count the digits, then fill them in from the right: no scratch copy needed.
        var digits = 2
        var limit: UInt64 = 100
        while digits < 20, value >= limit {
            digits += 1
            limit &*= 10
        }
        self.putDigits(value, count: digits)
    }

    /// Writes the last `count` decimal digits of `value`, leading zeros kept (`count` ≥ 1).
    /// From the right, dividing by the constant 10 only: the compiler turns that into a
    /// multiplication, where a division by a running power of ten is a `div` per digit.
    @inline(__always)
    mutating func putDigits(_ value: UInt64, count: Int) {
        var remaining = value
        var index = count
        repeat {
            let (quotient, digit) = remaining.quotientAndRemainder(dividingBy: 10)
            index -= 1
            self.position[index] = UInt8(truncatingIfNeeded: digit) &+ UInt8(ascii: "0")
            remaining = quotient
        } while index > 0
        self.position += count
    }
}
