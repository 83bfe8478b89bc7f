/// Decodes one NDJSON line into an `Event`, with the strict validation of SPEC §1 and §9.1.
///
/// This is the hot path (every event of every engine passes through it), so it is a
/// purpose-built single pass over the bytes rather than `JSONDecoder`: no dictionaries, no
/// intermediate `Data`, no `String`s, no allocation for well-formed traffic. Every bad line
/// yields a bounded `RejectionReason` instead of an error the caller must interpret, and no input
/// can trap or recurse without bound.
public struct EventDecoder: Sendable {
    /// The longest accepted line in bytes, excluding the `\n` and a trailing `\r` (SPEC §1.1).
    public var maximumLineLength: Int

    public init(maximumLineLength: Int = 65_536) {
        self.maximumLineLength = maximumLineLength
    }

    /// Decodes one line given without its `\n` (a trailing `\r` is tolerated).
    public func decode(_ line: UnsafeRawBufferPointer) -> DecodeResult {
        var line = line
        if let last = line.last, last == UInt8(ascii: "\r") {
            line = UnsafeRawBufferPointer(rebasing: line.dropLast())
        }
        guard line.count <= self.maximumLineLength else { return .rejected(Rejection(.tooLarge)) }
        var scanner = JSONScanner(line)
        scanner.skipWhitespace()
        if scanner.isAtEnd { return .blank }
        var fields = RawFields()
        do {
            try fields.read(&scanner)
        } catch {
            return .rejected(Rejection(.malformed))
        }
        do throws(DecodeFailure) {
            return .event(try fields.event())
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

/// Every key of protocol version 1 that syncmon reads, as one line held it.
private struct RawFields {
    var version: FieldSlot<Int64> = .absent
    var engine: FieldSlot<InlineName> = .absent
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
    var failedZoneSaves: FieldSlot<FailureDigest> = .absent
    var failedZoneDeletes: FieldSlot<FailureDigest> = .absent
    var failedRecordSaves: FieldSlot<FailureDigest> = .absent
    var failedRecordDeletes: FieldSlot<FailureDigest> = .absent
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
    var error: FieldSlot<SyncError> = .absent

    /// Reads the top-level object, filling the slots of the keys it knows and checking the rest.
    mutating func read(_ scanner: inout JSONScanner) throws(MalformedJSON) {
        try scanner.expect(UInt8(ascii: "{"))
        if !scanner.consume(UInt8(ascii: "}")) {
            repeat {
                scanner.skipWhitespace()
                guard scanner.current == UInt8(ascii: "\"") else { throw MalformedJSON() }
                var key = InlineNameSink()
                try scanner.string(into: &key)
                try scanner.expect(UInt8(ascii: ":"))
                scanner.skipWhitespace()
                if key.overflowed {
                    try scanner.skipValue(depth: 1)
                } else {
                    try self.readValue(for: key.name, &scanner)
                }
            } while scanner.consume(UInt8(ascii: ","))
            try scanner.expect(UInt8(ascii: "}"))
        }
        scanner.skipWhitespace()
        guard scanner.isAtEnd else { throw MalformedJSON() }
    }

    /// Dispatches on the key's length first so that each key costs one or two comparisons.
    private mutating func readValue(for key: InlineName, _ scanner: inout JSONScanner) throws(MalformedJSON) {
        switch key.count {
        case 1 where key.equals("v"): self.version = try Self.integer(&scanner)
        case 2 where key.equals("id"): self.identifier = try Self.hash(&scanner)
        case 3 where key.equals("seq"): self.sequence = try Self.integer(&scanner)
        case 4:
            if key.equals("type") {
                self.type = try Self.name(&scanner) { EventType($0) }
            } else if key.equals("time") {
                self.time = try Self.time(&scanner)
            } else if key.equals("zone") {
                self.zone = try Self.anyString(&scanner)
            } else if key.equals("kind") {
                self.kind = try Self.enumeration(&scanner) { Phase($0) }
            } else {
                try scanner.skipValue(depth: 1)
            }
        case 5:
            if key.equals("error") {
                self.error = try Self.error(&scanner)
            } else if key.equals("ended") {
                self.ended = try Self.time(&scanner)
            } else if key.equals("phase") {
                self.phase = try Self.enumeration(&scanner) { Phase($0) }
            } else {
                try scanner.skipValue(depth: 1)
            }
        case 6:
            if key.equals("engine") {
                self.engine = try Self.engineName(&scanner)
            } else if key.equals("reason") {
                self.reason = try Self.enumeration(&scanner) { $0.equals("scheduled") || $0.equals("manual") ? () : nil }
            } else if key.equals("status") {
                self.status = try Self.enumeration(&scanner) { AccountStatus(wire: $0) }
            } else {
                try scanner.skipValue(depth: 1)
            }
        case 7 where key.equals("started"): self.started = try Self.time(&scanner)
        case 8 where key.equals("database"): self.database = try Self.enumeration(&scanner) { Database($0) }
        case 9:
            if key.equals("deletions") {
                self.deletions = try Self.integer(&scanner)
            } else if key.equals("available") {
                self.available = try Self.boolean(&scanner)
            } else if key.equals("succeeded") {
                self.succeeded = try Self.boolean(&scanner)
            } else {
                try scanner.skipValue(depth: 1)
            }
        case 10:
            if key.equals("savedZones") {
                self.savedZones = try Self.integer(&scanner)
            } else if key.equals("changeType") {
                self.changeType = try Self.enumeration(&scanner) { AccountChangeType(wire: $0) }
            } else {
                try scanner.skipValue(depth: 1)
            }
        case 12:
            if key.equals("savedRecords") {
                self.savedRecords = try Self.integer(&scanner)
            } else if key.equals("deletedZones") {
                self.deletedZones = try Self.integer(&scanner)
            } else {
                try scanner.skipValue(depth: 1)
            }
        case 13 where key.equals("modifications"): self.modifications = try Self.integer(&scanner)
        case 14 where key.equals("deletedRecords"): self.deletedRecords = try Self.integer(&scanner)
        case 15 where key.equals("failedZoneSaves"): self.failedZoneSaves = try Self.failures(&scanner)
        case 16 where key.equals("heartbeatSeconds"): self.heartbeatSeconds = try Self.double(&scanner)
        case 17:
            if key.equals("failedRecordSaves") {
                self.failedRecordSaves = try Self.failures(&scanner)
            } else if key.equals("failedZoneDeletes") {
                self.failedZoneDeletes = try Self.failures(&scanner)
            } else {
                try scanner.skipValue(depth: 1)
            }
        case 19 where key.equals("failedRecordDeletes"): self.failedRecordDeletes = try Self.failures(&scanner)
        case 22 where key.equals("pendingDatabaseChanges"): self.pendingDatabaseChanges = try Self.integer(&scanner)
        case 24 where key.equals("pendingRecordZoneChanges"):
            self.pendingRecordZoneChanges = try Self.integer(&scanner)
        default:
            // Unknown keys are ignored (forward compatibility), but must still be valid JSON.
            try scanner.skipValue(depth: 1)
        }
    }

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

    private static func integer(_ scanner: inout JSONScanner) throws(MalformedJSON) -> FieldSlot<Int64> {
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
        _ parse: (InlineName) -> Value?
    ) throws(MalformedJSON) -> FieldSlot<Value> {
        guard scanner.current == UInt8(ascii: "\"") else { return try nullOrInvalid(&scanner) }
        var sink = InlineNameSink()
        try scanner.string(into: &sink)
        guard !sink.overflowed, let value = parse(sink.name) else { return .invalid }
        return .value(value)
    }

    /// A string mapped through `parse`, keeping "a string, but not a known one" apart (`type`).
    private static func name<Value>(
        _ scanner: inout JSONScanner,
        _ parse: (InlineName) -> Value?
    ) throws(MalformedJSON) -> FieldSlot<Value?> {
        guard scanner.current == UInt8(ascii: "\"") else { return try nullOrInvalid(&scanner) }
        var sink = InlineNameSink()
        try scanner.string(into: &sink)
        return .value(sink.overflowed ? nil : parse(sink.name))
    }

    /// An engine identifier: 1–64 characters of `[A-Za-z0-9._-]` (SPEC §1.2).
    private static func engineName(_ scanner: inout JSONScanner) throws(MalformedJSON) -> FieldSlot<InlineName> {
        guard scanner.current == UInt8(ascii: "\"") else { return try nullOrInvalid(&scanner) }
        var sink = InlineNameSink()
        try scanner.string(into: &sink)
        guard !sink.overflowed, !sink.name.isEmpty else { return .invalid }
        let valid = sink.name.withBytes { bytes in
            bytes.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                    true
                default:
                    false
                }
            }
        }
        return valid ? .value(sink.name) : .invalid
    }

    private static func time(_ scanner: inout JSONScanner) throws(MalformedJSON) -> FieldSlot<Timestamp> {
        guard scanner.current == UInt8(ascii: "\"") else { return try nullOrInvalid(&scanner) }
        var sink = InlineNameSink()
        try scanner.string(into: &sink)
        guard !sink.overflowed, let time = sink.name.withBytes({ RFC3339.parse($0) }) else { return .invalid }
        return .value(time)
    }

    /// An `Error` object, or a `Failure` (the same plus `zone` and `recordName`).
    private static func error(_ scanner: inout JSONScanner) throws(MalformedJSON) -> FieldSlot<SyncError> {
        guard scanner.current == UInt8(ascii: "{") else { return try nullOrInvalid(&scanner) }
        scanner.position += 1
        var code: FieldSlot<InlineName> = .absent
        var retryAfter: FieldSlot<Double> = .absent
        var valid = true
        if !scanner.consume(UInt8(ascii: "}")) {
            repeat {
                scanner.skipWhitespace()
                guard scanner.current == UInt8(ascii: "\"") else { throw MalformedJSON() }
                var key = InlineNameSink()
                try scanner.string(into: &key)
                try scanner.expect(UInt8(ascii: ":"))
                scanner.skipWhitespace()
                if key.name.equals("code") {
                    if scanner.current == UInt8(ascii: "\"") {
                        var sink = InlineNameSink()
                        try scanner.string(into: &sink)
                        // Codes longer than 64 bytes keep their first 64: they only label `other`.
                        code = .value(sink.name)
                    } else {
                        code = try nullOrInvalid(&scanner)
                    }
                } else if key.name.equals("retryAfter") {
                    retryAfter = try double(&scanner)
                } else if key.name.equals("message") || key.name.equals("zone") || key.name.equals("recordName") {
                    if case .invalid = try anyString(&scanner) { valid = false }
                } else {
                    try scanner.skipValue(depth: 2)
                }
            } while scanner.consume(UInt8(ascii: ","))
            try scanner.expect(UInt8(ascii: "}"))
        }
        guard valid, case .value(let name) = code, !name.isEmpty else { return .invalid }
        var error = SyncError(code: ErrorCode(name: name))
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
                switch try error(&scanner) {
                case .value(let failure): digest.add(failure)
                default: valid = false
                }
            } while scanner.consume(UInt8(ascii: ","))
            try scanner.expect(UInt8(ascii: "]"))
        }
        return valid ? .value(digest) : .invalid
    }

    // MARK: Assembly: the envelope, then the payload the type requires.

    func event() throws(DecodeFailure) -> Event {
        guard case .value(let version) = self.version else { throw DecodeFailure(.invalidField, field: "v") }
        guard version == 1 else { throw DecodeFailure(.unsupportedVersion, field: "v") }
        guard case .value(let typeName) = self.type else { throw DecodeFailure(.invalidField, field: "type") }
        guard let type = typeName else { throw DecodeFailure(.unknownType, field: "type") }
        let engine = try self.engine.required("engine")
        let database = try self.database.optional("database") ?? .private
        let time = try self.time.optional("time")
        let sequence = try self.sequence.optional("seq")
        if let sequence, sequence < 0 { throw DecodeFailure(.invalidField, field: "seq") }
        let payload = try self.payload(for: type)
        return Event(engine: engine, database: database, time: time, sequence: sequence, payload: payload)
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

    private func payload(for type: EventType) throws(DecodeFailure) -> EventPayload {
        switch type {
        case .willFetchChanges:
            _ = try self.reason.optional("reason")
            return .willFetchChanges
        case .fetchedDatabaseChanges:
            return .fetchedDatabaseChanges(
                modifications: try self.count(self.modifications, "modifications"),
                deletions: try self.count(self.deletions, "deletions")
            )
        case .willFetchRecordZoneChanges:
            _ = try self.zone.required("zone")
            return .willFetchRecordZoneChanges
        case .fetchedRecordZoneChanges:
            _ = try self.zone.optional("zone")
            return .fetchedRecordZoneChanges(
                modifications: try self.count(self.modifications, "modifications"),
                deletions: try self.count(self.deletions, "deletions")
            )
        case .didFetchRecordZoneChanges:
            _ = try self.zone.required("zone")
            return .didFetchRecordZoneChanges(error: try self.error.optional("error"))
        case .didFetchChanges:
            _ = try self.reason.optional("reason")
            return .didFetchChanges
        case .willSendChanges:
            _ = try self.reason.optional("reason")
            return .willSendChanges
        case .sentDatabaseChanges:
            var failures = try self.failedZoneSaves.required("failedZoneSaves")
            failures.merge(try self.failedZoneDeletes.required("failedZoneDeletes"))
            return .sentDatabaseChanges(
                savedZones: try self.count(self.savedZones, "savedZones"),
                deletedZones: try self.count(self.deletedZones, "deletedZones"),
                failures: failures
            )
        case .sentRecordZoneChanges:
            var failures = try self.failedRecordSaves.required("failedRecordSaves")
            failures.merge(try self.failedRecordDeletes.required("failedRecordDeletes"))
            return .sentRecordZoneChanges(
                savedRecords: try self.count(self.savedRecords, "savedRecords"),
                deletedRecords: try self.count(self.deletedRecords, "deletedRecords"),
                failures: failures
            )
        case .didSendChanges:
            _ = try self.reason.optional("reason")
            return .didSendChanges
        case .stateUpdate:
            return .stateUpdate(
                pendingRecordZoneChanges: try self.optionalCount(self.pendingRecordZoneChanges, "pendingRecordZoneChanges"),
                pendingDatabaseChanges: try self.optionalCount(self.pendingDatabaseChanges, "pendingDatabaseChanges")
            )
        case .accountChange:
            return .accountChange(try self.changeType.required("changeType"))
        case .containerEvent:
            let event = ContainerEvent(
                kind: try self.kind.required("kind"),
                identifier: try self.identifier.required("id"),
                started: try self.started.required("started"),
                ended: try self.ended.optional("ended"),
                succeeded: try self.succeeded.optional("succeeded"),
                error: try self.error.optional("error")
            )
            if let ended = event.ended, ended < event.started { throw DecodeFailure(.invalidField, field: "ended") }
            return .containerEvent(event)
        case .accountStatus:
            return .accountStatus(try self.status.required("status"))
        case .networkStatus:
            return .networkStatus(available: try self.available.required("available"))
        case .engineStarted:
            let seconds = try self.heartbeatSeconds.optional("heartbeatSeconds")
            if let seconds, !(seconds > 0) { throw DecodeFailure(.invalidField, field: "heartbeatSeconds") }
            return .engineStarted(heartbeatInterval: seconds.map { TimeSpan.seconds($0) })
        case .heartbeat:
            return .heartbeat
        case .engineStopped:
            return .engineStopped
        case .error:
            return .error(phase: try self.phase.optional("phase"), error: try self.error.required("error"))
        }
    }
}
