import Foundation
import SyncmonCore
import Testing

/// `StatusDocument.json(pretty:)` writes the status document byte for byte as Foundation's
/// `JSONEncoder` (sorted keys, unescaped slashes, pretty or compact) wrote it before: dashboards,
/// scripts and `jq` filters read this text, so the writer is checked against the encoder, kept
/// here as the oracle (`EncoderOracle`, the document's former `Encodable` code), on every shape a
/// document takes.
@Suite("Status JSON writer")
struct StatusJSONWriterTests {
    static let now = Timestamp(seconds: 1_795_000_000)

    static func row(
        _ engine: String = "engine-1",
        summary: Summary = .succeeded,
        stalls: [StallReason] = [],
        phases: (PhaseState, PhaseState, PhaseState) = (.notStarted, .notStarted, .notStarted),
        failing: (OutstandingFailure?, OutstandingFailure?, OutstandingFailure?) = (nil, nil, nil),
        throttledUntil: Timestamp? = nil
    ) -> StatusRow {
        StatusRow(
            key: PairKey(engine: InlineName(engine)!, database: .shared), summary: summary, stalls: StallSet(stalls),
            account: .available, network: .unavailable, phases: phases, failing: failing,
            throttledUntil: throttledUntil, pending: (recordZone: 12, database: -1), lastEvent: Self.now.adding(TimeSpan(microseconds: -250_000)), up: false)
    }

    static let quota = PhaseError(code: ErrorCode(name: InlineName("quotaExceeded")!), errorClass: .actionable, message: "iCloud is full")
    static let awkward = PhaseError(
        code: ErrorCode(name: InlineName("some-other.code")!), errorClass: .transient,
        message: "quote \" backslash \\ slash / tab \t newline \n bell \u{7} unit \u{1F} delete \u{7F} é ☃ 🚀")

    static func canary(peers: [CanaryStatus.Peer], error: String?) -> CanaryStatus {
        var errors = CanaryErrorCounts()
        errors[.read] = 3
        errors[.peerLimit] = 1
        return CanaryStatus(host: CanaryHost("host-a")!, seq: 42, peers: peers, lateAfter: TimeSpan.seconds(Int64(900)), errors: errors, error: error)
    }

    /// Every shape: no rows; each phase state, with and without a message; outstanding
    /// failures; stalls; a throttle; the unknown reason; canaries (late and not, a peer never
    /// seen, round trips whose shortest forms differ); the state-save block.
    static var documents: [(String, StatusDocument)] {
        let started = Self.now.adding(TimeSpan.seconds(Int64(-60)))
        var withUnknown = Self.row("unknown.pair", summary: .unknown)
        withUnknown.unknownReason = "no event since the daemon started \u{1}\"x\""
        var withCanary = Self.row("canaried", stalls: [.canaryLate])
        withCanary.canary = Self.canary(
            peers: [
                CanaryStatus.Peer(host: CanaryHost("host-b")!, seq: 7, lastMoved: started, roundTripSeconds: 0.25, late: nil),
                CanaryStatus.Peer(host: CanaryHost("host-c")!, seq: 0, lastMoved: nil, roundTripSeconds: nil, late: .notMoving),
                CanaryStatus.Peer(host: CanaryHost("host-d")!, seq: 9, lastMoved: started, roundTripSeconds: 30, late: .notAcknowledged(seq: 8)),
                CanaryStatus.Peer(host: CanaryHost("host-e")!, seq: 1, lastMoved: started, roundTripSeconds: 0.00001, late: nil),
                CanaryStatus.Peer(host: CanaryHost("host-f")!, seq: 2, lastMoved: started, roundTripSeconds: 123_456.789_012, late: nil),
                CanaryStatus.Peer(host: CanaryHost("host-g")!, seq: 3, lastMoved: started, roundTripSeconds: 1e21, late: nil),
            ],
            error: "cannot write /var/lib/syncmon/canary: read-only")
        var bareCanary = Self.row("bare-canary")
        bareCanary.canary = Self.canary(peers: [], error: nil)
        let rows = [
            Self.row("a"),
            Self.row(
                "b", summary: .inProgress, stalls: [.noProgress, .pendingNotDraining],
                phases: (
                    .succeeded(started: started, ended: Self.now), .inProgress(since: started), .failed(started: started, ended: Self.now, error: Self.quota)
                )),
            Self.row(
                "c", summary: .retrying,
                phases: (.notStarted, .failed(started: started, ended: Self.now, error: Self.awkward), .inProgress(since: started)),
                failing: (OutstandingFailure(since: started, error: Self.quota), nil, OutstandingFailure(since: started, error: Self.awkward)),
                throttledUntil: Self.now.adding(TimeSpan.seconds(Int64(30)))),
            withUnknown, withCanary, bareCanary,
        ]
        return [
            ("no rows", StatusDocument(now: Self.now, engines: [])),
            ("every row shape", StatusDocument(now: Self.now, engines: rows)),
            ("state saved", StatusDocument(now: Self.now, engines: [rows[1]], stateSave: StateSaveStatus(lastSave: started, failures: 0, failingInARow: 0))),
            ("state never saved", StatusDocument(now: Self.now, engines: [], stateSave: StateSaveStatus(lastSave: nil, failures: 4, failingInARow: 4))),
            ("no sources", StatusDocument(now: Self.now, engines: [rows[0]], sources: [])),
            (
                "sources",
                StatusDocument(
                    now: Self.now, engines: [],
                    stateSave: StateSaveStatus(lastSave: started, failures: 0, failingInARow: 0),
                    sources: [
                        SourceStatus(name: "st", kind: "syncthing", state: .disconnected, since: started, lastError: Self.awkward.message, reconnects: 12),
                        SourceStatus(name: "log", kind: "file", state: .connected, since: Self.now, lastError: nil, reconnects: 0),
                        SourceStatus(name: "unit-x", kind: "unit", state: .starting, since: started, lastError: nil, reconnects: 0),
                    ])
            ),
        ]
    }

