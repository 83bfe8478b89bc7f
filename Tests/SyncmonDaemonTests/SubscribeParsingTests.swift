import Logging
import SyncmonContractTesting
import SyncmonCore
import SyncmonExposition
import SyncmonTestSupport
import Testing

@testable import SyncmonDaemon
@testable import SyncmonSources

/// The pure parts of subscribe sources: the SSE parser, the backoff schedule, source naming
/// and the resume target.
@Suite("Subscribe: parsing, backoff, naming")
struct SubscribeParsingTests {
    // MARK: SSE

    /// Feeds `chunks` and collects what the parser produced.
    func parse(_ chunks: [String], maximum: Int = 65_536, lastEventID: String = "") -> (outputs: [ServerSentEventParser.Output], parser: ServerSentEventParser)
    {
        var parser = ServerSentEventParser(maximumDataLength: maximum, lastEventID: lastEventID)
        var outputs: [ServerSentEventParser.Output] = []
        for chunk in chunks {
            Array(chunk.utf8).withUnsafeBytes { bytes in parser.feed(bytes) { outputs.append($0) } }
        }
        return (outputs, parser)
    }

    func events(_ outputs: [ServerSentEventParser.Output]) -> [ServerSentEventParser.Event] {
        outputs.compactMap { if case .event(let event) = $0 { event } else { nil } }
    }

    @Test("data lines are joined with \\n; id, event and comments are handled")
    func basicEvents() {
        let (outputs, parser) = parse([
            ": a comment\n",
            "id: 1\nevent: sync\ndata: {\"a\":1,\ndata:\"b\":2}\n\n",
            "data: second\n\n",
        ])
        let events = self.events(outputs)
        #expect(events.count == 2)
        #expect(events[0].type == "sync")
        #expect(events[0].text == "{\"a\":1,\n\"b\":2}")
        #expect(events[0].id == "1")
        #expect(events[1].type == "message")
        #expect(events[1].text == "second")
        // The id carries over to the next event, which has none of its own.
        #expect(events[1].id == nil)
        #expect(events[1].lastEventID == "1")
        #expect(parser.lastEventID == "1")
    }

    @Test("CRLF, CR and LF line ends, split anywhere across chunks, and a leading BOM")
    func lineEndsAndChunks() {
        let stream = "\u{FEFF}id: a\r\ndata: x\r\n\r\nid: b\rdata: y\r\rid: c\ndata: z\n\n"
        let whole = self.events(parse([stream]).outputs)
        #expect(whole.map(\.text) == ["x", "y", "z"])
        #expect(whole.map(\.id) == ["a", "b", "c"])
        // Byte by byte gives the same (the BOM and "\r\n" split across chunks included).
        var parser = ServerSentEventParser()
        var outputs: [ServerSentEventParser.Output] = []
        for byte in Array(stream.utf8) {
            [byte].withUnsafeBytes { bytes in parser.feed(bytes) { outputs.append($0) } }
        }
        #expect(self.events(outputs) == whole)
    }

    @Test("one leading space is removed; a field without a colon has an empty value")
    func fieldValues() {
        let events = self.events(parse(["data:  two spaces\ndata\n\n"]).outputs)
        #expect(events.map(\.text) == [" two spaces\n"])
    }

    @Test("retry is reported; an id with NUL is ignored; an empty id resets")
    func retryAndIDs() {
        let (outputs, parser) = parse(["retry: 2500\nretry: x1\nid: 7\ndata: a\n\nid: 8\u{0}\ndata: b\n\n"])
        #expect(outputs.first == .retry(2500))
        #expect(outputs.filter { if case .retry = $0 { true } else { false } }.count == 1)
        #expect(self.events(outputs).map(\.lastEventID) == ["7", "7"])
        #expect(parser.lastEventID == "7")
        let reset = parse(["id: 9\ndata: a\n\nid\ndata: b\n\n"])
        #expect(reset.parser.lastEventID == "")
    }

    @Test("an event without data is not dispatched, but its id counts")
    func idOnlyEvent() {
        let (outputs, parser) = parse(["id: 42\n\n", ": keepalive\n\n"])
        #expect(outputs.isEmpty)
        #expect(parser.lastEventID == "42")
    }

