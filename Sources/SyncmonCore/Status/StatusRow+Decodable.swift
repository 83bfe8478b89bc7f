/// A row read back from the status document (docs/protocol.md, "Status JSON"), as `syncmon
/// status` reads the daemon's answer; `StatusDocument.json(pretty:)` writes it. By hand rather
/// than synthesized: the state file stores the same enums as numbers, the document by their
/// label names, and a phase's object carries its outstanding failure beside its state.
extension StatusRow: Decodable {
    enum CodingKeys: String, CodingKey {
        case engine, database, summary, stalled, account, network
        case setup, `import`, export
        case throttledUntil, pending, lastEvent, up, canary, unknownReason
    }

    enum PendingKeys: String, CodingKey {
        case recordZone, database
    }

    enum PhaseKeys: String, CodingKey {
        case state, started, ended, error, failing
    }

    enum FailingKeys: String, CodingKey {
        case since, error
    }

    enum ErrorKeys: String, CodingKey {
        case code, `class`, message
    }

    private static func phaseKey(_ phase: Phase) -> CodingKeys {
        switch phase {
        case .setup: .setup
        case .import: .import
        case .export: .export
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let engineText = try container.decode(String.self, forKey: .engine)
        let databaseText = try container.decode(String.self, forKey: .database)
        guard let engine = InlineName(engineText), let database = Database(databaseText) else {
            throw DecodingError.dataCorruptedError(
                forKey: .engine, in: container, debugDescription: "not an engine/database pair: \(engineText)/\(databaseText)")
        }
        // Reasons a newer daemon may add are skipped rather than refused.
        let stalled = try container.decode([String].self, forKey: .stalled)
        var phases: [PhaseState] = []
        var failing: [OutstandingFailure?] = []
        for phase in Phase.allCases {
            let object = try container.nestedContainer(keyedBy: PhaseKeys.self, forKey: Self.phaseKey(phase))
            let name = try object.decodeName(PhaseStateName.self, forKey: .state)
            switch name {
            case .notStarted:
                phases.append(.notStarted)
            case .inProgress:
                phases.append(.inProgress(since: try object.decodeTime(forKey: .started)))
            case .succeeded:
                phases.append(.succeeded(started: try object.decodeTime(forKey: .started), ended: try object.decodeTime(forKey: .ended)))
            case .failed:
                let error = try Self.decodeError(object.nestedContainer(keyedBy: ErrorKeys.self, forKey: .error))
                phases.append(.failed(started: try object.decodeTime(forKey: .started), ended: try object.decodeTime(forKey: .ended), error: error))
            }
            if object.contains(.failing) {
                let failingObject = try object.nestedContainer(keyedBy: FailingKeys.self, forKey: .failing)
                let error = try Self.decodeError(failingObject.nestedContainer(keyedBy: ErrorKeys.self, forKey: .error))
                failing.append(OutstandingFailure(since: try failingObject.decodeTime(forKey: .since), error: error))
            } else {
                failing.append(nil)
            }
        }
        let pending = try container.nestedContainer(keyedBy: PendingKeys.self, forKey: .pending)
        self.init(
            key: PairKey(engine: engine, database: database),
            summary: try container.decodeName(Summary.self, forKey: .summary),
            stalls: StallSet(stalled.compactMap(StallReason.init)),
            account: try container.decodeName(AccountStatus.self, forKey: .account),
            network: try container.decodeName(NetworkStatus.self, forKey: .network),
            phases: (phases[0], phases[1], phases[2]),
            failing: (failing[0], failing[1], failing[2]),
            throttledUntil: try container.decodeTimeIfPresent(forKey: .throttledUntil),
            pending: (try pending.decode(Int64.self, forKey: .recordZone), try pending.decode(Int64.self, forKey: .database)),
            lastEvent: try container.decodeTime(forKey: .lastEvent),
            up: try container.decode(Bool.self, forKey: .up)
        )
        self.canary = try container.decodeIfPresent(CanaryStatus.self, forKey: .canary)
        self.unknownReason = try container.decodeIfPresent(String.self, forKey: .unknownReason)
    }

    private static func decodeError(_ container: KeyedDecodingContainer<ErrorKeys>) throws -> PhaseError {
        let codeText = try container.decode(String.self, forKey: .code)
        guard let name = InlineName(codeText) else {
            throw DecodingError.dataCorruptedError(forKey: .code, in: container, debugDescription: "not an error code: \(codeText)")
        }
        let code = ErrorCode(name: name)
        let errorClass = try container.contains(.class) ? container.decodeName(ErrorClass.self, forKey: .class) : code.errorClass
        return PhaseError(code: code, errorClass: errorClass, message: try container.decodeIfPresent(String.self, forKey: .message))
    }
}
