/// One decoded event line (docs/protocol.md#envelope, docs/protocol.md#event-types).
///
/// Every field is stored inline so that decoding an event allocates nothing.
public struct Event: Sendable {
    /// The engine identifier (1–64 characters of `[A-Za-z0-9._-]`).
    public var engine: InlineName
    /// The database; `private` when the line names none.
    public var database: Database
    /// When the engine observed the event; `nil` means "when received".
    public internal(set) var time: Timestamp?
    /// The per-pair sequence number, used to drop duplicates after a resume.
    public var sequence: Int64?
    /// The type and its payload.
    public internal(set) var payload: EventPayload
    /// The payload's type, kept beside it: the per-event checks (`forget`, a container
    /// event's time) read one byte instead of matching the payload, which copies it (200
    /// bytes, its strings retained) wherever the event is read in place.
    public internal(set) var type: EventType
    /// The time the event states: its `time`, else for a `containerEvent` the end or start it
    /// reports; `nil` means "now" (the receive time, or replay's clock). Stored for the same
    /// reason as ``type``.
    public internal(set) var statedTime: Timestamp?

    public init(
        engine: InlineName,
        database: Database = .private,
        time: Timestamp? = nil,
        sequence: Int64? = nil,
        payload: EventPayload
    ) {
        self.engine = engine
        self.database = database
        self.time = time
        self.sequence = sequence
        self.payload = payload
        self.type = payload.type
        self.statedTime = time ?? Self.containerTime(of: payload)
    }

    /// A `containerEvent`'s end, else its start; `nil` for any other payload.
    static func containerTime(of payload: EventPayload) -> Timestamp? {
        if case .containerEvent(let container) = payload { return container.ended ?? container.started }
        return nil
    }

    /// The (engine, database) pair the event belongs to.
    public var pair: PairKey { PairKey(engine: self.engine, database: self.database) }

    /// For a `forget`, whether it removes every pair of the engine; `nil` for any other event.
    @inline(__always)
    public var forgetScope: Bool? {
        guard self.type == .forget else { return nil }
        return Self.forgetScope(of: self.payload)
    }

    private static func forgetScope(of payload: EventPayload) -> Bool? {
        if case .forget(let allDatabases) = payload { return allDatabases }
        return nil
    }
}

/// The event types and the payload fields syncmon keeps (docs/protocol.md#event-types).
///
/// Fields that only matter to logs (`reason`, `zone`, messages, record names) are validated by
/// the decoder and then dropped.
public enum EventPayload: Sendable, Equatable {
    case willFetchChanges
    case fetchedDatabaseChanges(modifications: Int64, deletions: Int64)
    case willFetchRecordZoneChanges
    case fetchedRecordZoneChanges(modifications: Int64, deletions: Int64)
    case didFetchRecordZoneChanges(error: SyncError?)
    case didFetchChanges
    case willSendChanges
    case sentDatabaseChanges(savedZones: Int64, deletedZones: Int64, failures: FailureDigest)
    case sentRecordZoneChanges(savedRecords: Int64, deletedRecords: Int64, failures: FailureDigest)
    case didSendChanges
    case stateUpdate(pendingRecordZoneChanges: Int64?, pendingDatabaseChanges: Int64?)
    case accountChange(AccountChangeType)
    case containerEvent(ContainerEvent)
    case accountStatus(AccountStatus)
    case networkStatus(available: Bool)
    /// `heartbeatSeconds`: the promise of heartbeats at that interval, if any.
    case engineStarted(heartbeatInterval: TimeSpan?)
    case heartbeat
    case engineStopped
    /// An error outside any will/did pair.
    case error(phase: Phase?, error: SyncError)
    /// A batch job (`syncmon wrap`) began a run: the heartbeat promise for the run, if any, and
    /// the tie to the connection, without the setup that `engineStarted` opens.
    case runStarted(heartbeatInterval: TimeSpan?)
    /// The run is over: the promise and the tie end, and the pair is neither stopped nor down.
    case runEnded
    /// `syncmon forget`: the pair, or with `allDatabases` every pair of the engine, is removed
    /// from the state, the status and /metrics (docs/protocol.md#forget). Never reaches a pair.
    case forget(allDatabases: Bool)

