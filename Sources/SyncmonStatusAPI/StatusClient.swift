import FoundationEssentials
import SyncmonCore
import SyncmonHost

#if canImport(Glibc)
import Glibc
#endif

/// Fetches `/api/v1/status` (and `/api/v1/history`) from a running daemon, over HTTP or HTTPS and with basic auth when
/// its web configuration asks (through ``HTTPGetClient``), and says why when it cannot: for
/// `syncmon status` and `syncmon forget`.
public struct StatusClient: Sendable {
    /// Why the daemon could not be asked.
    public struct Unreachable: Error, CustomStringConvertible {
        public var description: String
    }

    public let url: String
    public let options: HTTPGetClient.Options

    public init(url: String, options: HTTPGetClient.Options) {
        self.url = url
        self.options = options
    }

    /// The daemon's URL when `--url` is not given: a user's own daemon before the system's,
    /// where it said it listens (docs/user-sessions.md), else `http://127.0.0.1:9478`.
    public static func defaultURL() -> String {
        DefaultPaths.clientStatusURL(
            environment: { name in getenv(name).map { String(cString: $0) } },
            isRoot: getuid() == 0,
            userID: getuid(),
            exists: { access($0, F_OK) == 0 },
            read: { path in (try? String(contentsOfFile: path, encoding: .utf8)) }
        )
    }

    /// `url` with `http://` in front when it has no scheme: `--url 127.0.0.1:9478` and
    /// `--url localhost:9478` mean the daemon's plain HTTP listener, as `--listen` spells it.
    public static func withScheme(_ url: String) -> String {
        url.contains("://") ? url : "http://" + url
    }

    /// The status document for `engine` (or all engines).
    public func fetch(engine: String?) async throws -> (json: String, document: StatusDocument) {
        try await self.fetch("/api/v1/status", engine: engine, query: "", named: "status JSON") { try StatusDocument(json: $0) }
    }

    /// The history document (docs/protocol.md, "History JSON") for `engine` (or all engines),
    /// with the changes from `since` on (all that are kept without it).
    public func fetchHistory(engine: String?, since: Timestamp?) async throws -> (json: String, document: HistoryDocument) {
        // RFC 3339 in UTC is digits, `-`, `:`, `.`, `T` and `Z`: nothing needs percent-encoding.
        let query = since.map { "since=" + RFC3339.format($0) } ?? ""
        return try await self.fetch("/api/v1/history", engine: engine, query: query, named: "history JSON") {
            try JSONDecoder().decode(HistoryDocument.self, from: Data($0))
        }
    }

    /// GETs `path` with `engine` and `query` (`key=value&…`, already encoded) from the daemon
    /// and reads the answer with `read`; `named` says what it should have been when it is not.
    private func fetch<Document>(
        _ path: String, engine: String?, query: String, named: String, read: ([UInt8]) throws -> Document
    ) async throws -> (json: String, document: Document) {
        guard let components = URLComponents(string: self.url), components.scheme == "http" || components.scheme == "https",
            components.host != nil
        else {
            throw Unreachable(description: "--url must be host:port, http://host:port or https://host:port, not \(self.url)")
        }
        var base = self.url
        if let query = base.firstIndex(of: "?") { base = String(base[..<query]) }
        while base.hasSuffix("/") { base.removeLast() }
        var parameters: [String] = []
        if let engine {
            // Engine names are [A-Za-z0-9._-] only, so nothing needs percent-encoding.
            guard EngineName.isValid(engine.utf8) else { throw Unreachable(description: "engine names are 1-64 characters of [A-Za-z0-9._-], not \(engine)") }
            parameters.append("engine=" + engine)
        }
        if !query.isEmpty { parameters.append(query) }
        let target = base + path + (parameters.isEmpty ? "" : "?" + parameters.joined(separator: "&"))
        let response: HTTPGetClient.Response
        do {
            response = try await HTTPGetClient.get(target, accept: "application/json", options: self.options)
        } catch {
            throw Unreachable(description: self.explain(error))
        }
        guard response.statusCode == 200 else { throw Unreachable(description: self.explain(response)) }
        let body = String(decoding: response.body, as: UTF8.self)
        let document: Document
        do {
            document = try read(response.body)
        } catch {
            throw Unreachable(description: "\(self.url) did not answer with syncmon \(named) (\(error))")
        }
        return (body, document)
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
        case .clientCertificate(let reason):
            "--cert-file/--key-file: \(reason)"
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
