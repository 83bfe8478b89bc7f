import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import SyncmonContractTesting
import SyncmonCore
import Testing

@testable import SyncmonDaemon
@testable import SyncmonSources

/// The subscribe sources' channel handlers (docs/subscribe.md) on an `EmbeddedChannel`: the
/// bytes a `unix:` engine writes and the response parts an `http://` engine answers, handed in
/// by the test, with the store, health and resume state checked after each step. No socket, no
/// server, no timing.
@Suite("Stream handlers without sockets")
struct StreamHandlerTests {
    /// The state one connection's handler reports into.
    struct Harness {
        let store = MonitorStore(configuration: MonitorConfiguration())
        let health = SourceHealth(
            name: "engine", kind: "http", clock: ManualClock(now: at(0)), start: at(0),
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let record = AttemptRecord()
        let resume = StreamResume()
        let clock = ManualClock(now: at(0))

        func ingest() -> EventIngest {
            EventIngest(
                store: self.store,
                reporter: EventReporter(logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })),
                transport: .subscribe,
                clock: self.clock,
                maximumLineLength: 65_536
            )
        }

        /// The pairs the store tracks, with their imports' completed cycles.
        var importRuns: [String: UInt64] {
            let (monitor, _, _) = self.store.snapshot()
            var runs: [String: UInt64] = [:]
            for (key, state) in monitor.pairs { runs["\(key.engine)/\(key.database)"] = state.runs(of: .import).runs }
            return runs
        }

        func httpHandler(checksReplay: Bool = false, lastEventID: String = "") -> HTTPStreamHandler {
            HTTPStreamHandler(
                request: HTTPRequestHead(version: .http1_1, method: .GET, uri: "/events"),
                ingest: self.ingest(),
                health: self.health,
                record: self.record,
                resume: self.resume,
                checksReplay: checksReplay,
                maximumLineLength: 65_536,
                lastEventID: lastEventID,
                url: "http://127.0.0.1:1/events"
            )
        }
    }

    static func cycle(_ engine: String, seq: Int) -> String {
        #"{"v":1,"engine":"\#(engine)","type":"willFetchChanges","seq":\#(2 * seq)}"# + "\n"
            + #"{"v":1,"engine":"\#(engine)","type":"didFetchChanges","seq":\#(2 * seq + 1)}"# + "\n"
    }

    static func head(_ status: HTTPResponseStatus, contentType: String) -> HTTPClientResponsePart {
        .head(HTTPResponseHead(version: .http1_1, status: status, headers: ["content-type": contentType]))
    }

    func body(_ channel: EmbeddedChannel, _ text: String) throws {
        try channel.writeInbound(HTTPClientResponsePart.body(channel.allocator.buffer(string: text)))
    }

    @Test("unix: lines are applied as they complete, and the source is up from the connection")
    func unixLines() throws {
        let harness = Harness()
        let channel = EmbeddedChannel(
            handler: LineStreamHandler(ingest: harness.ingest(), health: harness.health, record: harness.record, detail: "unix:/run/e.sock")
        )
        channel.pipeline.fireChannelActive()
        #expect(harness.health.current == .connected)
        let text = Self.cycle("notes", seq: 0)
        let cut = text.index(text.startIndex, offsetBy: 30)
        try channel.writeInbound(channel.allocator.buffer(string: String(text[..<cut])))
        #expect(harness.importRuns["notes/private"] == nil)
        try channel.writeInbound(channel.allocator.buffer(string: String(text[cut...])))
        #expect(harness.importRuns["notes/private"] == 1)
        #expect(harness.record.outcome.delivered == 2)
        _ = try channel.finish()
        #expect(harness.record.outcome.reason == "the engine closed the connection")
    }

    @Test("http: the request is a GET of the target; NDJSON is applied and resumes by seq")
    func httpNDJSON() throws {
        let harness = Harness()
        let channel = EmbeddedChannel(handler: harness.httpHandler())
        channel.pipeline.fireChannelActive()
        let sent = try channel.readOutbound(as: HTTPClientRequestPart.self)
        guard case .head(let request) = sent else {
            Issue.record("no request head: \(String(describing: sent))")
            return
        }
        #expect(request.method == .GET && request.uri == "/events")
        #expect(harness.health.current != .connected, "no answer yet")

        try channel.writeInbound(Self.head(.ok, contentType: "application/x-ndjson"))
        #expect(harness.health.current == .connected)
        try self.body(channel, Self.cycle("photos", seq: 4))
        #expect(harness.importRuns["photos/private"] == 1)
        #expect(harness.resume.requestTarget(for: "/events") == "/events?since=9")
        _ = try channel.finish()
    }

    @Test("http: SSE events are applied, their ids remembered, and a resumed stream's replay skipped")
    func httpSSE() throws {
        let harness = Harness()
        var channel = EmbeddedChannel(handler: harness.httpHandler())
        channel.pipeline.fireChannelActive()
        _ = try channel.readOutbound(as: HTTPClientRequestPart.self)
        try channel.writeInbound(Self.head(.ok, contentType: "text/event-stream; charset=utf-8"))
        for (id, line) in Self.cycle("mail", seq: 0).split(separator: "\n").enumerated() {
            try self.body(channel, "id: \(id + 1)\ndata: \(line)\n\n")
        }
        #expect(harness.importRuns["mail/private"] == 1)
        try channel.writeInbound(HTTPClientResponsePart.end(nil))
        #expect(harness.record.outcome.reason == "the server ended the response")

        // The engine sends its history again after a reconnect: what was seen is not applied twice.
        channel = EmbeddedChannel(handler: harness.httpHandler(checksReplay: true, lastEventID: "2"))
        channel.pipeline.fireChannelActive()
        _ = try channel.readOutbound(as: HTTPClientRequestPart.self)
        try channel.writeInbound(Self.head(.ok, contentType: "text/event-stream"))
        for (id, line) in (Self.cycle("mail", seq: 0) + Self.cycle("mail", seq: 1)).split(separator: "\n").enumerated() {
            try self.body(channel, "id: \(id + 1)\ndata: \(line)\n\n")
        }
        #expect(harness.importRuns["mail/private"] == 2, "ids 1 and 2 replayed, 3 and 4 new")
        _ = try channel.finish()
    }

    @Test(
        "http: an answer that is not 2xx ends the attempt with its status and applies nothing",
        arguments: [(HTTPResponseStatus.notFound, "HTTP 404 Not Found"), (.noContent, "HTTP 204 No Content"), (.badGateway, "HTTP 502 Bad Gateway")]
    )
    func httpRefused(status: HTTPResponseStatus, reason: String) throws {
        let harness = Harness()
        let channel = EmbeddedChannel(handler: harness.httpHandler())
        channel.pipeline.fireChannelActive()
        try channel.writeInbound(Self.head(status, contentType: "application/x-ndjson"))
        try self.body(channel, Self.cycle("photos", seq: 0))
        #expect(harness.importRuns.isEmpty)
        #expect(harness.record.outcome.reason == reason)
        #expect(harness.health.current != .connected)
        _ = try? channel.finish()
    }
}
