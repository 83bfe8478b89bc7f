/// An incremental `text/event-stream` parser (the WHATWG "interpreting an event stream" rules).
///
/// Lines end with `\r\n`, `\n` or `\r`; a leading UTF-8 BOM is skipped; `:` lines are comments;
/// `data:` lines are joined with `\n`; `id:` sets the last event ID (ignored when it contains
/// NUL; empty resets it); `retry:` with only digits sets the reconnection time; a blank line
/// dispatches the event (nothing is dispatched when no data was collected, but an `id:` still
/// takes effect). A field's value loses one leading space. An event left without its blank line
/// at the end of the stream is discarded.
///
/// Memory is bounded: data beyond `maximumDataLength` bytes is not kept — the event is then
/// dispatched as ``Event/isTooLarge`` so it can be counted like an over-long line.
public struct ServerSentEventParser: Sendable {
    /// One dispatched event.
    public struct Event: Sendable, Equatable {
        /// The `event:` field; `message` when absent.
        public var type: String
        /// The data lines joined with `\n` (empty when too large).
        public var data: [UInt8]
        /// The `id:` written in this event, if any (`lastEventID` holds the inherited value).
        public var id: String?
        /// The stream's last event ID after this event.
        public var lastEventID: String
        /// The data exceeded the limit and was dropped.
        public var isTooLarge: Bool

        public var text: String { String(decoding: self.data, as: UTF8.self) }
    }

    /// What feeding produced, in order.
    public enum Output: Sendable, Equatable {
        case event(Event)
        /// A `retry:` field: the reconnection time in milliseconds.
        case retry(Int)
    }

    /// The largest data of one event, in bytes (excluding the joining `\n` of its last line).
    public let maximumDataLength: Int
    /// The last event ID of the stream (empty: none), as `Last-Event-ID` wants it: taken from
    /// the `id:` lines at each blank line, so an event cut off before its end is not skipped
    /// on resume.
    public private(set) var lastEventID: String
    /// The `id:` seen since the last blank line, or the ID carried over.
    private var lastEventIDBuffer: String

    private var line: [UInt8] = []
    /// The current line went over the limit: its rest is skipped.
    private var lineOverflow = false
    private var lastByteWasCR = false
    private var atStreamStart = true
    private var bomMatched = 0
    private var data: [UInt8] = []
    private var hasData = false
    private var dataTooLarge = false
    private var eventType = ""
    private var eventID: String?

    /// - Parameter lastEventID: the ID the stream resumes after (the ID carries over to a new
    ///   connection, as with `EventSource`).
    public init(maximumDataLength: Int = 65_536, lastEventID: String = "") {
        self.maximumDataLength = maximumDataLength
        self.lastEventID = lastEventID
        self.lastEventIDBuffer = lastEventID
    }

    /// The longest line kept: the limit plus room for a field name.
    private var maximumLineLength: Int { self.maximumDataLength + 64 }

