import SyncmonCore

/// Renders ``EngineEvent``s as protocol version 1 NDJSON lines (docs/protocol.md), by plain string
/// building.
///
/// ``SyncmonClient`` uses it on its connection task; it is public for engines that write their
/// stream elsewhere (an append-only JSONL file for `--subscribe file:`, standard output, a test).
///
/// ```swift
/// let renderer = EventLineRenderer(engine: "notes")
/// let line = renderer.line(for: .willFetchChanges(reason: .scheduled), time: now, sequence: 1)
/// // {"v":1,"engine":"notes","database":"private","type":"willFetchChanges","time":"…","seq":1,"reason":"scheduled"}
/// ```
///
/// Values the daemon would reject are made acceptable rather than lost: negative counts are sent
/// as 0, an empty error code as `unknown`, a negative retry-after as 0, and free text (messages,
/// zone and record names) is cut to a bounded length. A `sent…Changes` event whose failure lists
/// would make the line longer than the daemon's 64 KiB limit is sent first without the failures'
/// zone, record names and messages (which only feed debug logs), and if that is still too long,
/// as several lines that split the failure lists (the later ones carry no `seq`).
public struct EventLineRenderer: Sendable {
    /// The longest line the daemon accepts, excluding the newline (docs/protocol.md#transports).
    public static let maximumLineLength = 65_536
    /// The longest message kept.
    static let maximumMessageLength = 2_048
    /// The longest zone name, record name, operation id, code or version kept.
    static let maximumNameLength = 512

    /// The engine identifier, as sent (see ``sanitizedEngineName(_:)``).
    public let engine: String
    public let database: Database
    /// `{"v":1,"engine":"…","database":"…","type":` — the same for every line.
    private let prefix: String
    /// The line length limit in bytes (the daemon's default unless a test lowers it).
    let lineLimit: Int

    /// A renderer for one engine's database. An engine name the protocol does not allow is
    /// replaced by ``sanitizedEngineName(_:)``.
    public init(engine: String, database: Database = .private) {
        self.init(engine: engine, database: database, lineLimit: Self.maximumLineLength)
    }

    init(engine: String, database: Database, lineLimit: Int) {
        self.engine = Self.sanitizedEngineName(engine)
        self.database = database
        self.prefix = "{\"v\":1,\"engine\":" + JSONText.quoted(self.engine) + ",\"database\":\"" + database.description + "\",\"type\":"
        self.lineLimit = lineLimit
    }

    /// Whether `name` is a valid engine identifier: 1–64 characters of `[A-Za-z0-9._-]`.
    public static func isValidEngineName(_ name: String) -> Bool {
        EngineName.isValid(name.utf8)
    }

    /// `name` made valid: other characters become `_`, the result is cut to 64 characters, and
    /// an empty name becomes `engine`.
    public static func sanitizedEngineName(_ name: String) -> String {
        if self.isValidEngineName(name) { return name }
        let bytes = name.utf8.prefix(64).map { EngineName.isAllowed($0) ? $0 : UInt8(ascii: "_") }
        return bytes.isEmpty ? "engine" : String(decoding: bytes, as: UTF8.self)
    }

    /// The line for `event` (without the newline). `time` `nil` leaves `time` out (the daemon
    /// then uses the time it receives the line); `sequence` `nil` leaves `seq` out.
    ///
    /// For the rare event too long for one line this is the first of ``lines(for:time:sequence:)``.
    public func line(for event: EngineEvent, time: Timestamp?, sequence: Int64?) -> String {
        self.lines(for: event, time: time, sequence: sequence)[0]
    }

    /// The lines for `event`: one, except for a `sent…Changes` event whose failure lists do not
    /// fit in one line even without their details.
    public func lines(for event: EngineEvent, time: Timestamp?, sequence: Int64?) -> [String] {
        let full = self.render(event, time: time, sequence: sequence, detailed: true)
        if full.utf8.count <= self.lineLimit { return [full] }
        switch event {
        case .sentRecordZoneChanges(let saved, let deleted, let failedSaves, let failedDeletes):
            return self.split(
                keys: ("savedRecords", "deletedRecords", "failedRecordSaves", "failedRecordDeletes"),
                counts: (saved, deleted), failures: (failedSaves, failedDeletes), type: event.type, time: time, sequence: sequence
            )
        case .sentDatabaseChanges(let saved, let deleted, let failedSaves, let failedDeletes):
            return self.split(
                keys: ("savedZones", "deletedZones", "failedZoneSaves", "failedZoneDeletes"),
                counts: (saved, deleted), failures: (failedSaves, failedDeletes), type: event.type, time: time, sequence: sequence
            )
        default:
            // Free text is bounded, so only failure lists can outgrow a line.
            return [full]
        }
    }