    @Test("an event cut off before its blank line is dropped and does not move the last event ID")
    func incompleteEvent() {
        var (outputs, parser) = parse(["id: 1\ndata: a\n\nid: 2\ndata: b\n"], lastEventID: "")
        #expect(self.events(outputs).map(\.text) == ["a"])
        #expect(parser.lastEventID == "1")
        parser.finish()
        #expect(parser.lastEventID == "1")
        outputs = []
        Array("\n".utf8).withUnsafeBytes { bytes in parser.feed(bytes) { outputs.append($0) } }
        #expect(outputs.isEmpty)
    }

    @Test("the resume ID carries into a new connection's parser")
    func carriedID() {
        let (outputs, parser) = parse(["data: a\n\n"], lastEventID: "17")
        #expect(self.events(outputs).first?.lastEventID == "17")
        #expect(parser.lastEventID == "17")
    }

    @Test("data over the limit is dispatched as too large without being kept")
    func tooLarge() {
        let big = String(repeating: "x", count: 200)
        let events = self.events(parse(["data: \(big)\n\ndata: \(big.prefix(50))\ndata: \(big.prefix(60))\n\ndata: ok\n\n"], maximum: 100).outputs)
        #expect(events.map(\.isTooLarge) == [true, true, false])
        #expect(events[0].data.isEmpty)
        #expect(events[2].text == "ok")
    }

    /// Found by fuzzing (docs/fuzzing.md): an over-long line was taken for data by its first
    /// four bytes when it came in one piece (`data…` without the colon) and by its field name
    /// when it came in several, so the same stream gave a different number of events.
    @Test("an over-long line is data only as data:, however the chunks split it", arguments: [1, 2, 3, 5, 7, 1000])
    func overLongLinesAnyChunking(chunkSize: Int) {
        let long = String(repeating: "x", count: 100)  // over the 8 + 64 bytes a line may hold
        let stream = "data\u{C6}\u{DF}id\":\(long)\n\ndata:\(long)\n\nda\(long)\n\nevent: x\(long)\ndata: ok\n\n"
        let bytes = Array(stream.utf8)
        var parser = ServerSentEventParser(maximumDataLength: 8)
        var outputs: [ServerSentEventParser.Output] = []
        // Chunks cut anywhere, inside a UTF-8 sequence too.
        for start in stride(from: 0, to: bytes.count, by: chunkSize) {
            Array(bytes[start..<min(start + chunkSize, bytes.count)]).withUnsafeBytes { parser.feed($0) { outputs.append($0) } }
        }
        let events = self.events(outputs)
        #expect(events.map(\.isTooLarge) == [true, false])
        #expect(events.last?.text == "ok")
    }

    // MARK: Backoff

    @Test("backoff doubles from 0.5 s to a 30 s cap, within ±20 %, and resets")
    func backoffSchedule() {
        var backoff = ReconnectBackoff.standard
        let bases = (0..<9).map { backoff.baseDelay(afterFailures: $0) }
        #expect(bases == [0.5, 1, 2, 4, 8, 16, 30, 30, 30])
        #expect(backoff.baseDelay(afterFailures: 10_000) == 30)
        var random = SystemRandomNumberGenerator()
        for expected in bases {
            let delay = backoff.nextDelay(using: &random)
            #expect(delay >= expected * 0.8 && delay <= expected * 1.2, "\(delay) vs \(expected)")
        }
        #expect(backoff.failures == 9)
        backoff.reset()
        let first = backoff.nextDelay(using: &random)
        #expect(first >= 0.4 && first <= 0.6)
    }

    @Test("jitter spreads delays rather than repeating one value")
    func jitterSpreads() {
        var random = SystemRandomNumberGenerator()
        var delays = Set<Double>()
        for _ in 0..<20 {
            var backoff = ReconnectBackoff.standard
            delays.insert(backoff.nextDelay(using: &random))
        }
        #expect(delays.count > 10)
    }

    // MARK: Naming

