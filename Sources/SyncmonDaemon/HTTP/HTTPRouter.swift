import NIOHTTP1
import Synchronization
import SyncmonCore
import SyncmonExposition
import SyncmonHost
import SyncmonSources
import SyncmonStatusAPI

/// A request as the router sees it: method, path, query and the headers it uses.
package struct HTTPRequest: Sendable {
    package var method: HTTPMethod
    package var path: String
    package var query: [String: String]
    package var accept: String?

    package init(method: HTTPMethod = .GET, path: String, query: [String: String] = [:], accept: String? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.accept = accept
    }

    /// The request a head asks for: the request target split into path and percent-decoded query.
    package init(head: HTTPRequestHead) {
        let uri = head.uri
        let questionMark = uri.firstIndex(of: "?")
        self.method = head.method
        self.path = String(uri[..<(questionMark ?? uri.endIndex)])
        self.query = [:]
        if let questionMark {
            for pair in uri[uri.index(after: questionMark)...].split(separator: "&") {
                // Empty pieces kept: `=x` is the key "" (not an empty split, which `/?=` made
                // and indexing it trapped).
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let key = Self.percentDecoded(parts[0])
                self.query[key] = parts.count > 1 ? Self.percentDecoded(parts[1]) : ""
            }
        }
        self.accept = head.headers.first(name: "accept")
    }

    static func percentDecoded(_ text: Substring) -> String {
        let text = Array(text.utf8)
        var bytes: [UInt8] = []
        var index = 0
        while index < text.count {
            let byte = text[index]
            // A `%` without two hex digits after it is kept as it is, with what follows it.
            if byte == UInt8(ascii: "%"), index + 2 < text.count, let high = Self.hexValue(text[index + 1]),
                let low = Self.hexValue(text[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// A response: status, content type, body and extra headers.
package struct HTTPResponse: Sendable {
    package var status: HTTPResponseStatus
    package var contentType: String
    package var body: [UInt8]
    package var headers: [(String, String)] = []

    package init(
        status: HTTPResponseStatus = .ok,
        contentType: String,
        body: [UInt8],
        headers: [(String, String)] = []
    ) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.headers = headers
    }

    static func text(_ status: HTTPResponseStatus, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: Array(text.utf8))
    }
}

/// Routes requests to answers: the whole HTTP API, testable without sockets.
package struct HTTPRouter: Sendable {
    let store: MonitorStore
    let renderer: MetricsRenderer
    let lastMetricsSize = MetricsSizeHint()

    package init(store: MonitorStore, renderer: MetricsRenderer) {
        self.store = store
        self.renderer = renderer
    }

    /// The state saver's health, for the status document.
    private var stateSave: StateSaveStatus {
        let health = self.renderer.persistence.snapshot
        return StateSaveStatus(lastSave: health.lastSuccess, failures: health.failures, failingInARow: health.failingInARow)
    }

    /// A `/metrics` answer to be written as it is rendered; see ``streamedMetrics(for:now:)``.
    package struct StreamedMetrics: Sendable {
        package var contentType: String
        /// Renders the exposition into the memory `pieces` lends, committing each piece as it
        /// is written.
        package var render: @Sendable (_ pieces: any ExpositionPieceSink) -> Void
    }

    /// `/metrics` for the HTTP server: rendered in pieces off the event loop while the earlier
    /// pieces are already being sent (`respond(to:now:)` gives the same bytes whole).
    package func streamedMetrics(for request: HTTPRequest, now: Timestamp) -> StreamedMetrics? {
        guard request.path == "/metrics", request.method == .GET else { return nil }
        let format = ExpositionFormat.negotiate(accept: request.accept)
        let snapshot = self.store.snapshot()
        let renderer = self.renderer
        return StreamedMetrics(contentType: format.contentType) { pieces in
            renderer.stream(
                monitor: snapshot.monitor,
                received: snapshot.received,
                process: ProcessMetrics.current(),
                format: format,
                now: now,
                into: pieces
            )
        }
    }

    package func respond(to request: HTTPRequest, now: Timestamp) -> HTTPResponse {
        guard request.method == .GET || request.method == .HEAD else {
            var response = HTTPResponse.text(.methodNotAllowed, "only GET and HEAD are served\n")
            response.headers.append(("allow", "GET, HEAD"))
            return response
        }
        if let page = self.page(for: request, now: now) { return page }
        switch request.path {
        case "/metrics":
            let format = ExpositionFormat.negotiate(accept: request.accept)
            let snapshot = self.store.snapshot()
            let body = self.renderer.render(
                monitor: snapshot.monitor,
                received: snapshot.received,
                process: ProcessMetrics.current(),
                format: format,
                now: now,
                sizeHint: self.lastMetricsSize.value
            )
            self.lastMetricsSize.value = body.count
            return HTTPResponse(status: .ok, contentType: format.contentType, body: body)
        case "/healthz":
            return .text(.ok, "ok\n")
        case "/api/v1/status":
            let snapshot = self.store.snapshot()
            let engine = request.query["engine"].flatMap(EngineName.parse)
            if request.query["engine"] != nil, engine == nil {
                return .text(.badRequest, "engine names are 1-64 characters of [A-Za-z0-9._-]\n")
            }
            let rows = snapshot.monitor.rows(at: now, engine: engine)
            // A source that never connected has no rows: its trouble shows here instead.
            let sources = self.renderer.sources.statuses(engine: request.query["engine"])
            let document = StatusDocument(now: now, engines: rows, stateSave: self.stateSave, sources: sources)
            return HTTPResponse(status: .ok, contentType: "application/json", body: document.json())
        case "/api/v1/history":
            return self.history(for: request, now: now)
        default:
            return .text(.notFound, "not found; try /metrics, /healthz or /api/v1/status\n")
        }
    }

    /// `/api/v1/history[?engine=E[&database=D]][&since=RFC3339]` (docs/protocol.md, "History
    /// JSON"): the pairs' changes of health. A query that cannot be understood is a bad request
    /// saying why, as `/api/v1/status` answers a bad engine name.
    private func history(for request: HTTPRequest, now: Timestamp) -> HTTPResponse {
        let query = request.query
        let engine = query["engine"].flatMap(EngineName.parse)
        if query["engine"] != nil, engine == nil {
            return .text(.badRequest, "engine names are 1-64 characters of [A-Za-z0-9._-]\n")
        }
        let database = query["database"].flatMap { Database($0) }
        if query["database"] != nil {
            guard engine != nil else { return .text(.badRequest, "database goes with engine: ?engine=E&database=D\n") }
            guard database != nil else { return .text(.badRequest, "database names are 1-64 characters of [A-Za-z0-9._-]\n") }
        }
        let since = query["since"].flatMap(RFC3339.parse)
        if query["since"] != nil, since == nil {
            // A `+` in a query is a space: an offset must be sent as %2B, or the time in UTC.
            return .text(.badRequest, "since is an RFC 3339 time, e.g. 2026-11-28T10:00:00Z (a + offset written %2B)\n")
        }
        let document = self.store.snapshot().monitor.history(at: now, engine: engine, database: database, since: since)
        return HTTPResponse(status: .ok, contentType: "application/json", body: document.json())
    }
}

/// The size of the previous `/metrics` body, so the next render reserves enough at once.
final class MetricsSizeHint: Sendable {
    private let storage = Atomic<Int>(64 * 1024)

    var value: Int {
        get { self.storage.load(ordering: .relaxed) }
        set { self.storage.store(newValue, ordering: .relaxed) }
    }
}
