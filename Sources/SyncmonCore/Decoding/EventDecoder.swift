/// Decodes one NDJSON line into an `Event`, with the strict validation of docs/protocol.md, docs/protocol.md#validation.
///
/// This is the hot path (every event of every engine passes through it), so it is a
/// purpose-built single pass over the bytes rather than `JSONDecoder`: no dictionaries, no
/// intermediate `Data`, no `String`s, no allocation for well-formed traffic. Every bad line
/// yields a bounded `RejectionReason` instead of an error the caller must interpret, and no input
/// can trap or recurse without bound.
public struct EventDecoder: Sendable {
    /// The longest accepted line in bytes, excluding the `\n` and a trailing `\r` (docs/protocol.md#transports).
    public var maximumLineLength: Int
    /// The minute of the last time read: a stream's times share it for many lines in a row.
    private var recentMinute = RFC3339.RecentMinute()

    public init(maximumLineLength: Int = 65_536) {
        self.maximumLineLength = maximumLineLength
    }

    /// Decodes one line given without its `\n` (a trailing `\r` is tolerated).
    public func decode(_ line: UnsafeRawBufferPointer) -> DecodeResult {
        var decoder = self
        var event = Event(engine: InlineName(), payload: .heartbeat)
        switch decoder.decode(line, into: &event) {
        case .event: return .event(event)
        case .blank: return .blank
        case .rejected(let rejection): return .rejected(rejection)
        }
    }

    /// Decodes one line given without its `\n` into `event`'s storage: the hot path's form
    /// (ingest, replay), which writes the fields where the caller keeps the event instead of
    /// building a few-hundred-byte value and copying it out two or three times. `event` is
    /// meaningful only for `.event`; otherwise it may be partly overwritten.
    ///
    /// Mutating only to remember the minute of the last time read (``RFC3339/RecentMinute``),
    /// which changes no result.
    public mutating func decode(_ line: UnsafeRawBufferPointer, into event: inout Event) -> DecodeOutcome {
        var line = line
        if let last = line.last, last == UInt8(ascii: "\r") {
            line = UnsafeRawBufferPointer(rebasing: line.dropLast())
        }
        guard line.count <= self.maximumLineLength else { return .rejected(Rejection(.tooLarge)) }
        var scanner = JSONScanner(line)
        scanner.skipWhitespace()
        if scanner.isAtEnd { return .blank }
        var fields = RawFields(line: line)
        do {
            try fields.read(&scanner, recent: &self.recentMinute)
        } catch {
            return .rejected(Rejection(.malformed))
        }
        do throws(DecodeFailure) {
            try fields.assemble(into: &event)
            return .event
        } catch {
            return .rejected(error.rejection)
        }
    }

    /// Decodes a line held in a `String` or byte array (tests, `emit`).
    public func decode<Bytes: Collection<UInt8>>(_ line: Bytes) -> DecodeResult {
        let copy = Array(line)
        return copy.withUnsafeBytes { self.decode($0) }
    }
}

/// The keys of protocol version 1 that syncmon reads.
private enum FieldKey {
    case version, engine, database, type, time, sequence, identifier
    case reason, zone, modifications, deletions, savedZones, deletedZones, savedRecords, deletedRecords
    case failedZoneSaves, failedZoneDeletes, failedRecordSaves, failedRecordDeletes
    case pendingRecordZoneChanges, pendingDatabaseChanges, changeType, kind, phase, started, ended
    case succeeded, status, available, heartbeatSeconds, error

    /// Matches a key's bytes: a switch on the length, then one or two comparisons, because
    /// this runs for every key of every line.
    init?(_ key: UnsafeRawBufferPointer?) {
        guard let key else { return nil }
        func matches(_ literal: StaticString) -> Bool { InlineName.bytes(key, equal: literal) }
        switch key.count {
        case 1 where matches("v"): self = .version
        case 2 where matches("id"): self = .identifier
        case 3 where matches("seq"): self = .sequence
        case 4 where matches("type"): self = .type
        case 4 where matches("time"): self = .time
        case 4 where matches("zone"): self = .zone
        case 4 where matches("kind"): self = .kind
        case 5 where matches("error"): self = .error
        case 5 where matches("ended"): self = .ended
        case 5 where matches("phase"): self = .phase
        case 6 where matches("engine"): self = .engine
        case 6 where matches("reason"): self = .reason
        case 6 where matches("status"): self = .status
        case 7 where matches("started"): self = .started
        case 8 where matches("database"): self = .database
        case 9 where matches("deletions"): self = .deletions
        case 9 where matches("available"): self = .available
        case 9 where matches("succeeded"): self = .succeeded
        case 10 where matches("savedZones"): self = .savedZones
        case 10 where matches("changeType"): self = .changeType
        case 12 where matches("savedRecords"): self = .savedRecords
        case 12 where matches("deletedZones"): self = .deletedZones
        case 13 where matches("modifications"): self = .modifications
        case 14 where matches("deletedRecords"): self = .deletedRecords
        case 15 where matches("failedZoneSaves"): self = .failedZoneSaves
        case 16 where matches("heartbeatSeconds"): self = .heartbeatSeconds
        case 17 where matches("failedRecordSaves"): self = .failedRecordSaves
        case 17 where matches("failedZoneDeletes"): self = .failedZoneDeletes
        case 19 where matches("failedRecordDeletes"): self = .failedRecordDeletes
        case 22 where matches("pendingDatabaseChanges"): self = .pendingDatabaseChanges
        case 24 where matches("pendingRecordZoneChanges"): self = .pendingRecordZoneChanges
        default: return nil
        }
    }
}

