import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif
import SyncmonCore
import SyncmonDaemon

/// Fetches `/api/v1/status` from a running daemon, over HTTP or HTTPS and with basic auth when
/// its web configuration asks (through ``HTTPGetClient``), and says why when it cannot.
struct StatusClient {
    /// Why the daemon could not be asked.
    struct Unreachable: Error, CustomStringConvertible {
        var description: String
    }

    let url: String
    let options: HTTPGetClient.Options

    /// The status document for `engine` (or all engines).
    func fetch(engine: String?) async throws -> (json: String, now: Timestamp, rows: [StatusRow]) {
        guard let components = URLComponents(string: self.url), components.scheme == "http" || components.scheme == "https",
            components.host != nil
        else {
            throw Unreachable(description: "--url must be http://host:port or https://host:port, not \(self.url)")
        }
        var base = self.url
        if let query = base.firstIndex(of: "?") { base = String(base[..<query]) }
        while base.hasSuffix("/") { base.removeLast() }
        var target = base + "/api/v1/status"
        if let engine {
            // Engine names are [A-Za-z0-9._-] only, so nothing needs percent-encoding.
            guard EngineName.isValid(engine.utf8) else { throw Unreachable(description: "engine names are 1-64 characters of [A-Za-z0-9._-], not \(engine)") }
            target += "?engine=" + engine
        }
        let response: HTTPGetClient.Response
        do {
            response = try await HTTPGetClient.get(target, accept: "application/json", options: self.options)
        } catch {
            throw Unreachable(description: self.explain(error))
        }
        guard response.statusCode == 200 else { throw Unreachable(description: self.explain(response)) }
        let body = String(decoding: response.body, as: UTF8.self)
        let document: StatusJSON
        do {
            document = try JSONDecoder().decode(StatusJSON.self, from: Data(body.utf8))
        } catch {
            throw Unreachable(description: "\(self.url) did not answer with syncmon status JSON (\(error))")
        }
        return (body, document.timestamp, try document.rows())
    }

    private func explain(_ failure: HTTPGetClient.Failure) -> String {
        switch failure {
        case .unreachable(let reason):
            "cannot reach the daemon at \(self.url): \(reason) (is 'syncmon daemon' running?)"
        case .tls(let reason):
            "cannot reach the daemon at \(self.url): TLS handshake failed: \(reason)"
        case .timedOut:
            "no answer from \(self.url) within \(self.options.timeout)"
        case .caFile(let reason):
            "--ca-file: \(reason)"
        case .invalidURL, .other:
            "cannot reach the daemon at \(self.url): \(failure)"
        }
    }

    private func explain(_ response: HTTPGetClient.Response) -> String {
        let statusLine = response.statusLine
        if response.statusCode == 401 {
            return self.options.user == nil
                ? "unauthorized: \(self.url) asks for a password; pass --user and set SYNCMON_PASSWORD"
                : "unauthorized: check --user and SYNCMON_PASSWORD"
        }
        // A short plain-text answer says what went wrong ("Client sent an HTTP request to an
        // HTTPS server.").
        let text = String(decoding: response.body.prefix(200), as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        return "\(self.url) answered \(statusLine)" + (text.isEmpty || response.body.count > 200 ? "" : ": \(text)")
    }
}

/// The status JSON of SPEC §4, as the daemon sends it.
struct StatusJSON: Decodable {
    struct Row: Decodable {
        struct PhaseJSON: Decodable {
            struct ErrorJSON: Decodable {
                var code: String
                var `class`: String?
            }

            struct FailingJSON: Decodable {
                var since: String
                var error: ErrorJSON
            }

            var state: String
            var started: String?
            var ended: String?
            var error: ErrorJSON?
            var failing: FailingJSON?
        }

        struct Pending: Decodable {
            var recordZone: Int64
            var database: Int64
        }

        var engine: String
        var database: String
        var summary: String
        var stalled: [String]
        var account: String
        var network: String
        var setup: PhaseJSON
        var `import`: PhaseJSON
        var export: PhaseJSON
        var throttledUntil: String?
        var pending: Pending
        var lastEvent: String
        var up: Bool
    }

    var now: String
    var engines: [Row]

    var timestamp: Timestamp { RFC3339.parse(self.now) ?? Timestamp(microseconds: 0) }

    func rows() throws -> [StatusRow] {
        try self.engines.map { row in
            guard let engine = InlineName(row.engine), let database = Database(row.database),
                let summary = Summary(row.summary)
            else { throw StatusClient.Unreachable(description: "unexpected row in status JSON: \(row.engine)/\(row.database)") }
            return StatusRow(
                key: PairKey(engine: engine, database: database),
                summary: summary,
                stalls: StallSet(row.stalled.compactMap(StallReason.init)),
                account: AccountStatus.allCases.first { $0.description == row.account } ?? .unknown,
                network: NetworkStatus.allCases.first { $0.description == row.network } ?? .unknown,
                phases: (Self.phase(row.setup), Self.phase(row.import), Self.phase(row.export)),
                failing: (Self.failing(row.setup), Self.failing(row.import), Self.failing(row.export)),
                throttledUntil: row.throttledUntil.flatMap(RFC3339.parse),
                pending: (row.pending.recordZone, row.pending.database),
                lastEvent: RFC3339.parse(row.lastEvent) ?? Timestamp(microseconds: 0),
                up: row.up
            )
        }
    }

    private static func phase(_ json: Row.PhaseJSON) -> PhaseState {
        let started = json.started.flatMap(RFC3339.parse) ?? Timestamp(microseconds: 0)
        let ended = json.ended.flatMap(RFC3339.parse) ?? started
        switch json.state {
        case "in_progress": return .inProgress(since: started)
        case "succeeded": return .succeeded(started: started, ended: ended)
        case "failed": return .failed(started: started, ended: ended, error: Self.error(json.error))
        default: return .notStarted
        }
    }

    private static func failing(_ json: Row.PhaseJSON) -> OutstandingFailure? {
        guard let failing = json.failing else { return nil }
        return OutstandingFailure(since: RFC3339.parse(failing.since) ?? Timestamp(microseconds: 0), error: Self.error(failing.error))
    }

    private static func error(_ json: Row.PhaseJSON.ErrorJSON?) -> PhaseError {
        let code = ErrorCode(name: InlineName(String((json?.code ?? "unknown").prefix(64))) ?? InlineName())
        let errorClass = ErrorClass.allCases.first { $0.description == json?.class } ?? code.errorClass
        return PhaseError(code: code, errorClass: errorClass)
    }
}
