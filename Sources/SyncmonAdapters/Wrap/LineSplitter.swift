/// Cuts a stream of bytes into lines, keeping each line's terminator so that a line passed
/// through unchanged is written back byte for byte.
///
/// For rsync's standard output `\r` ends a line too: its progress records are separated by
/// `\r` and never by `\n`. A line longer than ``maximumLength`` is cut there, so that output
/// without any terminator cannot grow without bound.
public struct LineSplitter: Sendable {
    /// One line and what ended it.
    public struct Line: Equatable, Sendable {
        public var bytes: [UInt8]
        /// `\n` or `\r`; `nil` for a line cut at the length limit or left at the end.
        public var terminator: UInt8?

        public init(_ bytes: [UInt8], terminator: UInt8?) {
            self.bytes = bytes
            self.terminator = terminator
        }

        /// The text, with invalid UTF-8 repaired (parsers read text; output gets `bytes`).
        public var text: String { String(decoding: self.bytes, as: UTF8.self) }

        /// The line as it was received.
        public var raw: [UInt8] { self.terminator.map { self.bytes + [$0] } ?? self.bytes }

        /// A `\r` with nothing before it: rsync starts every progress record with one. It only
        /// moves a terminal's cursor, so where the records are hidden it is dropped with them.
        public var isBareCarriageReturn: Bool { self.bytes.isEmpty && self.terminator == UInt8(ascii: "\r") }
    }

    public let splitsOnCarriageReturn: Bool
    public let maximumLength: Int
    private var pending: [UInt8] = []

    public init(splitsOnCarriageReturn: Bool, maximumLength: Int = 1 << 20) {
        self.splitsOnCarriageReturn = splitsOnCarriageReturn
        self.maximumLength = maximumLength
    }

    /// The lines `bytes` completes.
    public mutating func feed<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> [Line] {
        var lines: [Line] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") || (self.splitsOnCarriageReturn && byte == UInt8(ascii: "\r")) {
                lines.append(Line(self.pending, terminator: byte))
                self.pending.removeAll(keepingCapacity: true)
            } else {
                self.pending.append(byte)
                if self.pending.count >= self.maximumLength {
                    lines.append(Line(self.pending, terminator: nil))
                    self.pending.removeAll(keepingCapacity: true)
                }
            }
        }
        return lines
    }

    /// What is left when the stream ends: a last line without a terminator, if any.
    public mutating func finish() -> Line? {
        guard !self.pending.isEmpty else { return nil }
        defer { self.pending.removeAll() }
        return Line(self.pending, terminator: nil)
    }
}