extension FieldKey {
    /// The key as it stands in a line, with its quotes and colon, for ``JSONScanner/consume(_:)``,
    /// for the keys ``RawFields`` guesses; ``KeyPattern/never`` for the rest. Its words are
    /// written out, because building them from the spelling was not folded into constants and
    /// cost more than the scan it saves. Debug builds check them against the spelling.
    @inline(__always)
    var quoted: KeyPattern {
        switch self {
        case .version: KeyPattern(0x3A22_7622, 0, length: 4, spelling: #""v":"#)
        case .engine: KeyPattern(0x2265_6E69_676E_6522, 0x3A, length: 9, spelling: #""engine":"#)
        case .database: KeyPattern(0x7361_6261_7461_6422, 0x3A_2265, length: 11, spelling: #""database":"#)
        case .time: KeyPattern(0x3A_2265_6D69_7422, 0, length: 7, spelling: #""time":"#)
        case .sequence: KeyPattern(0x3A22_7165_7322, 0, length: 6, spelling: #""seq":"#)
        case .type: KeyPattern(0x3A_2265_7079_7422, 0, length: 7, spelling: #""type":"#)
        case .reason: KeyPattern(0x226E_6F73_6165_7222, 0x3A, length: 9, spelling: #""reason":"#)
        case .zone: KeyPattern(0x3A_2265_6E6F_7A22, 0, length: 7, spelling: #""zone":"#)
        case .modifications: KeyPattern(0x6369_6669_646F_6D22, 0x3A22_736E_6F69_7461, length: 16, spelling: #""modifications":"#)
        case .deletions: KeyPattern(0x6F69_7465_6C65_6422, 0x3A22_736E, length: 12, spelling: #""deletions":"#)
        case .savedRecords: KeyPattern(0x6552_6465_7661_7322, 0x3A_2273_6472_6F63, length: 15, spelling: #""savedRecords":"#)
        case .available: KeyPattern(0x6261_6C69_6176_6122, 0x3A22_656C, length: 12, spelling: #""available":"#)
        default: .never
        }
    }
}

/// The keys of an `Error` or `Failure` object.
private enum ErrorKey {
    case code, retryAfter, message
    /// `zone`, `recordName`: strings for logs only, validated and skipped.
    case text

    init?(_ key: UnsafeRawBufferPointer?) {
        guard let key else { return nil }
        if InlineName.bytes(key, equal: "code") {
            self = .code
        } else if InlineName.bytes(key, equal: "retryAfter") {
            self = .retryAfter
        } else if InlineName.bytes(key, equal: "message") {
            self = .message
        } else if InlineName.bytes(key, equal: "zone") || InlineName.bytes(key, equal: "recordName") {
            self = .text
        } else {
            return nil
        }
    }
}

/// Where a value sits in the line.
private struct ValueRange {
    var start: Int
    var end: Int
}

/// Every key of protocol version 1 that syncmon reads, as one line held it.
private struct RawFields {
    var version: FieldSlot<Int64> = .absent
    /// Where the line holds each bulky value; it is decoded only if the type needs it, which
    /// keeps this struct small (it is rebuilt for every line).
    var engine: FieldSlot<ValueRange> = .absent
    /// Whether `engine` is a plain string (ASCII, no escapes): its name is then read where it
    /// stands, without a second scan.
    var engineIsPlain = false
    var database: FieldSlot<Database> = .absent
    /// `.value(nil)` is a string naming no known type.
    var type: FieldSlot<EventType?> = .absent
    var time: FieldSlot<Timestamp> = .absent
    var sequence: FieldSlot<Int64> = .absent
    var identifier: FieldSlot<UInt64> = .absent

    var reason: FieldSlot<Void> = .absent
    var zone: FieldSlot<Void> = .absent
    var modifications: FieldSlot<Int64> = .absent
    var deletions: FieldSlot<Int64> = .absent
    var savedZones: FieldSlot<Int64> = .absent
    var deletedZones: FieldSlot<Int64> = .absent
    var savedRecords: FieldSlot<Int64> = .absent
    var deletedRecords: FieldSlot<Int64> = .absent
    var failedZoneSaves: FieldSlot<ValueRange> = .absent
    var failedZoneDeletes: FieldSlot<ValueRange> = .absent
    var failedRecordSaves: FieldSlot<ValueRange> = .absent
    var failedRecordDeletes: FieldSlot<ValueRange> = .absent
    var pendingRecordZoneChanges: FieldSlot<Int64> = .absent
    var pendingDatabaseChanges: FieldSlot<Int64> = .absent
    var changeType: FieldSlot<AccountChangeType> = .absent
    var kind: FieldSlot<Phase> = .absent
    var phase: FieldSlot<Phase> = .absent
    var started: FieldSlot<Timestamp> = .absent
    var ended: FieldSlot<Timestamp> = .absent
    var succeeded: FieldSlot<Bool> = .absent
    var status: FieldSlot<AccountStatus> = .absent
    var available: FieldSlot<Bool> = .absent
    var heartbeatSeconds: FieldSlot<Double> = .absent
    var error: FieldSlot<ValueRange> = .absent
    /// The line, for decoding the bulky values late.
    let line: UnsafeRawBufferPointer

    init(line: UnsafeRawBufferPointer) {
        self.line = line
    }

    /// Reads the top-level object, filling the slots of the keys it knows and checking the rest.
    /// `recent` is the decoder's minute of the last time read (``RFC3339/RecentMinute``),
    /// handed through rather than copied into the fields.
    mutating func read(_ scanner: inout JSONScanner, recent: inout RFC3339.RecentMinute) throws(MalformedJSON) {
        try scanner.expect(UInt8(ascii: "{"))
        if !scanner.consume(UInt8(ascii: "}")) {
            // Writers put their keys in one order, so each key is first tried as one of the two
            // that usually follow the last: two word compares instead of reading it in full.
            var guesses: (FieldKey?, FieldKey?) = (.version, nil)
            var more = true
            // The envelope as writers write it, read straight through; the loop takes over
            // after its last key, or from the start when the line is written otherwise.
            if let last = try self.readEnvelope(&scanner, recent: &recent) {
                guesses = self.keys(after: last)
                more = scanner.consume(UInt8(ascii: ","))
            }
            while more {
                scanner.skipWhitespace()
                let key: FieldKey?
                if let guess = guesses.0, scanner.consume(guess.quoted) {
                    key = guess
                } else if let guess = guesses.1, scanner.consume(guess.quoted) {
                    key = guess
                } else {
                    guard scanner.current == UInt8(ascii: "\"") else { throw MalformedJSON() }
                    key = try scanner.withString { FieldKey($0) }
                    try scanner.expect(UInt8(ascii: ":"))
                }
                scanner.skipWhitespace()
                if let key {
                    try self.readValue(for: key, &scanner, recent: &recent)
                    guesses = self.keys(after: key)
                } else {
                    // Unknown keys are ignored (forward compatibility), but must still be valid JSON.
                    try scanner.skipValue(depth: 1)
                }
                more = scanner.consume(UInt8(ascii: ","))
            }
            try scanner.expect(UInt8(ascii: "}"))
        }
        scanner.skipWhitespace()
        guard scanner.isAtEnd else { throw MalformedJSON() }
    }

    /// The keys that usually follow `key`. The envelope comes in one of two orders (`v`,
    /// `engine`, `database`, then `time`, `seq`, `type` as recordings and the benchmark have
    /// it, or `type`, `time`, `seq` as the client library writes), then the payload's first
    /// keys by type.
    @inline(__always)
    private func keys(after key: FieldKey) -> (FieldKey?, FieldKey?) {
        switch key {
        case .version: return (.engine, nil)
        case .engine: return (.database, .type)
        case .database: return (.time, .type)
        case .time: return (.sequence, nil)
        case .sequence:
            if case .absent = self.type { return (.type, nil) }
            return (self.firstPayloadKey, nil)
        case .type: return (self.firstPayloadKey, .time)
        case .zone: return (.modifications, nil)
        case .modifications: return (.deletions, nil)
        default: return (nil, nil)
        }
    }

    /// The payload's first key, as writers put it, for the type read.
    private var firstPayloadKey: FieldKey? {
        guard case .value(let type?) = self.type else { return nil }
        switch type {
        case .willFetchChanges, .didFetchChanges, .willSendChanges, .didSendChanges: return .reason
        case .fetchedDatabaseChanges: return .modifications
        case .willFetchRecordZoneChanges, .fetchedRecordZoneChanges, .didFetchRecordZoneChanges: return .zone
        case .sentRecordZoneChanges: return .savedRecords
        case .networkStatus: return .available
        default: return nil
        }
    }

    private mutating func readValue(for key: FieldKey, _ scanner: inout JSONScanner, recent: inout RFC3339.RecentMinute) throws(MalformedJSON) {
        switch key {
        case .version: self.version = try Self.integer(&scanner)
        case .identifier: self.identifier = try Self.hash(&scanner)
        case .sequence: self.sequence = try Self.integer(&scanner)
        case .type: self.type = try Self.name(&scanner) { EventType($0) }
        case .time: self.time = try Self.time(&scanner, recent: &recent)
        case .zone: self.zone = try Self.anyString(&scanner)
        case .kind: self.kind = try Self.enumeration(&scanner) { Phase($0) }
        case .error: self.error = try Self.range(&scanner, opening: UInt8(ascii: "{"))
        case .ended: self.ended = try Self.time(&scanner, recent: &recent)
        case .phase: self.phase = try Self.enumeration(&scanner) { Phase($0) }
        case .engine: try self.readEngine(&scanner)
        case .reason:
            self.reason = try Self.enumeration(&scanner) {
                InlineName.bytes($0, equal: "scheduled") || InlineName.bytes($0, equal: "manual") ? () : nil
            }
        case .status: self.status = try Self.enumeration(&scanner) { AccountStatus(wire: $0) }
        case .started: self.started = try Self.time(&scanner, recent: &recent)
        case .database: try self.readDatabase(&scanner)
        case .deletions: self.deletions = try Self.integer(&scanner)
        case .available: self.available = try Self.boolean(&scanner)
        case .succeeded: self.succeeded = try Self.boolean(&scanner)
        case .savedZones: self.savedZones = try Self.integer(&scanner)
        case .changeType: self.changeType = try Self.enumeration(&scanner) { AccountChangeType(wire: $0) }
        case .savedRecords: self.savedRecords = try Self.integer(&scanner)
        case .deletedZones: self.deletedZones = try Self.integer(&scanner)
        case .modifications: self.modifications = try Self.integer(&scanner)
        case .deletedRecords: self.deletedRecords = try Self.integer(&scanner)
        case .failedZoneSaves: self.failedZoneSaves = try Self.range(&scanner, opening: UInt8(ascii: "["))
        case .heartbeatSeconds: self.heartbeatSeconds = try Self.double(&scanner)
        case .failedRecordSaves: self.failedRecordSaves = try Self.range(&scanner, opening: UInt8(ascii: "["))
        case .failedZoneDeletes: self.failedZoneDeletes = try Self.range(&scanner, opening: UInt8(ascii: "["))
        case .failedRecordDeletes: self.failedRecordDeletes = try Self.range(&scanner, opening: UInt8(ascii: "["))
        case .pendingDatabaseChanges: self.pendingDatabaseChanges = try Self.integer(&scanner)
        case .pendingRecordZoneChanges: self.pendingRecordZoneChanges = try Self.integer(&scanner)
        }
    }

    /// `engine`'s value: where it stands, and whether it is plain.
    @inline(__always)
    private mutating func readEngine(_ scanner: inout JSONScanner) throws(MalformedJSON) {
        if scanner.current == UInt8(ascii: "\""), let end = scanner.plainEnd() {
            self.engine = .value(ValueRange(start: scanner.position, end: end + 1))
            self.engineIsPlain = true
            scanner.position = end + 1
        } else {
            self.engine = try Self.range(&scanner, opening: UInt8(ascii: "\""))
            self.engineIsPlain = false
        }
    }

    /// `database`'s value: the two names nearly every line carries, as exact bytes before the
    /// general read.
    @inline(__always)
    private mutating func readDatabase(_ scanner: inout JSONScanner) throws(MalformedJSON) {
        if scanner.consume(Self.quotedPrivate) {
            self.database = .value(.private)
        } else if scanner.consume(Self.quotedShared) {
            self.database = .value(.shared)
        } else {
            self.database = try Self.enumeration(&scanner) { Database(bytes: $0) }
        }
    }

    /// `"private"` and `"shared"` with their quotes.
    private static let quotedPrivate = KeyPattern(0x6574_6176_6972_7022, 0x22, length: 9, spelling: #""private""#)
    private static let quotedShared = KeyPattern(0x2264_6572_6168_7322, 0, length: 8, spelling: #""shared""#)

    // MARK: Value readers. Each consumes exactly one value; a wrong JSON type is `.invalid`.

    /// `null`, or the value skipped and judged invalid, for a value of the wrong JSON type.
    private static func nullOrInvalid<Value>(_ scanner: inout JSONScanner) throws(MalformedJSON) -> FieldSlot<Value> {
        if scanner.current == UInt8(ascii: "n") {
            _ = try scanner.literal()
            return .null
        }
        try scanner.skipValue(depth: 1)
        return .invalid
    }

    /// Skips (and so validates) a value that opens with `opening`, remembering where it is.
    private static func range(_ scanner: inout JSONScanner, opening: UInt8) throws(MalformedJSON) -> FieldSlot<ValueRange> {
        guard scanner.current == opening else { return try nullOrInvalid(&scanner) }
        let start = scanner.position
        try scanner.skipValue(depth: 1)
        return .value(ValueRange(start: start, end: scanner.position))
    }

    /// A scanner over an already validated value of the line.
    private func scanner(at range: ValueRange) -> JSONScanner {
        var scanner = JSONScanner(UnsafeRawBufferPointer(rebasing: self.line[..<range.end]))
        scanner.position = range.start
        return scanner
    }

    /// Decodes a bulky value late; the line was validated already, so a scan failure cannot
    /// happen, but is still answered with a rejection rather than a trap.
    private func late<Value>(
        _ slot: FieldSlot<ValueRange>,
        _ field: StaticString,
        _ read: (inout JSONScanner) throws(MalformedJSON) -> FieldSlot<Value>
    ) throws(DecodeFailure) -> FieldSlot<Value> {
        switch slot {
        case .absent: return .absent
        case .null: return .null
        case .invalid: return .invalid
        case .value(let range):
            var scanner = self.scanner(at: range)
            do {
                return try read(&scanner)
            } catch {
                throw DecodeFailure(.malformed, field: field)
            }
        }
    }

    private static func integer(_ scanner: inout JSONScanner) throws(MalformedJSON) -> FieldSlot<Int64> {
        if let value = scanner.plainInteger() { return .value(value) }
        switch scanner.current {
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            guard let value = try scanner.number().integer else { return .invalid }
            return .value(value)
        default:
            return try nullOrInvalid(&scanner)
        }
    }

    private static func double(_ scanner: inout JSONScanner) throws(MalformedJSON) -> FieldSlot<Double> {
        switch scanner.current {
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            guard let value = try scanner.number().double else { return .invalid }
            return .value(value)
        default:
            return try nullOrInvalid(&scanner)
        }
    }

    private static func boolean(_ scanner: inout JSONScanner) throws(MalformedJSON) -> FieldSlot<Bool> {
        guard scanner.current == UInt8(ascii: "t") || scanner.current == UInt8(ascii: "f") else {
            return try nullOrInvalid(&scanner)
        }
        return .value(try scanner.literal() == .true)
    }

    private static func anyString(_ scanner: inout JSONScanner) throws(MalformedJSON) -> FieldSlot<Void> {
        guard scanner.current == UInt8(ascii: "\"") else { return try nullOrInvalid(&scanner) }
        try scanner.skipString()
        return .value(())
    }

    private static func hash(_ scanner: inout JSONScanner) throws(MalformedJSON) -> FieldSlot<UInt64> {
        guard scanner.current == UInt8(ascii: "\"") else { return try nullOrInvalid(&scanner) }
        var sink = HashingSink()
        try scanner.string(into: &sink)
        return .value(sink.hash)
    }

    /// A string mapped through `parse`; an unknown spelling is `.invalid`.
    private static func enumeration<Value>(
        _ scanner: inout JSONScanner,
        _ parse: (UnsafeRawBufferPointer) -> Value?
    ) throws(MalformedJSON) -> FieldSlot<Value> {
        guard scanner.current == UInt8(ascii: "\"") else { return try nullOrInvalid(&scanner) }
        guard let value = try scanner.withString({ $0.flatMap(parse) }) else { return .invalid }
        return .value(value)
    }

    /// A string mapped through `parse`, keeping "a string, but not a known one" apart (`type`).
    private static func name<Value>(
        _ scanner: inout JSONScanner,
        _ parse: (UnsafeRawBufferPointer) -> Value?
    ) throws(MalformedJSON) -> FieldSlot<Value?> {
        guard scanner.current == UInt8(ascii: "\"") else { return try nullOrInvalid(&scanner) }
        return .value(try scanner.withString { $0.flatMap(parse) })
    }

    /// An engine identifier: 1–64 characters of `[A-Za-z0-9._-]` (docs/protocol.md#envelope).
    private static func engineName(_ scanner: inout JSONScanner) throws(MalformedJSON) -> FieldSlot<InlineName> {
        guard scanner.current == UInt8(ascii: "\"") else { return try nullOrInvalid(&scanner) }
        return try scanner.withString { bytes in bytes.map(Self.engineName) ?? .invalid }
    }

    /// An engine identifier from its bytes.
    @inline(__always)
    private static func engineName(_ bytes: UnsafeRawBufferPointer) -> FieldSlot<InlineName> {
        guard EngineName.isValid(bytes), let name = InlineName(bytes: bytes) else { return .invalid }
        return .value(name)
    }

    private static func time(_ scanner: inout JSONScanner, recent: inout RFC3339.RecentMinute) throws(MalformedJSON) -> FieldSlot<Timestamp> {
        guard scanner.current == UInt8(ascii: "\"") else { return try nullOrInvalid(&scanner) }
        guard let time = try scanner.withString({ $0.flatMap { RFC3339.parse($0, recent: &recent) } }) else { return .invalid }
        return .value(time)
    }

    /// An `Error` object, or a `Failure` (the same plus `zone` and `recordName`).
    private static func error(_ scanner: inout JSONScanner) throws(MalformedJSON) -> FieldSlot<SyncError> {
        try self.error(&scanner, keepingMessage: true)
    }

    /// An `Error` or `Failure`; its `message` is kept (cut and escaped into an inline buffer,
    /// one string made at the end) only when `keepingMessage`, else validated and skipped.
    private static func error(_ scanner: inout JSONScanner, keepingMessage: Bool) throws(MalformedJSON) -> FieldSlot<SyncError> {
        guard scanner.current == UInt8(ascii: "{") else { return try nullOrInvalid(&scanner) }
        scanner.position += 1
        var code: FieldSlot<InlineName> = .absent
        var retryAfter: FieldSlot<Double> = .absent
        var message: String? = nil
        var valid = true
        if !scanner.consume(UInt8(ascii: "}")) {
            repeat {
                scanner.skipWhitespace()
                guard scanner.current == UInt8(ascii: "\"") else { throw MalformedJSON() }
                let key = try scanner.withString { ErrorKey($0) }
                try scanner.expect(UInt8(ascii: ":"))
                scanner.skipWhitespace()
                if key == .code {
                    if scanner.current == UInt8(ascii: "\"") {
                        var sink = InlineNameSink()
                        try scanner.string(into: &sink)
                        // Codes longer than 64 bytes keep their first 64: they only label `other`.
                        code = .value(sink.name)
                    } else {
                        code = try nullOrInvalid(&scanner)
                    }
                } else if key == .retryAfter {
                    retryAfter = try double(&scanner)
                } else if key == .message, keepingMessage, scanner.current == UInt8(ascii: "\"") {
                    var sink = ErrorMessageSink()
                    try scanner.string(into: &sink)
                    message = sink.text
                } else if key == .text || key == .message {
                    if case .invalid = try anyString(&scanner) { valid = false }
                } else {
                    try scanner.skipValue(depth: 2)
                }
            } while scanner.consume(UInt8(ascii: ","))
            try scanner.expect(UInt8(ascii: "}"))
        }
        guard valid, case .value(let name) = code, !name.isEmpty else { return .invalid }
        var error = SyncError(code: ErrorCode(name: name), message: message)
        switch retryAfter {
        case .absent, .null: break
        case .value(let seconds) where seconds >= 0: error.retryAfter = .seconds(seconds)
        case .value, .invalid: return .invalid
        }
        return .value(error)
    }

    /// A list of `Failure` objects, folded into a digest as it is read.
    private static func failures(_ scanner: inout JSONScanner) throws(MalformedJSON) -> FieldSlot<FailureDigest> {
        guard scanner.current == UInt8(ascii: "[") else { return try nullOrInvalid(&scanner) }
        scanner.position += 1
        var digest = FailureDigest()
        var valid = true
        if !scanner.consume(UInt8(ascii: "]")) {
            repeat {
                scanner.skipWhitespace()
                // Only the first actionable and the first transient failure are kept: once
                // both are known, later messages are not worth a string.
                let keepingMessage = digest.firstActionable == nil || digest.firstTransient == nil
                switch try error(&scanner, keepingMessage: keepingMessage) {
                case .value(let failure): digest.add(failure)
                default: valid = false
                }
            } while scanner.consume(UInt8(ascii: ","))
            try scanner.expect(UInt8(ascii: "]"))
        }
        return valid ? .value(digest) : .invalid
    }

    // MARK: Assembly: the envelope, then the payload the type requires.

    /// Validates the envelope and the payload its type requires, and writes them into `event`.
    ///
    /// This and the payload builders are mutating though they change nothing: called on the
    /// decoder's `var` from a mutating context, a non-mutating method that is not inlined gets
    /// a copy of all the slots (472 bytes) first, every line.
    @inline(__always)
    mutating func assemble(into event: inout Event) throws(DecodeFailure) {
        guard case .value(let version) = self.version else { throw DecodeFailure(.invalidField, field: "v") }
        guard version == 1 else { throw DecodeFailure(.unsupportedVersion, field: "v") }
        guard case .value(let typeName) = self.type else { throw DecodeFailure(.invalidField, field: "type") }
        guard let type = typeName else { throw DecodeFailure(.unknownType, field: "type") }
        let engineSlot: FieldSlot<InlineName>
        if self.engineIsPlain, case .value(let quoted) = self.engine {
            engineSlot = Self.engineName(UnsafeRawBufferPointer(rebasing: self.line[(quoted.start + 1)..<(quoted.end - 1)]))
        } else {
            engineSlot = try self.late(self.engine, "engine", Self.engineName)
        }
        let engine = try engineSlot.required("engine")
        let database = try self.database.optional("database") ?? .private
        let time = try self.time.optional("time")
        let sequence = try self.sequence.optional("seq")
        if let sequence, sequence < 0 { throw DecodeFailure(.invalidField, field: "seq") }
        // `id` is an envelope key: it must be a string on every line, not only on containerEvent.
        _ = try self.identifier.optional("id")
        try self.payload(for: type, into: &event.payload)
        event.type = type
        event.engine = engine
        event.database = database
        event.time = time
        event.sequence = sequence
        // A container event's own times were read and checked with its payload.
        event.statedTime = time ?? (type == .containerEvent ? (try? self.ended.optional("ended")) ?? (try? self.started.optional("started")) ?? nil : nil)
    }

    private func count(_ slot: FieldSlot<Int64>, _ field: StaticString) throws(DecodeFailure) -> Int64 {
        let value = try slot.required(field)
        guard value >= 0 else { throw DecodeFailure(.invalidField, field: field) }
        return value
    }

    private func optionalCount(_ slot: FieldSlot<Int64>, _ field: StaticString) throws(DecodeFailure) -> Int64? {
        guard let value = try slot.optional(field) else { return nil }
        guard value >= 0 else { throw DecodeFailure(.invalidField, field: field) }
        return value
    }

    /// `heartbeatSeconds` of `engineStarted` and `runStarted`: absent, or a number above 0.
    private func heartbeatInterval() throws(DecodeFailure) -> TimeSpan? {
        let seconds = try self.heartbeatSeconds.optional("heartbeatSeconds")
        if let seconds, !(seconds > 0) { throw DecodeFailure(.invalidField, field: "heartbeatSeconds") }
        return seconds.map { TimeSpan.seconds($0) }
    }

    /// `sentDatabaseChanges` and `sentRecordZoneChanges`: counts and the failure lists, folded.
    private mutating func sentPayload(for type: EventType) throws(DecodeFailure) -> EventPayload {
        if type == .sentDatabaseChanges {
            var failures = try self.late(self.failedZoneSaves, "failedZoneSaves", Self.failures).required("failedZoneSaves")
            failures.merge(try self.late(self.failedZoneDeletes, "failedZoneDeletes", Self.failures).required("failedZoneDeletes"))
            return .sentDatabaseChanges(
                savedZones: try self.count(self.savedZones, "savedZones"),
                deletedZones: try self.count(self.deletedZones, "deletedZones"),
                failures: failures
            )
        }
        var failures = try self.late(self.failedRecordSaves, "failedRecordSaves", Self.failures).required("failedRecordSaves")
        failures.merge(
            try self.late(self.failedRecordDeletes, "failedRecordDeletes", Self.failures).required("failedRecordDeletes")
        )
        return .sentRecordZoneChanges(
            savedRecords: try self.count(self.savedRecords, "savedRecords"),
            deletedRecords: try self.count(self.deletedRecords, "deletedRecords"),
            failures: failures
        )
    }

    /// A `containerEvent`'s fields; an end before the start is invalid.
    private mutating func containerEvent() throws(DecodeFailure) -> ContainerEvent {
        let event = ContainerEvent(
            kind: try self.kind.required("kind"),
            identifier: try self.identifier.required("id"),
            started: try self.started.required("started"),
            ended: try self.ended.optional("ended"),
            succeeded: try self.succeeded.optional("succeeded"),
            error: try self.late(self.error, "error", Self.error).optional("error")
        )
        if let ended = event.ended, ended < event.started { throw DecodeFailure(.invalidField, field: "ended") }
        return event
    }

    /// Writes the payload the type requires into `payload` (the event's own): returned, it was
    /// built in a temporary and copied twice (200 bytes) on the way into the event.
    private mutating func payload(for type: EventType, into payload: inout EventPayload) throws(DecodeFailure) {
        switch type {
        case .willFetchChanges:
            _ = try self.reason.optional("reason")
            payload = .willFetchChanges
        case .fetchedDatabaseChanges:
            payload = .fetchedDatabaseChanges(
                modifications: try self.count(self.modifications, "modifications"),
                deletions: try self.count(self.deletions, "deletions")
            )
        case .willFetchRecordZoneChanges:
            _ = try self.zone.required("zone")
            payload = .willFetchRecordZoneChanges
        case .fetchedRecordZoneChanges:
            _ = try self.zone.optional("zone")
            payload = .fetchedRecordZoneChanges(
                modifications: try self.count(self.modifications, "modifications"),
                deletions: try self.count(self.deletions, "deletions")
            )
        case .didFetchRecordZoneChanges:
            _ = try self.zone.required("zone")
            payload = .didFetchRecordZoneChanges(error: try self.late(self.error, "error", Self.error).optional("error"))
        case .didFetchChanges:
            _ = try self.reason.optional("reason")
            payload = .didFetchChanges
        case .willSendChanges:
            _ = try self.reason.optional("reason")
            payload = .willSendChanges
        case .sentDatabaseChanges, .sentRecordZoneChanges:
            payload = try self.sentPayload(for: type)
        case .didSendChanges:
            _ = try self.reason.optional("reason")
            payload = .didSendChanges
        case .stateUpdate:
            payload = .stateUpdate(
                pendingRecordZoneChanges: try self.optionalCount(self.pendingRecordZoneChanges, "pendingRecordZoneChanges"),
                pendingDatabaseChanges: try self.optionalCount(self.pendingDatabaseChanges, "pendingDatabaseChanges")
            )
        case .accountChange:
            payload = .accountChange(try self.changeType.required("changeType"))
        case .containerEvent:
            payload = .containerEvent(try self.containerEvent())
        case .accountStatus:
            payload = .accountStatus(try self.status.required("status"))
        case .networkStatus:
            payload = .networkStatus(available: try self.available.required("available"))
        case .engineStarted:
            payload = .engineStarted(heartbeatInterval: try self.heartbeatInterval())
        case .runStarted:
            payload = .runStarted(heartbeatInterval: try self.heartbeatInterval())
        case .runEnded:
            payload = .runEnded
        case .forget:
            // Without `database`, every pair of the engine.
            payload = .forget(allDatabases: try self.database.optional("database") == nil)
        case .heartbeat:
            payload = .heartbeat
        case .engineStopped:
            payload = .engineStopped
        case .error:
            payload = .error(phase: try self.phase.optional("phase"), error: try self.late(self.error, "error", Self.error).required("error"))
        }
    }
}

extension RawFields {
    /// The envelope's first two keys and `1`, and its next keys with the comma before them, as
    /// writers write them (no whitespace).
    private static let versionAndEngine = KeyPattern(0x6522_2C31_3A22_7622, 0x3A_2265_6E69_676E, length: 15, spelling: #""v":1,"engine":"#)
    private static let commaDatabase = KeyPattern(0x6162_6174_6164_222C, 0x3A22_6573, length: 12, spelling: #","database":"#)
    private static let commaTime = KeyPattern(0x3A22_656D_6974_222C, 0, length: 8, spelling: #","time":"#)
    private static let commaSequence = KeyPattern(0x3A_2271_6573_222C, 0, length: 7, spelling: #","seq":"#)
    private static let commaType = KeyPattern(0x3A22_6570_7974_222C, 0, length: 8, spelling: #","type":"#)

    /// Reads the envelope straight through when the object opens `"v":1,"engine":`: then
    /// `database`, and `time`, `seq` and `type` in the order the writer put them, each key
    /// matched with the comma before it in two word compares.
    ///
    /// Each value is read by the reader the loop in ``read(_:recent:)`` uses and fills the same
    /// slot, so a line reads the same either way; this only skips the loop's work between keys
    /// (whitespace, guesses, the dispatch on the key), which was a third of decoding a line.
    ///
    /// - Returns: the last key read, with the scanner after its value (the loop goes on from
    ///   there); `nil`, having read nothing, when the object does not open so.
    @inline(__always)
    mutating func readEnvelope(_ scanner: inout JSONScanner, recent: inout RFC3339.RecentMinute) throws(MalformedJSON) -> FieldKey? {
        guard scanner.consume(Self.versionAndEngine) else { return nil }
        self.version = .value(1)
        scanner.skipWhitespace()
        try self.readEngine(&scanner)
        var last = FieldKey.engine
        if scanner.consume(Self.commaDatabase) {
            scanner.skipWhitespace()
            try self.readDatabase(&scanner)
            last = .database
        }
        for _ in 0..<3 {
            if scanner.consume(Self.commaTime) {
                scanner.skipWhitespace()
                self.time = try Self.time(&scanner, recent: &recent)
                last = .time
            } else if scanner.consume(Self.commaSequence) {
                scanner.skipWhitespace()
                self.sequence = try Self.integer(&scanner)
                last = .sequence
            } else if scanner.consume(Self.commaType) {
                scanner.skipWhitespace()
                self.type = try Self.name(&scanner) { EventType($0) }
                last = .type
            } else {
                break
            }
        }
        return last
    }
}