    /// The wire name of the type.
    public var type: EventType {
        switch self {
        case .willFetchChanges: .willFetchChanges
        case .fetchedDatabaseChanges: .fetchedDatabaseChanges
        case .willFetchRecordZoneChanges: .willFetchRecordZoneChanges
        case .fetchedRecordZoneChanges: .fetchedRecordZoneChanges
        case .didFetchRecordZoneChanges: .didFetchRecordZoneChanges
        case .didFetchChanges: .didFetchChanges
        case .willSendChanges: .willSendChanges
        case .sentDatabaseChanges: .sentDatabaseChanges
        case .sentRecordZoneChanges: .sentRecordZoneChanges
        case .didSendChanges: .didSendChanges
        case .stateUpdate: .stateUpdate
        case .accountChange: .accountChange
        case .containerEvent: .containerEvent
        case .accountStatus: .accountStatus
        case .networkStatus: .networkStatus
        case .engineStarted: .engineStarted
        case .heartbeat: .heartbeat
        case .engineStopped: .engineStopped
        case .error: .error
        case .runStarted: .runStarted
        case .runEnded: .runEnded
        case .forget: .forget
        }
    }
}

/// An NSPersistentCloudKitContainer event: posted once at its start and again at its end.
public struct ContainerEvent: Sendable, Equatable {
    public var kind: Phase
    /// A hash of the `id` string, which pairs the start and the end.
    public var identifier: UInt64
    public var started: Timestamp
    /// `nil` on the start notification.
    public var ended: Timestamp?
    /// `succeeded`, when given; an end without it succeeded when it has no error (docs/protocol.md#containerevent).
    public var succeeded: Bool?
    public var error: SyncError?

    public init(
        kind: Phase,
        identifier: UInt64,
        started: Timestamp,
        ended: Timestamp? = nil,
        succeeded: Bool? = nil,
        error: SyncError? = nil
    ) {
        self.kind = kind
        self.identifier = identifier
        self.started = started
        self.ended = ended
        self.succeeded = succeeded
        self.error = error
    }
}

