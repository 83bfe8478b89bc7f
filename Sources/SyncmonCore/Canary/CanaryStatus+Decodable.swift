/// Read back from status JSON (`StatusDocument.json(pretty:)` writes it): times as RFC 3339, lateness as `late` (a boolean) with the
/// rule beside it (`lateReason`), errors by their label.
extension CanaryStatus: Decodable {
    enum CodingKeys: String, CodingKey {
        case host, seq, peers, lateAfterSeconds, errors, error
    }

    enum PeerKeys: String, CodingKey {
        case host, seq, lastMoved, roundTripSeconds, late, lateReason
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func host(_ text: String) throws -> CanaryHost {
            guard let host = CanaryHost(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a canary host name: \(text)"))
            }
            return host
        }
        var peers: [Peer] = []
        var list = try container.nestedUnkeyedContainer(forKey: .peers)
        while !list.isAtEnd {
            let object = try list.nestedContainer(keyedBy: PeerKeys.self)
            let lastMoved = try object.decodeIfPresent(String.self, forKey: .lastMoved).flatMap { RFC3339.parse($0) }
            let late = try object.decode(Bool.self, forKey: .late)
            // The rule is shown, not needed: a late peer read back is late for an unnamed reason.
            peers.append(
                Peer(
                    host: try host(object.decode(String.self, forKey: .host)),
                    seq: try object.decode(Int64.self, forKey: .seq),
                    lastMoved: lastMoved,
                    roundTripSeconds: try object.decodeIfPresent(Double.self, forKey: .roundTripSeconds),
                    late: late ? .notMoving : nil
                ))
        }
        var errors = CanaryErrorCounts()
        let counts = try container.decodeIfPresent([String: UInt64].self, forKey: .errors) ?? [:]
        for reason in CanaryErrorReason.allCases { errors[reason] = counts[reason.description] ?? 0 }
        self.init(
            host: try host(container.decode(String.self, forKey: .host)),
            seq: try container.decode(Int64.self, forKey: .seq),
            peers: peers,
            lateAfter: .seconds(try container.decodeIfPresent(Double.self, forKey: .lateAfterSeconds) ?? 0),
            errors: errors,
            error: try container.decodeIfPresent(String.self, forKey: .error)
        )
    }
}
