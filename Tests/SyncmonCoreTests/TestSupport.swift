import Foundation
import SyncmonCore
import Testing

// Shared vocabulary of the SyncmonCore unit tests: times relative to one base instant, events
// built from payloads, and a small step language for feeding a `PairState` or a `Monitor`.

/// 2026-11-21T12:00:00Z, the instant every test time is relative to.
let baseSeconds: Int64 = 1_795_262_400

/// `seconds` after the base instant.
func at(_ seconds: Int64) -> Timestamp {
    Timestamp(microseconds: (baseSeconds + seconds) * 1_000_000)
}

/// `seconds` after the base instant, less one microsecond: the last instant before `at(seconds)`.
func justBefore(_ seconds: Int64) -> Timestamp {
    Timestamp(microseconds: at(seconds).microseconds - 1)
}

func span(_ seconds: Int64) -> TimeSpan { .seconds(seconds) }

func name(_ string: String) -> InlineName {
    guard let name = InlineName(string) else { preconditionFailure("name too long: \(string)") }
    return name
}

let notes = name("notes")
let notesKey = PairKey(engine: notes, database: .private)

// MARK: Errors

func err(_ code: KnownErrorCode, retryAfter: Int64? = nil) -> SyncError {
    SyncError(code: ErrorCode(code), retryAfter: retryAfter.map { TimeSpan.seconds($0) })
}

/// An error with a code syncmon does not know (labelled `other`).
func otherErr(_ code: String, retryAfter: Int64? = nil) -> SyncError {
    SyncError(code: ErrorCode(name: name(code)), retryAfter: retryAfter.map { TimeSpan.seconds($0) })
}

func actionable(_ code: KnownErrorCode) -> PhaseError { PhaseError(code: ErrorCode(code), errorClass: .actionable) }
func transient(_ code: KnownErrorCode) -> PhaseError { PhaseError(code: ErrorCode(code), errorClass: .transient) }

/// A failure list folded as the decoder folds it.
func failures(_ errors: SyncError...) -> FailureDigest {
    var digest = FailureDigest()
    for error in errors { digest.add(error) }
    return digest
}

/// A stable stand-in for the hash of a `containerEvent` id.
func identifier(_ id: String) -> UInt64 {
    id.utf8.reduce(UInt64(7)) { $0 &* 31 &+ UInt64($1) }
}

/// A `containerEvent` payload; times are seconds after the base instant.
func container(
    _ kind: Phase,
    id: String,
    started: Int64,
    ended: Int64? = nil,
    succeeded: Bool? = nil,
    error: SyncError? = nil
) -> EventPayload {
    .containerEvent(
        ContainerEvent(
            kind: kind,
            identifier: identifier(id),
            started: at(started),
            ended: ended.map(at),
            succeeded: succeeded,
            error: error
        )
    )
}

func engineStarted(heartbeat seconds: Int64? = nil) -> EventPayload {
    .engineStarted(heartbeatInterval: seconds.map { TimeSpan.seconds($0) })
}

func runStarted(heartbeat seconds: Int64? = nil) -> EventPayload {
    .runStarted(heartbeatInterval: seconds.map { TimeSpan.seconds($0) })
}

func pending(_ recordZone: Int64?, _ database: Int64?) -> EventPayload {
    .stateUpdate(pendingRecordZoneChanges: recordZone, pendingDatabaseChanges: database)
}

func sentRecords(saved: Int64 = 1, deleted: Int64 = 0, _ errors: SyncError...) -> EventPayload {
    var digest = FailureDigest()
    for error in errors { digest.add(error) }
    return .sentRecordZoneChanges(savedRecords: saved, deletedRecords: deleted, failures: digest)
}

// MARK: Steps

/// One thing that happens to a pair at a time given in seconds after the base instant.
struct Step: Sendable, CustomStringConvertible {
    enum Action: Sendable {
        case event(EventPayload, sequence: Int64?, connection: UInt64?)
        /// The push connection the pair is tied to closed.
        case connectionClosed
    }