    @Test("the writer's bytes are the encoder's", arguments: [true, false])
    func writerMatchesEncoder(pretty: Bool) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        for (name, document) in Self.documents {
            let expected = String(decoding: try encoder.encode(EncoderOracle(document: document)), as: UTF8.self) + "\n"
            let written = String(decoding: document.json(pretty: pretty), as: UTF8.self)
            #expect(written == expected, "\(name), pretty: \(pretty)")
        }
    }

    /// What `syncmon status` reads back of a written document. (A late peer reads back late for
    /// an unnamed reason, so the text itself is not compared.)
    @Test("a written document reads back")
    func writtenDocumentReadsBack() throws {
        for (name, document) in Self.documents {
            let read = try JSONDecoder().decode(StatusDocument.self, from: Data(document.json()))
            #expect(read.now == document.now, "\(name)")
            #expect(read.stateSave == document.stateSave, "\(name)")
            #expect(read.sources == document.sources, "\(name)")
            #expect(read.engines.map(\.key) == document.engines.map(\.key), "\(name)")
            #expect(read.engines.map(\.summary) == document.engines.map(\.summary), "\(name)")
            #expect(read.engines.map(\.stalls) == document.engines.map(\.stalls), "\(name)")
            #expect(read.engines.map(\.unknownReason) == document.engines.map(\.unknownReason), "\(name)")
            #expect(read.engines.map { $0.failing(.export) } == document.engines.map { $0.failing(.export) }, "\(name)")
            #expect(read.engines.map { $0.canary?.peers.count } == document.engines.map { $0.canary?.peers.count }, "\(name)")
        }
    }
}

/// The status document's former `Encodable` code, Foundation's encoder driving it: the oracle
/// for the writer.
private struct EncoderOracle: Encodable {
    let document: StatusDocument