    // MARK: Rendering

    private func render(_ event: EngineEvent, time: Timestamp?, sequence: Int64?, detailed: Bool) -> String {
        var out = self.envelope(event.type, time: time, sequence: sequence)
        switch event {
        case .willFetchChanges(let reason), .didFetchChanges(let reason), .willSendChanges(let reason), .didSendChanges(let reason):
            if let reason { out += ",\"reason\":\"" + reason.rawValue + "\"" }
        case .fetchedDatabaseChanges(let modifications, let deletions):
            Self.appendCount("modifications", modifications, to: &out)
            Self.appendCount("deletions", deletions, to: &out)
        case .willFetchRecordZoneChanges(let zone):
            Self.appendText("zone", zone, limit: Self.maximumNameLength, to: &out)
        case .fetchedRecordZoneChanges(let zone, let modifications, let deletions):
            if let zone { Self.appendText("zone", zone, limit: Self.maximumNameLength, to: &out) }
            Self.appendCount("modifications", modifications, to: &out)
            Self.appendCount("deletions", deletions, to: &out)
        case .didFetchRecordZoneChanges(let zone, let error):
            Self.appendText("zone", zone, limit: Self.maximumNameLength, to: &out)
            if let error { Self.appendError(error, to: &out) }
        case .sentDatabaseChanges(let saved, let deleted, let failedSaves, let failedDeletes):
            Self.appendCount("savedZones", saved, to: &out)
            Self.appendCount("deletedZones", deleted, to: &out)
            Self.appendFailures("failedZoneSaves", failedSaves, detailed: detailed, to: &out)
            Self.appendFailures("failedZoneDeletes", failedDeletes, detailed: detailed, to: &out)
        case .sentRecordZoneChanges(let saved, let deleted, let failedSaves, let failedDeletes):
            Self.appendCount("savedRecords", saved, to: &out)
            Self.appendCount("deletedRecords", deleted, to: &out)
            Self.appendFailures("failedRecordSaves", failedSaves, detailed: detailed, to: &out)
            Self.appendFailures("failedRecordDeletes", failedDeletes, detailed: detailed, to: &out)
        case .stateUpdate(let recordZone, let database):
            if let recordZone { Self.appendCount("pendingRecordZoneChanges", recordZone, to: &out) }
            if let database { Self.appendCount("pendingDatabaseChanges", database, to: &out) }
        case .accountChange(let change):
            out += ",\"changeType\":\"" + Self.wireName(change) + "\""
        case .accountStatus(let status):
            out += ",\"status\":\"" + Self.wireName(status) + "\""
        case .networkStatus(let available):
            out += available ? ",\"available\":true" : ",\"available\":false"
        case .containerEvent(let activity):
            out += ",\"kind\":\"" + activity.kind.description + "\""
            Self.appendText("id", activity.id, limit: Self.maximumNameLength, to: &out)
            out += ",\"started\":\"" + RFC3339.format(activity.started) + "\""
            if let ended = activity.ended { out += ",\"ended\":\"" + RFC3339.format(max(ended, activity.started)) + "\"" }
            if let succeeded = activity.succeeded { out += succeeded ? ",\"succeeded\":true" : ",\"succeeded\":false" }
            if let error = activity.error { Self.appendError(error, to: &out) }
        case .engineStarted(let interval, let version), .runStarted(let interval, let version):
            if let interval, interval > .zero { out += ",\"heartbeatSeconds\":" + Self.number(Self.seconds(interval)) }
            if let version { Self.appendText("version", version, limit: Self.maximumNameLength, to: &out) }
        case .heartbeat, .engineStopped, .runEnded:
            break
        case .error(let phase, let error):
            if let phase { out += ",\"phase\":\"" + phase.description + "\"" }
            Self.appendError(error, to: &out)
        }
        out += "}"
        return out
    }

    private func envelope(_ type: EventType, time: Timestamp?, sequence: Int64?) -> String {
        var out = self.prefix
        out.reserveCapacity(self.prefix.utf8.count + 96)
        out += "\"" + type.description + "\""
        if let time { out += ",\"time\":\"" + RFC3339.format(time) + "\"" }
        if let sequence { out += ",\"seq\":" + String(max(0, sequence)) }
        return out
    }