    @Test("sources are named NAME=URL, or derived from the scheme and last path component")
    func naming() throws {
        let specs = try SourceSpec.parseAll([
            "notes=unix:/run/notes/events.sock",
            "unix:/run/photos/events.sock",
            "unix:/run/mail/events.sock",
            "http://127.0.0.1:8080/v1/events?x=1",
            "http://example.org",
            "http://[::1]:9000/",
            "file:///var/log/notes/events.jsonl",
            "file:/var/log/odd name+é.jsonl",
        ])
        #expect(
            specs.map(\.name) == [
                "notes", "unix-events.sock", "unix-events.sock-2", "http-events", "http-example.org", "http-__1_9000",
                "file-events.jsonl", "file-odd_name__.jsonl",
            ])
        #expect(specs[0].endpoint == .unix(path: "/run/notes/events.sock"))
        #expect(specs[3].endpoint == .http(host: "127.0.0.1", port: 8080, target: "/v1/events?x=1"))
        #expect(specs[4].endpoint == .http(host: "example.org", port: 80, target: "/"))
        #expect(specs[5].endpoint == .http(host: "::1", port: 9000, target: "/"))
        #expect(specs[6].endpoint == .file(path: "/var/log/notes/events.jsonl"))
        for spec in specs { #expect(SourceSpec.isValidName(spec.name), "\(spec.name)") }
    }

    @Test("derived names step aside for explicit ones; the same configuration gives the same names")
    func namingStable() throws {
        let entries = ["unix:/a/events.sock", "unix-events.sock=unix:/b/x.sock", "unix:/c/events.sock"]
        let first = try SourceSpec.parseAll(entries).map(\.name)
        #expect(first == ["unix-events.sock-2", "unix-events.sock", "unix-events.sock-3"])
        #expect(try SourceSpec.parseAll(entries).map(\.name) == first)
        // A URL whose query holds '=' is not mistaken for NAME=URL.
        #expect(try SourceSpec.parse("http://h:1/s?since=3").name == "http-s")
    }

    @Test("Syncthing sources: syncthing+http(s)://HOST[:PORT], named syncthing unless named")
    func syncthingSources() throws {
        let specs = try SourceSpec.parseAll([
            "a=syncthing+http://127.0.0.1:8384",
            "syncthing+https://[::1]:8443/",
            "b=syncthing+http://localhost",
            "syncthing+http://10.0.0.2:8384",
        ])
        #expect(specs.map(\.name) == ["a", "syncthing", "b", "syncthing-2"])
        #expect(specs[0].endpoint == .syncthing(host: "127.0.0.1", port: 8384, secure: false))
        #expect(specs[1].endpoint == .syncthing(host: "::1", port: 8443, secure: true))
        #expect(specs[2].endpoint == .syncthing(host: "localhost", port: 8384, secure: false))
        for entry in ["syncthing+ftp://h", "syncthing+http://h:1/rest/events", "syncthing+http://key@h:1", "syncthing+http://:1"] {
            #expect(throws: SourceSpec.ParseError.self, "\(entry)") { try SourceSpec.parse(entry) }
        }
    }