    enum DocumentKeys: String, CodingKey { case now, engines, stateSave, sources }
    enum SourceKeys: String, CodingKey { case name, kind, state, since, lastError, reconnects }
    enum RowKeys: String, CodingKey {
        case engine, database, summary, stalled, account, network, setup, `import`, export
        case throttledUntil, pending, lastEvent, up, canary, unknownReason
    }
    enum PendingKeys: String, CodingKey { case recordZone, database }
    enum PhaseKeys: String, CodingKey { case state, started, ended, error, failing }
    enum FailingKeys: String, CodingKey { case since, error }
    enum ErrorKeys: String, CodingKey { case code, `class`, message }
    enum SaveKeys: String, CodingKey { case lastSave, failures, failingInARow }
    enum CanaryKeys: String, CodingKey { case host, seq, peers, lateAfterSeconds, errors, error }
    enum PeerKeys: String, CodingKey { case host, seq, lastMoved, roundTripSeconds, late, lateReason }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: DocumentKeys.self)
        try container.encode(RFC3339.format(self.document.now), forKey: .now)
        var rows = container.nestedUnkeyedContainer(forKey: .engines)
        for row in self.document.engines { try Self.encode(row, into: rows.nestedContainer(keyedBy: RowKeys.self)) }
        if let sources = self.document.sources {
            var array = container.nestedUnkeyedContainer(forKey: .sources)
            for source in sources {
                var object = array.nestedContainer(keyedBy: SourceKeys.self)
                try object.encode(source.name, forKey: .name)
                try object.encode(source.kind, forKey: .kind)
                try object.encode(source.state.rawValue, forKey: .state)
                try object.encode(RFC3339.format(source.since), forKey: .since)
                try object.encode(source.lastError, forKey: .lastError)
                try object.encode(source.reconnects, forKey: .reconnects)
            }
        }
        if let save = self.document.stateSave {
            var object = container.nestedContainer(keyedBy: SaveKeys.self, forKey: .stateSave)
            try object.encode(save.lastSave.map(RFC3339.format), forKey: .lastSave)
            try object.encode(save.failures, forKey: .failures)
            try object.encode(save.failingInARow, forKey: .failingInARow)
        }
    }

    private static func encode(_ row: StatusRow, into container: KeyedEncodingContainer<RowKeys>) throws {
        var container = container
        try container.encode(row.key.engine.description, forKey: .engine)
        try container.encode(row.key.database.description, forKey: .database)
        try container.encode(row.summary.description, forKey: .summary)
        try container.encode(row.stalls.map(\.description), forKey: .stalled)
        try container.encode(row.account.description, forKey: .account)
        try container.encode(row.network.description, forKey: .network)
        for (phase, key) in [(Phase.setup, RowKeys.setup), (.import, .import), (.export, .export)] {
            var object = container.nestedContainer(keyedBy: PhaseKeys.self, forKey: key)
            let state = row[phase]
            try object.encode(state.name.description, forKey: .state)
            switch state {
            case .notStarted:
                break
            case .inProgress(let since):
                try object.encode(RFC3339.format(since), forKey: .started)
            case .succeeded(let started, let ended):
                try object.encode(RFC3339.format(started), forKey: .started)
                try object.encode(RFC3339.format(ended), forKey: .ended)
            case .failed(let started, let ended, let error):
                try object.encode(RFC3339.format(started), forKey: .started)
                try object.encode(RFC3339.format(ended), forKey: .ended)
                try Self.encode(error, into: object.nestedContainer(keyedBy: ErrorKeys.self, forKey: .error))
            }
            if let failing = row.failing(phase) {
                var failingObject = object.nestedContainer(keyedBy: FailingKeys.self, forKey: .failing)
                try failingObject.encode(RFC3339.format(failing.since), forKey: .since)
                try Self.encode(failing.error, into: failingObject.nestedContainer(keyedBy: ErrorKeys.self, forKey: .error))
            }
        }
        try container.encode(row.throttledUntil.map(RFC3339.format), forKey: .throttledUntil)
        var pending = container.nestedContainer(keyedBy: PendingKeys.self, forKey: .pending)
        try pending.encode(row.pendingRecordZoneChanges, forKey: .recordZone)
        try pending.encode(row.pendingDatabaseChanges, forKey: .database)
        try container.encode(RFC3339.format(row.lastEvent), forKey: .lastEvent)
        try container.encode(row.up, forKey: .up)
        if let canary = row.canary { try Self.encode(canary, into: container.nestedContainer(keyedBy: CanaryKeys.self, forKey: .canary)) }
        try container.encodeIfPresent(row.unknownReason, forKey: .unknownReason)
    }

    private static func encode(_ error: PhaseError, into container: KeyedEncodingContainer<ErrorKeys>) throws {
        var container = container
        try container.encode(error.code.description, forKey: .code)
        try container.encode(error.errorClass.description, forKey: .class)
        try container.encodeIfPresent(error.message, forKey: .message)
    }

    private static func encode(_ canary: CanaryStatus, into container: KeyedEncodingContainer<CanaryKeys>) throws {
        var container = container
        try container.encode(canary.host.description, forKey: .host)
        try container.encode(canary.seq, forKey: .seq)
        var peers = container.nestedUnkeyedContainer(forKey: .peers)
        for peer in canary.peers {
            var object = peers.nestedContainer(keyedBy: PeerKeys.self)
            try object.encode(peer.host.description, forKey: .host)
            try object.encode(peer.seq, forKey: .seq)
            try object.encode(peer.lastMoved.map(RFC3339.format), forKey: .lastMoved)
            try object.encode(peer.roundTripSeconds, forKey: .roundTripSeconds)
            try object.encode(peer.late != nil, forKey: .late)
            if let late = peer.late { try object.encode(late.description, forKey: .lateReason) }
        }
        try container.encode(canary.lateAfter.seconds, forKey: .lateAfterSeconds)
        var errors = [String: UInt64]()
        for reason in CanaryErrorReason.allCases { errors[reason.description] = canary.errors[reason] }
        try container.encode(errors, forKey: .errors)
        try container.encode(canary.error, forKey: .error)
    }
}