    var time: Int64
    var action: Action

    var description: String {
        switch self.action {
        case .event(let payload, let sequence, _): "\(self.time)s \(payload.type)" + (sequence.map { " seq=\($0)" } ?? "")
        case .connectionClosed: "\(self.time)s <connection closed>"
        }
    }
}

/// An event at `time` seconds.
func s(_ time: Int64, _ payload: EventPayload, seq: Int64? = nil, connection: UInt64? = nil) -> Step {
    Step(time: time, action: .event(payload, sequence: seq, connection: connection))
}

func closed(_ time: Int64) -> Step { Step(time: time, action: .connectionClosed) }

/// Heartbeats every `every` seconds from `from` through `through`.
func heartbeats(from: Int64, through: Int64, every: Int64 = 10) -> [Step] {
    stride(from: from, through: through, by: Int(every)).map { s($0, .heartbeat) }
}

/// The state of one pair after the steps that happen at or before `upTo` (all of them by default).
func pairState(_ steps: [Step], upTo limit: Timestamp? = nil) -> PairState {
    let applicable = steps.filter { step in limit.map { at(step.time) <= $0 } ?? true }
    var state = PairState(firstEvent: at(applicable.first?.time ?? 0))
    for step in applicable {
        switch step.action {
        case .event(let payload, let sequence, let connection):
            let event = Event(engine: notes, time: at(step.time), sequence: sequence, payload: payload)
            state.apply(event, at: at(step.time), connection: connection)
        case .connectionClosed:
            state.connectionClosed()
        }
    }
    return state
}

/// Thresholds with only `reason` enabled, at `seconds`.
func only(_ reason: StallReason, _ seconds: Int64) -> StallThresholds {
    var thresholds = StallThresholds(
        notSyncing: .zero, noProgress: .zero, pendingNotDraining: .zero, retryLoop: .zero, noRecentImport: .zero, noRecentExport: .zero)
    thresholds[reason] = .seconds(seconds)
    return thresholds
}

let noThresholds = StallThresholds(
    notSyncing: .zero, noProgress: .zero, pendingNotDraining: .zero, retryLoop: .zero, noRecentImport: .zero, noRecentExport: .zero)

// MARK: Decoding

func decode(_ line: String, maximumLineLength: Int = 65_536) -> DecodeResult {
    EventDecoder(maximumLineLength: maximumLineLength).decode(Array(line.utf8))
}

func decode(bytes: [UInt8], maximumLineLength: Int = 65_536) -> DecodeResult {
    EventDecoder(maximumLineLength: maximumLineLength).decode(bytes)
}

extension DecodeResult {
    var event: Event? {
        if case .event(let event) = self { return event }
        return nil
    }

    var rejection: Rejection? {
        if case .rejected(let rejection) = self { return rejection }
        return nil
    }

    var isBlank: Bool {
        if case .blank = self { return true }
        return false
    }

    /// `event`, `blank`, or `reason (field)`: for messages and comparisons.
    var summary: String {
        switch self {
        case .event(let event): "event \(event.payload.type)"
        case .blank: "blank"
        case .rejected(let rejection): "rejected \(rejection)"
        }
    }
}

/// A deterministic pseudo-random generator (SplitMix64): fuzz and chunking tests repeat exactly.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        self.state = seed
    }

    mutating func next() -> UInt64 {
        self.state &+= 0x9E37_79B9_7F4A_7C15
        var z = self.state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

// MARK: Status JSON

/// The status document as JSON text, written as the daemon writes it.
func statusJSON(rows: [StatusRow], now: Timestamp, stateSave: StateSaveStatus? = nil, pretty: Bool = true) -> String {
    String(decoding: StatusDocument(now: now, engines: rows, stateSave: stateSave).json(pretty: pretty), as: UTF8.self)
}