/// The `type` values of protocol version 1.
public enum EventType: UInt8, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case willFetchChanges, fetchedDatabaseChanges, willFetchRecordZoneChanges, fetchedRecordZoneChanges
    case didFetchRecordZoneChanges, didFetchChanges, willSendChanges, sentDatabaseChanges
    case sentRecordZoneChanges, didSendChanges, stateUpdate, accountChange, containerEvent
    case accountStatus, networkStatus, engineStarted, heartbeat, engineStopped, error
    // Added after version 1.0: an older daemon counts them as `unknown_type` and ignores them.
    case runStarted, runEnded
    // Added in v1.2: `syncmon forget`.
    case forget

    public var description: String {
        switch self {
        case .willFetchChanges: "willFetchChanges"
        case .fetchedDatabaseChanges: "fetchedDatabaseChanges"
        case .willFetchRecordZoneChanges: "willFetchRecordZoneChanges"
        case .fetchedRecordZoneChanges: "fetchedRecordZoneChanges"
        case .didFetchRecordZoneChanges: "didFetchRecordZoneChanges"
        case .didFetchChanges: "didFetchChanges"
        case .willSendChanges: "willSendChanges"
        case .sentDatabaseChanges: "sentDatabaseChanges"
        case .sentRecordZoneChanges: "sentRecordZoneChanges"
        case .didSendChanges: "didSendChanges"
        case .stateUpdate: "stateUpdate"
        case .accountChange: "accountChange"
        case .containerEvent: "containerEvent"
        case .accountStatus: "accountStatus"
        case .networkStatus: "networkStatus"
        case .engineStarted: "engineStarted"
        case .heartbeat: "heartbeat"
        case .engineStopped: "engineStopped"
        case .error: "error"
        case .runStarted: "runStarted"
        case .runEnded: "runEnded"
        case .forget: "forget"
        }
    }

    /// Parses a wire name: a switch on the length, then one or two byte comparisons (this
    /// runs for every event).
    public init?(_ name: UnsafeRawBufferPointer) {
        func matches(_ literal: StaticString) -> Bool { InlineName.bytes(name, equal: literal) }
        switch name.count {
        case 5:
            if matches("error") { self = .error } else { return nil }
        case 6:
            if matches("forget") { self = .forget } else { return nil }
        case 8:
            if matches("runEnded") { self = .runEnded } else { return nil }
        case 9:
            if matches("heartbeat") { self = .heartbeat } else { return nil }
        case 10:
            if matches("runStarted") { self = .runStarted } else { return nil }
        case 11:
            if matches("stateUpdate") { self = .stateUpdate } else { return nil }
        case 13:
            if matches("accountChange") {
                self = .accountChange
            } else if matches("accountStatus") {
                self = .accountStatus
            } else if matches("networkStatus") {
                self = .networkStatus
            } else if matches("engineStarted") {
                self = .engineStarted
            } else if matches("engineStopped") {
                self = .engineStopped
            } else {
                return nil
            }
        case 14:
            if matches("didSendChanges") { self = .didSendChanges } else if matches("containerEvent") { self = .containerEvent } else { return nil }
        case 15:
            if matches("didFetchChanges") { self = .didFetchChanges } else if matches("willSendChanges") { self = .willSendChanges } else { return nil }
        case 16:
            if matches("willFetchChanges") { self = .willFetchChanges } else { return nil }
        case 19:
            if matches("sentDatabaseChanges") { self = .sentDatabaseChanges } else { return nil }
        case 21:
            if matches("sentRecordZoneChanges") { self = .sentRecordZoneChanges } else { return nil }
        case 22:
            if matches("fetchedDatabaseChanges") { self = .fetchedDatabaseChanges } else { return nil }
        case 24:
            if matches("fetchedRecordZoneChanges") { self = .fetchedRecordZoneChanges } else { return nil }
        case 25:
            if matches("didFetchRecordZoneChanges") { self = .didFetchRecordZoneChanges } else { return nil }
        case 26:
            if matches("willFetchRecordZoneChanges") { self = .willFetchRecordZoneChanges } else { return nil }
        default: return nil
        }
    }
}

/// Identifies the unit of state: one engine's one database.
public struct PairKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var engine: InlineName
    public var database: Database

    public init(engine: InlineName, database: Database) {
        self.engine = engine
        self.database = database
    }

    /// Rows are listed by engine name, then database in the order private, shared, public.
    public static func < (lhs: PairKey, rhs: PairKey) -> Bool {
        lhs.engine != rhs.engine ? lhs.engine < rhs.engine : lhs.database < rhs.database
    }

    public var description: String { "\(self.engine)/\(self.database)" }

    /// Both names' words, then their lengths as one word: every event looks its pair up, and
    /// each word fed is a round of the hasher (the synthesized hash fed each length alone).
    public func hash(into hasher: inout Hasher) {
        self.engine.combineWords(into: &hasher)
        self.database.name.combineWords(into: &hasher)
        hasher.combine(UInt64(self.engine.count) | UInt64(self.database.name.count) << 8)
    }

    /// The hash `Dictionary` and `Set` place a pair by: a multiply-and-fold per word of both
    /// names (the mixing of wyhash), not SipHash.
    ///
    /// Every event looks its pair up, and SipHash's set-up, rounds and finalization were 6% of a
    /// replay. The hash stays seeded: the tables pass a seed of their own, drawn from the
    /// process's random hashing key, so the placement of names cannot be worked out from
    /// outside, and the pairs a table holds are bounded (`limits.max_pairs`) anyway.
    /// `hash(into:)` stays for a pair hashed as part of something else.
    public func _rawHashValue(seed: Int) -> Int {
        var hash = UInt64(UInt(bitPattern: seed)) ^ 0x243F_6A88_85A3_08D3
        self.engine.foldWords(into: &hash)
        self.database.name.foldWords(into: &hash)
        let counts = UInt64(self.engine.count) | UInt64(self.database.name.count) << 8
        return Int(truncatingIfNeeded: InlineName.fold(hash ^ counts, 0xE703_7ED1_A0B4_28DB))
    }
}