    @Test("a Syncthing API key comes from the credential directory first, then api-key-file, else a clear error")
    func syncthingCredential() throws {
        let settings = SourceSettings(apiKeyFile: "/etc/syncmon/a.key")
        let both = try SyncthingCredential.locate(source: "a", settings: settings, credentialsDirectory: "/run/credentials/syncmon.service") { _ in true }
        #expect(both.path == "/run/credentials/syncmon.service/a")
        let noCredential = try SyncthingCredential.locate(source: "a", settings: settings, credentialsDirectory: "/run/credentials/syncmon.service") { _ in
            false
        }
        #expect(noCredential.path == "/etc/syncmon/a.key")
        let fileOnly = try SyncthingCredential.locate(source: "a", settings: settings, credentialsDirectory: nil) { _ in true }
        #expect(fileOnly.path == "/etc/syncmon/a.key")
        let missing = #expect(throws: SyncthingCredential.Missing.self) {
            try SyncthingCredential.locate(source: "a", settings: nil, credentialsDirectory: nil) { _ in false }
        }
        #expect(missing?.description.contains("LoadCredential=a:") == true)
    }

    @Test("bad sources are configuration errors")
    func badSources() {
        for entry in [
            "ftp://host/x", "https://host/x", "unix:relative.sock", "file:relative.jsonl", "http://:80/x", "http://h:99999/x",
            "http://user@h/x", "file:/var/log/", "unix:/" + String(repeating: "d", count: 120),
        ] {
            #expect(throws: SourceSpec.ParseError.self, "\(entry)") { try SourceSpec.parse(entry) }
        }
        #expect(throws: SourceSpec.ParseError.self) { try SourceSpec.parseAll(["a=unix:/x", "a=unix:/y"]) }
        // An invalid name is not a name: "bad name=unix:/x" is read as one (unsupported) URL.
        #expect(throws: SourceSpec.ParseError.self) { try SourceSpec.parse("bad name=unix:/x") }
    }

    // MARK: Resume

    @Test("?since= replaces an existing since and keeps other parameters")
    func sinceTarget() {
        #expect(StreamResume.target("/events", since: 5) == "/events?since=5")
        #expect(StreamResume.target("/events?since=1&x=2", since: 9) == "/events?x=2&since=9")
        let resume = StreamResume()
        #expect(resume.requestTarget(for: "/s") == "/s")
        resume.setKind(.ndjson)
        resume.advance(lastEventID: nil, highestSequence: 12)
        #expect(resume.requestTarget(for: "/s") == "/s?since=12")
        #expect(resume.lastEventIDHeader == nil)
        // SSE with ids resumes by Last-Event-ID alone; SSE without ids falls back to since.
        resume.setKind(.sse)
        #expect(resume.requestTarget(for: "/s") == "/s?since=12")
        resume.advance(lastEventID: "e12", highestSequence: nil)
        #expect(resume.requestTarget(for: "/s") == "/s")
        #expect(resume.lastEventIDHeader == "e12")
    }

    @Test("recent ids forget the oldest first")
    func recentIDs() {
        var recent = RecentIDs(limit: 3)
        for id in ["a", "b", "c", "d"] { recent.insert(id) }
        #expect(!recent.contains("a"))
        #expect(recent.contains("b") && recent.contains("c") && recent.contains("d"))
        recent.insert("d")
        recent.insert("e")
        #expect(!recent.contains("b") && recent.contains("e"))
    }

    // MARK: Metrics

    @Test("every configured source has its syncmon_source_up and reconnects series, labelled with its name")
    func sourceSeries() throws {
        let registry = SourceRegistry(
            sources: [("notes", "http"), ("file-events.jsonl", "file")], clock: ManualClock(now: at(0)), logger: Logger(label: "test"))
        var renderer = MetricsRenderer(version: "1", revision: "r")
        renderer.sources = registry
        func metrics() throws -> MetricsText {
            let bytes = renderer.render(
                monitor: Monitor(configuration: MonitorConfiguration()),
                received: [0, 0],
                process: ProcessMetrics(),
                format: .prometheusText,
                now: Timestamp(microseconds: 1_000_000)
            )
            return try MetricsText(String(decoding: bytes, as: UTF8.self))
        }
        var text = try metrics()
        #expect(text.value("syncmon_source_up", ["source": "notes"]) == 0)
        #expect(text.value("syncmon_source_up", ["source": "file-events.jsonl"]) == 0)
        #expect(text.value("syncmon_source_reconnects_total", ["source": "notes"]) == 0)

        let notes = try #require(registry.health(named: "notes"))
        notes.connected("test")
        notes.disconnected("gone", retryIn: 0.5)
        notes.countReconnect()
        notes.connected("test")
        text = try metrics()
        #expect(text.value("syncmon_source_up", ["source": "notes"]) == 1)
        #expect(text.value("syncmon_source_reconnects_total", ["source": "notes"]) == 1)
        #expect(text.value("syncmon_source_up", ["source": "file-events.jsonl"]) == 0)
        #expect(text.types["syncmon_source_reconnects_total"] == "counter")
    }
}
