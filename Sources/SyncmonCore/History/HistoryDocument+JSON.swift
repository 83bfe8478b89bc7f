extension HistoryDocument {
    /// The document as JSON text, ending with a newline, keys sorted (docs/protocol.md,
    /// "History JSON"): `{"now", "pairs": [{"changes": [{"code"?, "from", "message"?, "phase"?,
    /// "reason"?, "time", "to"}], "database", "engine"}]}`. `from` is `null` for a pair's first
    /// verdict. Written by the status document's writer, so strings are escaped the same way.
    public func json(pretty: Bool = true) -> [UInt8] {
        let changes = self.pairs.reduce(0) { $0 + $1.changes.count }
        var writer = StatusJSONWriter(pretty: pretty, capacity: 256 + self.pairs.count * 100 + changes * (pretty ? 200 : 140))
        writer.openObject()
        writer.key("now")
        writer.time(self.now)
        writer.key("pairs")
        writer.openArray()
        for pair in self.pairs {
            writer.element()
            writer.openObject()
            writer.key("changes")
            writer.openArray()
            for change in pair.changes {
                writer.element()
                change.write(to: &writer)
            }
            writer.closeArray()
            writer.key("database")
            writer.name(pair.key.database.name)
            writer.key("engine")
            writer.name(pair.key.engine)
            writer.closeObject()
        }
        writer.closeArray()
        writer.closeObject()
        var bytes = writer.bytes
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}

extension HealthChange {
    /// The change's object, its summaries by their label names (the state file stores numbers).
    fileprivate func write(to writer: inout StatusJSONWriter) {
        writer.openObject()
        if let code = self.code {
            writer.key("code")
            writer.string(code)
        }
        writer.key("from")
        if let from = self.from { writer.string(from.description) } else { writer.null() }
        if let message = self.message {
            writer.key("message")
            writer.string(message)
        }
        if let phase = self.phase {
            writer.key("phase")
            writer.string(phase.description)
        }
        if let reason = self.reason {
            writer.key("reason")
            writer.string(reason)
        }
        writer.key("time")
        writer.time(self.time)
        writer.key("to")
        writer.string(self.to.description)
        writer.closeObject()
    }
}

/// Reading the document back (`syncmon status --history`): by hand, as the status rows are,
/// because the state file stores a change's summaries as numbers and the document by name.
extension HistoryDocument: Decodable {
    enum CodingKeys: String, CodingKey {
        case now, pairs
    }

    enum PairKeys: String, CodingKey {
        case engine, database, changes
    }

    enum ChangeKeys: String, CodingKey {
        case time, from, to, reason, phase, code, message
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.now = try container.decodeTime(forKey: .now)
        var pairs = try container.nestedUnkeyedContainer(forKey: .pairs)
        self.pairs = []
        while !pairs.isAtEnd {
            let pair = try pairs.nestedContainer(keyedBy: PairKeys.self)
            let engineText = try pair.decode(String.self, forKey: .engine)
            let databaseText = try pair.decode(String.self, forKey: .database)
            guard let engine = EngineName.parse(engineText), let database = Database(databaseText) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .engine, in: pair, debugDescription: "not an engine/database pair: \(engineText)/\(databaseText)")
            }
            var changes = try pair.nestedUnkeyedContainer(forKey: .changes)
            var decoded: [HealthChange] = []
            while !changes.isAtEnd { decoded.append(try Self.decodeChange(changes.nestedContainer(keyedBy: ChangeKeys.self))) }
            self.pairs.append(Pair(key: PairKey(engine: engine, database: database), changes: decoded))
        }
    }

    private static func decodeChange(_ change: KeyedDecodingContainer<ChangeKeys>) throws -> HealthChange {
        let phase = try change.decodeIfPresent(String.self, forKey: .phase).map { name in
            guard let phase = Phase.allCases.first(where: { $0.description == name }) else {
                throw DecodingError.dataCorruptedError(forKey: .phase, in: change, debugDescription: "unknown phase \(name)")
            }
            return phase
        }
        return HealthChange(
            time: try change.decodeTime(forKey: .time),
            from: try change.decodeIfPresent(String.self, forKey: .from) == nil ? nil : try change.decodeName(Summary.self, forKey: .from),
            to: try change.decodeName(Summary.self, forKey: .to),
            reason: try change.decodeIfPresent(String.self, forKey: .reason),
            phase: phase,
            code: try change.decodeIfPresent(String.self, forKey: .code),
            message: try change.decodeIfPresent(String.self, forKey: .message)
        )
    }
}
