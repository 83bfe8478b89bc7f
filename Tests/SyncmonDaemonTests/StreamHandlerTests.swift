import AsyncHTTPClient
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import SyncmonContractTesting
import SyncmonCore
import Testing

@testable import SyncmonDaemon
@testable import SyncmonSources

/// The subscribe sources' readers (docs/subscribe.md): the bytes a `unix:` engine writes, on an
/// `EmbeddedChannel`, and the parts of an `http://` engine's answer, handed to the reader as
/// AsyncHTTPClient hands them over, with the store, health and resume state checked after each
/// step. No socket, no server, no timing.
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

        func httpReader(checksReplay: Bool = false, lastEventID: String = "") -> HTTPStreamReader {
            HTTPStreamReader(
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

    static func buffer(_ text: String) -> ByteBuffer {
        ByteBuffer(string: text)
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

    @Test("http: the request is a GET of the target, resumed by Last-Event-ID or since=")
    func httpRequest() {
        let resume = StreamResume()
        var request = StreamConnection.request(host: "127.0.0.1", port: 9100, target: "/events?x=1", resume: resume)
        #expect(request.method == .GET && request.url == "http://127.0.0.1:9100/events?x=1")
        #expect(request.headers.first(name: "accept")?.hasPrefix("text/event-stream") == true)
        #expect(request.headers.first(name: "last-event-id") == nil)
        resume.setKind(.ndjson)
        resume.advance(lastEventID: nil, highestSequence: 41)
        request = StreamConnection.request(host: "::1", port: 9100, target: "/events?x=1", resume: resume)
        #expect(request.url == "http://[::1]:9100/events?x=1&since=41")
        resume.setKind(.sse)
        resume.advance(lastEventID: "7", highestSequence: nil)
        request = StreamConnection.request(host: "127.0.0.1", port: 9100, target: "/events", resume: resume)
        #expect(request.url == "http://127.0.0.1:9100/events" && request.headers.first(name: "last-event-id") == "7")
    }

    @Test("http: NDJSON is applied and resumes by seq")
    func httpNDJSON() {
        let harness = Harness()
        let reader = harness.httpReader()
        #expect(harness.health.current != .connected, "no answer yet")
        #expect(reader.head(status: .ok, contentType: "application/x-ndjson"))
        #expect(harness.health.current == .connected)
        reader.body(Self.buffer(Self.cycle("photos", seq: 4)))
        #expect(harness.importRuns["photos/private"] == 1)
        #expect(harness.resume.requestTarget(for: "/events") == "/events?since=9")
        reader.failed(nil)
        #expect(harness.record.outcome.reason == "the server closed the connection")
    }

    @Test("http: SSE events are applied, their ids remembered, and a resumed stream's replay skipped")
    func httpSSE() {
        let harness = Harness()
        var reader = harness.httpReader()
        #expect(reader.head(status: .ok, contentType: "text/event-stream; charset=utf-8"))
        for (id, line) in Self.cycle("mail", seq: 0).split(separator: "\n").enumerated() {
            reader.body(Self.buffer("id: \(id + 1)\ndata: \(line)\n\n"))
        }
        #expect(harness.importRuns["mail/private"] == 1)
        reader.end()
        #expect(harness.record.outcome.reason == "the server ended the response")

        // The engine sends its history again after a reconnect: what was seen is not applied twice.
        reader = harness.httpReader(checksReplay: true, lastEventID: "2")
        #expect(reader.head(status: .ok, contentType: "text/event-stream"))
        for (id, line) in (Self.cycle("mail", seq: 0) + Self.cycle("mail", seq: 1)).split(separator: "\n").enumerated() {
            reader.body(Self.buffer("id: \(id + 1)\ndata: \(line)\n\n"))
        }
        #expect(harness.importRuns["mail/private"] == 2, "ids 1 and 2 replayed, 3 and 4 new")
    }

    @Test(
        "http: an answer that is not 2xx ends the attempt with its status and applies nothing",
        arguments: [(HTTPResponseStatus.notFound, "HTTP 404 Not Found"), (.noContent, "HTTP 204 No Content"), (.badGateway, "HTTP 502 Bad Gateway")]
    )
    func httpRefused(status: HTTPResponseStatus, reason: String) {
        let harness = Harness()
        let reader = harness.httpReader()
        #expect(!reader.head(status: status, contentType: "application/x-ndjson"))
        reader.body(Self.buffer(Self.cycle("photos", seq: 0)))
        #expect(harness.importRuns.isEmpty)
        #expect(harness.record.outcome.reason == reason)
        #expect(harness.health.current != .connected)
    }

    @Test("http: a connection lost before the answer says so")
    func httpLostBeforeHead() {
        let harness = Harness()
        harness.httpReader().failed(nil)
        #expect(harness.record.outcome.reason == "the server closed the connection before answering")
    }
}
