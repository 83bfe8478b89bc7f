/// The status document: what `GET /api/v1/status` serves, `syncmon status --json` and
/// `syncmon replay --json` print, and `syncmon status` reads back — one type for all of them,
/// so the writer and the readers cannot drift apart. The wire form is in docs/protocol.md
/// ("Status JSON"): times as RFC 3339 strings, states and reasons by their label names.
///
/// `json(pretty:)` writes it (``StatusJSONWriter``); reading it back takes Foundation's
/// decoder, which the core does without (`SyncmonStatusAPI`).
public struct StatusDocument: Decodable, Sendable {
    public var now: Timestamp
    public var engines: [StatusRow]
    /// How saving the state goes: from the daemon, absent from `syncmon replay`.
    public var stateSave: StateSaveStatus?
    /// The configured `--subscribe` sources, in configuration order: from the daemon (empty
    /// without any), absent from `syncmon replay` and from daemons before they were added.
    public var sources: [SourceStatus]?

    public init(now: Timestamp, engines: [StatusRow], stateSave: StateSaveStatus? = nil, sources: [SourceStatus]? = nil) {
        self.now = now
        self.engines = engines
        self.stateSave = stateSave
        self.sources = sources
    }

    enum CodingKeys: String, CodingKey {
        case now, engines, stateSave, sources
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.now = try container.decodeTime(forKey: .now)
        self.engines = try container.decode([StatusRow].self, forKey: .engines)
        self.stateSave = try container.decodeIfPresent(StateSaveStatus.self, forKey: .stateSave)
        self.sources = try container.decodeIfPresent([SourceStatus].self, forKey: .sources)
    }
}

extension KeyedDecodingContainer {
    /// An RFC 3339 time.
    func decodeTime(forKey key: Key) throws -> Timestamp {
        let text = try self.decode(String.self, forKey: key)
        guard let time = RFC3339.parse(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "not an RFC 3339 time: \(text)")
        }
        return time
    }

    /// An RFC 3339 time or null.
    func decodeTimeIfPresent(forKey key: Key) throws -> Timestamp? {
        guard let text = try self.decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let time = RFC3339.parse(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "not an RFC 3339 time: \(text)")
        }
        return time
    }

    /// A value by its wire name (`description`) among `Value.allCases`.
    func decodeName<Value: CaseIterable & CustomStringConvertible>(_ type: Value.Type, forKey key: Key) throws -> Value {
        let text = try self.decode(String.self, forKey: key)
        guard let value = Value.allCases.first(where: { $0.description == text }) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "unknown \(Value.self) \(text)")
        }
        return value
    }
}
