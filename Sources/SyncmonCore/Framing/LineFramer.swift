#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a byte stream into NDJSON lines (docs/protocol.md#transports, docs/protocol.md#validation), whatever the chunk boundaries.
///
/// Complete lines inside a chunk are handed out in place (no copy); only a line that straddles
/// two chunks is buffered. A line over the limit is reported once as too large and skipped up
/// to the next `\n`, so the stream re-synchronises without holding the oversized line in memory.
public struct LineFramer: Sendable {
    /// One framed line, or the news that one was too long.
    public enum Line {
        /// A line without its `\n` (a trailing `\r` is left for the decoder), valid only during the callback.
        case line(UnsafeRawBufferPointer)
        case tooLarge
    }

    /// The longest line in bytes, excluding the `\n` and a trailing `\r`.
    public let maximumLineLength: Int
    /// The start of a line that continues in the next chunk.
    private var partial: [UInt8] = []
    /// The current line is already too long: skip to its end, then report it once.
    private var discarding = false

    public init(maximumLineLength: Int = 65_536) {
        self.maximumLineLength = maximumLineLength
    }

    /// Feeds a chunk, calling `body` for every line it completes.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (Line) throws -> Void) rethrows {
        guard !chunk.isEmpty else { return }
        var start = 0
        while start < chunk.count {
            guard let end = Self.lineEnd(in: chunk, from: start) else {
                self.keep(UnsafeRawBufferPointer(rebasing: chunk[start...]))
                return
            }
            let piece = UnsafeRawBufferPointer(rebasing: chunk[start..<end])
            start = end + 1
            if self.discarding {
                self.discarding = false
                try body(.tooLarge)
                continue
            }
            if self.partial.isEmpty {
                try body(Self.line(piece, maximumLineLength: self.maximumLineLength))
            } else {
                self.partial.append(contentsOf: piece)
                let line = self.partial
                self.partial.removeAll(keepingCapacity: true)
                try line.withUnsafeBytes { try body(Self.line($0, maximumLineLength: self.maximumLineLength)) }
            }
        }
    }

    /// Whether no part of a line is held: the next byte fed starts a line.
    public var isAtLineStart: Bool { self.partial.isEmpty && !self.discarding }

    /// A whole line's bytes (without its `\n`) as framed: too large past the limit, with one
    /// byte of slack for a trailing `\r`. The rule for every reader that frames lines in place
    /// (``ReplaySession/feedAll(_:workers:parallelFrom:blockSize:perform:)`` walks a mapped recording).
    @inline(__always)
    public static func line(_ bytes: UnsafeRawBufferPointer, maximumLineLength: Int) -> Line {
        bytes.count > maximumLineLength + 1 ? .tooLarge : .line(bytes)
    }

    /// The offset of the first `\n` in `bytes` from `start`, or `nil` when there is none.
    @inline(__always)
    public static func lineEnd(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let base = bytes.baseAddress, start < bytes.count, let found = memchr(base + start, 0x0A, bytes.count - start) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// Ends the stream: a last line without `\n` is still read (docs/protocol.md#validation).
    public mutating func finish(_ body: (Line) throws -> Void) rethrows {
        defer {
            self.partial.removeAll()
            self.discarding = false
        }
        if self.discarding {
            try body(.tooLarge)
        } else if !self.partial.isEmpty {
            try self.partial.withUnsafeBytes { try body(.line($0)) }
        }
    }

    private mutating func keep(_ tail: UnsafeRawBufferPointer) {
        guard !self.discarding else { return }
        // One byte of slack for a trailing `\r`, which does not count toward the limit.
        if self.partial.count + tail.count > self.maximumLineLength + 1 {
            self.partial.removeAll(keepingCapacity: false)
            self.discarding = true
            return
        }
        self.partial.append(contentsOf: tail)
    }
}