    /// Feeds a chunk; `body` gets every event and `retry:` it completes.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (Output) throws -> Void) rethrows {
        var index = 0
        let count = chunk.count
        if self.atStreamStart {
            // Skip a UTF-8 BOM (EF BB BF), possibly split across chunks.
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            while index < count, self.bomMatched < 3, chunk[index] == bom[self.bomMatched] {
                self.bomMatched += 1
                index += 1
            }
            if self.bomMatched == 3 || index < count {
                if self.bomMatched < 3, self.bomMatched > 0 {
                    // Not a BOM after all: those bytes belong to the first line.
                    self.line.append(contentsOf: bom[..<self.bomMatched])
                }
                self.atStreamStart = false
            } else {
                return
            }
        }
        while index < count {
            let byte = chunk[index]
            index += 1
            if byte == 0x0A, self.lastByteWasCR {
                // The `\n` of a `\r\n`: that line was already handled at the `\r`.
                self.lastByteWasCR = false
                continue
            }
            self.lastByteWasCR = byte == 0x0D
            if byte == 0x0A || byte == 0x0D {
                try self.endLine(body)
                continue
            }
            // Copy a run of ordinary bytes at once.
            var end = index
            while end < count, chunk[end] != 0x0A, chunk[end] != 0x0D { end += 1 }
            self.append(UnsafeRawBufferPointer(rebasing: chunk[(index - 1)..<end]))
            index = end
        }
    }

    /// Ends the stream: an event without its blank line is discarded (as the standard says).
    public mutating func finish() {
        self.line.removeAll()
        self.lineOverflow = false
        self.lastByteWasCR = false
        self.lastEventIDBuffer = self.lastEventID
        self.resetEvent()
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !self.lineOverflow else { return }
        if self.line.count + bytes.count > self.maximumLineLength {
            self.lineOverflow = true
            // A data line this long makes its event too large; other fields this long are junk.
            // The line is told by its first five bytes, wherever the chunks split it (a line this
            // long is a `data` field only as `data:…`).
            if Self.startsDataField(self.line, then: bytes) {
                self.dataTooLarge = true
                self.hasData = true
            }
            self.line.removeAll(keepingCapacity: false)
            return
        }
        self.line.append(contentsOf: bytes)
    }

    /// Whether `line` followed by `bytes` starts with `data:`.
    private static func startsDataField(_ line: [UInt8], then bytes: UnsafeRawBufferPointer) -> Bool {
        let prefix = "data:".utf8
        let start = line.prefix(prefix.count) + bytes.prefix(max(0, prefix.count - line.count))
        return start.elementsEqual(prefix)
    }

    private mutating func endLine(_ body: (Output) throws -> Void) rethrows {
        defer {
            self.line.removeAll(keepingCapacity: self.line.capacity <= 4096)
        }
        if self.lineOverflow {
            self.lineOverflow = false
            return
        }
        if self.line.isEmpty {
            try self.dispatch(body)
            return
        }
        if self.line[0] == UInt8(ascii: ":") { return }  // a comment
        let colon = self.line.firstIndex(of: UInt8(ascii: ":"))
        let nameEnd = colon ?? self.line.count
        var valueStart = colon.map { $0 + 1 } ?? self.line.count
        if valueStart < self.line.count, self.line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        let name = self.line[..<nameEnd]
        let value = self.line[valueStart...]
        if name.elementsEqual("data".utf8) {
            if self.dataTooLarge { return }
            let needed = self.data.count + (self.hasData ? 1 : 0) + value.count
            if needed > self.maximumDataLength {
                self.dataTooLarge = true
                self.hasData = true
                self.data.removeAll(keepingCapacity: false)
                return
            }
            if self.hasData { self.data.append(0x0A) }
            self.data.append(contentsOf: value)
            self.hasData = true
        } else if name.elementsEqual("id".utf8) {
            if !value.contains(0) {
                self.eventID = String(decoding: value, as: UTF8.self)
                self.lastEventIDBuffer = self.eventID!
            }
        } else if name.elementsEqual("event".utf8) {
            self.eventType = String(decoding: value, as: UTF8.self)
        } else if name.elementsEqual("retry".utf8) {
            if !value.isEmpty, value.count <= 10, value.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let milliseconds = Int(String(decoding: value, as: UTF8.self))
            {
                try body(.retry(milliseconds))
            }
        }
        // Any other field is ignored.
    }

    private mutating func dispatch(_ body: (Output) throws -> Void) rethrows {
        defer { self.resetEvent() }
        self.lastEventID = self.lastEventIDBuffer
        guard self.hasData else { return }
        let event = Event(
            type: self.eventType.isEmpty ? "message" : self.eventType,
            data: self.dataTooLarge ? [] : self.data,
            id: self.eventID,
            lastEventID: self.lastEventID,
            isTooLarge: self.dataTooLarge
        )
        try body(.event(event))
    }

    private mutating func resetEvent() {
        self.data.removeAll(keepingCapacity: self.data.capacity <= 4096)
        self.hasData = false
        self.dataTooLarge = false
        self.eventType = ""
        self.eventID = nil
    }
}
