/// The fixed parts of one family's per-series sample lines, rendered once: the head (`name{`) and
/// each tail (`,phase="import",state="idle"} `), between which a series' own labels go.
///
/// With these a line is three copies and the value: head, the series' labels, a tail. Through
/// ``LabelSet`` it was the name, the labels, the extra labels and the state or `le` label with
/// a comma or brace between each, every piece an array read (and retained) per line.
///
/// The bytes live in memory of the table's own, read through plain pointers, so writing a line
/// retains nothing. Tables are meant to be built once, as constants beside their family.
///
/// Tails are numbered extra-major: tail `extra * lasts + last`, where `lasts` is the number of
/// states of a state set or buckets of a histogram (one otherwise). A state set's or a
/// histogram's series for extra label set `group` uses tails `group * lasts ..< (group + 1) * lasts`.
public final class SeriesLines: @unchecked Sendable {
    // @unchecked: the pointers refer to memory only this table owns, written in `init` and read
    // only after it.

    /// Which of a family's sample names the lines carry.
    public enum Part: Sendable {
        /// The sample name of a counter, gauge, info or state set; a state set gets a tail per state.
        case samples
        /// A histogram's `_bucket` lines, a tail per bucket.
        case buckets
        /// A histogram's `_sum` line.
        case sum
        /// A histogram's `_count` line.
        case count
    }

    /// The family these lines belong to, for the writer's debug checks.
    let familyName: String

    /// `name{`.
    let head: UnsafeRawBufferPointer

    /// The tails back to back: tail `i` is `tailBytes[tailStarts[i] ..< tailStarts[i + 1]]`.
    private let tailBytes: UnsafeMutableRawBufferPointer
    private let tailStarts: UnsafeMutableBufferPointer<Int>

    /// Tails per extra label set: the states of a state set, the buckets of a histogram, else 1.
    public let lastsPerGroup: Int

    /// How many tails there are.
    public var tailCount: Int { self.tailStarts.count - 1 }

    /// The longest head plus tail, for the writer's capacity check.
    let longestFixedPart: Int

    /// The lines of `family`'s `part`, once for each of `extras` (or once without extra labels).
    public init(_ family: MetricFamily, part: Part = .samples, extras: [LabelSet] = []) {
        let name: [UInt8]
        var lasts: [[UInt8]] = [[]]
        switch part {
        case .samples:
            name = family.sampleName
            if family.kind.isStateSet { lasts = family.stateLabels }
        case .buckets:
            name = family.bucketName
            lasts = family.bucketLabels
        case .sum:
            name = family.sumName
        case .count:
            name = family.countName
        }
        precondition(!name.isEmpty, "\(family.name) has no \(part) lines")
        self.familyName = family.name
        self.lastsPerGroup = lasts.count
        var tails: [[UInt8]] = []
        for extra in extras.isEmpty ? [LabelSet.empty] : extras {
            for last in lasts {
                var tail: [UInt8] = []
                if !extra.bytes.isEmpty { tail += [UInt8(ascii: ",")] + extra.bytes }
                if !last.isEmpty { tail += [UInt8(ascii: ",")] + last }
                tail += Array("} ".utf8)
                tails.append(tail)
            }
        }
        self.head = Self.copy(name + [UInt8(ascii: "{")])
        // Padded: the writer copies the tails in 16-byte blocks (`ByteCursor.putBlocks`).
        let tailTotal = tails.reduce(0) { $0 + $1.count }
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: tailTotal + ByteCursor.blockSlack, alignment: 16)
        bytes.initializeMemory(as: UInt8.self, repeating: 0)
        let starts = UnsafeMutableBufferPointer<Int>.allocate(capacity: tails.count + 1)
        var offset = 0
        for (index, tail) in tails.enumerated() {
            starts[index] = offset
            tail.withUnsafeBytes { bytes.baseAddress!.advanced(by: offset).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            offset += tail.count
        }
        starts[tails.count] = offset
        self.tailBytes = bytes
        self.tailStarts = starts
        self.longestFixedPart = self.head.count + (tails.map(\.count).max() ?? 0)
    }

    deinit {
        UnsafeMutableRawBufferPointer(mutating: self.head).deallocate()
        self.tailBytes.deallocate()
        self.tailStarts.deallocate()
    }

    /// Tail `index`.
    @inline(__always)
    func tail(_ index: Int) -> UnsafeRawBufferPointer {
        let start = self.tailStarts[index]
        return UnsafeRawBufferPointer(start: self.tailBytes.baseAddress! + start, count: self.tailStarts[index + 1] - start)
    }

    /// `bytes` in memory of their own, padded for `ByteCursor.putBlocks`.
    private static func copy(_ bytes: [UInt8]) -> UnsafeRawBufferPointer {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count + ByteCursor.blockSlack, alignment: 16)
        copy.initializeMemory(as: UInt8.self, repeating: 0)
        bytes.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: copy[..<bytes.count]).copyMemory(from: $0) }
        return UnsafeRawBufferPointer(rebasing: copy[..<bytes.count])
    }
}