    /// A `sent…Changes` event as several lines, each within the limit: the counts and `seq` go
    /// on the first, the failures (codes and retry-after only) are spread over as many as needed.
    private func split(
        keys: (saved: String, deleted: String, failedSaves: String, failedDeletes: String),
        counts: (saved: Int, deleted: Int),
        failures: ([EngineFailure], [EngineFailure]),
        type: EventType,
        time: Timestamp?,
        sequence: Int64?
    ) -> [String] {
        let tagged = failures.0.map { (true, Self.failureJSON($0, detailed: false)) } + failures.1.map { (false, Self.failureJSON($0, detailed: false)) }
        var lines: [String] = []
        var index = 0
        repeat {
            let first = lines.isEmpty
            var head = self.envelope(type, time: time, sequence: first ? sequence : nil)
            Self.appendCount(keys.saved, first ? counts.saved : 0, to: &head)
            Self.appendCount(keys.deleted, first ? counts.deleted : 0, to: &head)
            // Room for the two keys, brackets and the closing brace.
            var budget = self.lineLimit - head.utf8.count - keys.failedSaves.utf8.count - keys.failedDeletes.utf8.count - 16
            var saves: [String] = []
            var deletes: [String] = []
            while index < tagged.count {
                let (isSave, json) = tagged[index]
                let cost = json.utf8.count + 1
                // Always take at least one, so that the loop ends whatever the limit.
                if cost > budget, !(saves.isEmpty && deletes.isEmpty) { break }
                budget -= cost
                if isSave { saves.append(json) } else { deletes.append(json) }
                index += 1
            }
            head += ",\"" + keys.failedSaves + "\":[" + saves.joined(separator: ",") + "]"
            head += ",\"" + keys.failedDeletes + "\":[" + deletes.joined(separator: ",") + "]}"
            lines.append(head)
        } while index < tagged.count
        return lines
    }

    // MARK: Values

    private static func appendCount(_ key: String, _ value: Int, to out: inout String) {
        out += ",\"" + key + "\":" + String(max(0, value))
    }

    private static func appendText(_ key: String, _ value: String, limit: Int, to out: inout String) {
        out += ",\"" + key + "\":" + JSONText.quoted(Self.truncated(value, limit))
    }

    private static func appendError(_ error: EngineError, to out: inout String) {
        out += ",\"error\":{\"code\":" + JSONText.quoted(Self.code(error.code))
        if let message = error.message { out += ",\"message\":" + JSONText.quoted(Self.truncated(message, Self.maximumMessageLength)) }
        if let retryAfter = error.retryAfter { out += ",\"retryAfter\":" + Self.number(max(0, Self.seconds(retryAfter))) }
        out += "}"
    }

    private static func appendFailures(_ key: String, _ failures: [EngineFailure], detailed: Bool, to out: inout String) {
        out += ",\"" + key + "\":["
        for (index, failure) in failures.enumerated() {
            if index > 0 { out += "," }
            out += Self.failureJSON(failure, detailed: detailed)
        }
        out += "]"
    }

    private static func failureJSON(_ failure: EngineFailure, detailed: Bool) -> String {
        var out = "{\"code\":" + JSONText.quoted(Self.code(failure.code))
        if detailed, let zone = failure.zone { out += ",\"zone\":" + JSONText.quoted(Self.truncated(zone, Self.maximumNameLength)) }
        if detailed, let record = failure.recordName {
            out += ",\"recordName\":" + JSONText.quoted(Self.truncated(record, Self.maximumNameLength))
        }
        if let retryAfter = failure.retryAfter { out += ",\"retryAfter\":" + Self.number(max(0, Self.seconds(retryAfter))) }
        if detailed, let message = failure.message {
            out += ",\"message\":" + JSONText.quoted(Self.truncated(message, Self.maximumMessageLength))
        }
        out += "}"
        return out
    }

    private static func code(_ code: String) -> String {
        code.isEmpty ? "unknown" : Self.truncated(code, Self.maximumNameLength)
    }

    /// `text` cut to at most `limit` UTF-8 bytes, at a character boundary.
    static func truncated(_ text: String, _ limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var result = ""
        var used = 0
        for scalar in text.unicodeScalars {
            let size = String(scalar).utf8.count
            if used + size > limit { break }
            result.unicodeScalars.append(scalar)
            used += size
        }
        return result
    }

    /// A duration in seconds.
    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// A JSON number: integral values without a fraction, others in Swift's shortest form.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    static func wireName(_ status: AccountStatus) -> String {
        // `unknown` is syncmon's "nothing heard yet", not an answer an engine can give.
        let sent = status == .unknown ? AccountStatus.couldNotDetermine : status
        return sent.wireName?.description ?? ""
    }

    static func wireName(_ change: AccountChangeType) -> String {
        change.wireName.description
    }
}
