import Foundation
import Logging
import SyncmonContractTesting
import SyncmonSystemd
import SyncmonTestSupport
import Testing

@testable import SyncmonDaemon
@testable import SyncmonSources

/// `syncmon_source_up` is 1 from a source's first answer, for every kind of source, and not only
/// after a reconnect (docs/metrics.md): a healthy source must never trip `SyncmonSourceDown`.
/// Each peer is a real local listener or file that answers from the start.
@Suite("Subscribe: source_up from the first answer")
struct SourceUpTests {
    /// Waits until the source is up, then checks that it never needed a reconnect.
    static func expectUpAtOnce(_ daemon: DaemonProcess, source: String, sourceLocation: SourceLocation = #_sourceLocation) async {
        let up = await Polling.until(timeout: .seconds(15)) {
            (try? daemon.metrics().value("syncmon_source_up", ["source": source])) == 1
        }
        #expect(up, "syncmon_source_up{source=\"\(source)\"} stayed 0; stderr:\n\(daemon.standardError)", sourceLocation: sourceLocation)
        let reconnects = try? daemon.metrics().value("syncmon_source_reconnects_total", ["source": source])
        #expect(reconnects == 0, "reconnects: \(String(describing: reconnects))", sourceLocation: sourceLocation)
        #expect(daemon.standardError.contains("\(source): subscribe source connected"), sourceLocation: sourceLocation)
        #expect(!daemon.standardError.contains("\(source): subscribe source disconnected"), sourceLocation: sourceLocation)
    }

    @Test("unix: an engine already listening")
    func unix() async throws {
        let directory = try TemporaryDirectory(prefix: "sup")
        defer { directory.remove() }
        let socket = directory.path("engine.sock")
        let engine = try StreamTestServer.unix(path: socket) { connection in
            connection.write(EventLine.make("ux", "heartbeat") + "\n")
            connection.hold()
        }
        defer { engine.stop() }
        try await withDaemon(arguments: ["--subscribe", "engine=unix:\(socket)"]) { daemon, _ in
            await Self.expectUpAtOnce(daemon, source: "engine")
        }
    }

    @Test("http: an NDJSON stream that answers and then stays quiet")
    func http() async throws {
        let server = try StreamTestServer.tcp { connection in
            guard (try? connection.readRequest()) != nil else { return }
            connection.writeStreamingHead(contentType: "application/x-ndjson")
            connection.hold()
        }
        defer { server.stop() }
        try await withDaemon(arguments: ["--subscribe", "quiet=\(server.baseURL)/events"]) { daemon, _ in
            await Self.expectUpAtOnce(daemon, source: "quiet")
        }
    }

    @Test("file: a file that exists")
    func file() async throws {
        let directory = try TemporaryDirectory(prefix: "sup")
        defer { directory.remove() }
        let path = directory.path("events.jsonl")
        try Data().write(to: URL(fileURLWithPath: path))
        try await withDaemon(arguments: ["--subscribe", "log=file:\(path)"]) { daemon, _ in
            await Self.expectUpAtOnce(daemon, source: "log")
        }
    }

    @Test("syncthing: a Syncthing REST API that answers at once")
    func syncthing() async throws {
        let directory = try TemporaryDirectory(prefix: "sup")
        defer { directory.remove() }
        try "test-key\n".write(toFile: directory.path("st"), atomically: true, encoding: .utf8)
        let server = try StreamTestServer.tcp { connection in Self.answerAsSyncthing(connection) }
        defer { server.stop() }
        try await withDaemon(
            arguments: ["--subscribe", "st=syncthing+\(server.baseURL)"],
            environment: ["CREDENTIALS_DIRECTORY": directory.path]
        ) { daemon, _ in
            await Self.expectUpAtOnce(daemon, source: "st")
            #expect(server.requests.allSatisfy { $0.headers["x-api-key"] == "test-key" })
        }
    }

    @Test("a source that keeps failing logs once per reason: a new reason (a wrong API key after a refusal) is logged")
    func reasonChanges() throws {
        let recorder = RecordingLogHandler.Storage()
        let registry = SourceRegistry(
            sources: [("st", "syncthing")], clock: ManualClock(now: at(0)), logger: Logger(label: "test") { _ in RecordingLogHandler(storage: recorder) })
        let health = try #require(registry.health(named: "st"))
        for reason in ["connection refused", "connection refused", "connection refused", "403: is the API key right?", "403: is the API key right?"] {
            health.disconnected(reason, retryIn: 1)
        }
        health.connected("http://127.0.0.1:8384")
        health.connected("http://127.0.0.1:8384")
        // As a person reads them on a terminal: the message constant, the source, where and why
        // from the metadata.
        let logged = recorder.entries.filter { $0.level >= .notice }.map { entry in
            TerminalLogFormatter.line(
                time: LogTime(microsecondsSinceEpoch: 0), level: entry.level, message: entry.message, metadata: entry.metadata.mapValues { .string($0) }
            )
            .split(separator: " ", maxSplits: 1).last.map(String.init) ?? ""
        }
        #expect(
            logged == [
                "warning st: subscribe source disconnected; retrying (connection refused)",
                "warning st: subscribe source disconnected; retrying (403: is the API key right?)",
                "notice st: subscribe source connected (http://127.0.0.1:8384)",
            ])
        #expect(recorder.entries.filter { $0.level >= .notice }.map { $0.metadata["syncmon.retry_seconds"] } == ["1.0", "1.0", nil])
    }

    /// Syncthing 1.19's answers for a device with no folder.
    static let deviceWithoutFolders = [
        "/rest/system/status": #"{"myID":"LOCAL","startTime":"2026-11-26T10:00:00Z","uptime":5}"#,
        "/rest/system/connections": #"{"connections":{},"total":{}}"#,
        "/rest/config": #"{"folders":[],"devices":[{"deviceID":"LOCAL","paused":false}]}"#,
    ]

    /// Answers as Syncthing on one keep-alive connection: each path from `answers`, the first
    /// event poll empty and the long-poll after it held open, as Syncthing does while nothing
    /// happens; anything else 404.
    static func answerAsSyncthing(_ connection: StreamTestServer.Connection, answers: [String: String] = deviceWithoutFolders) {
        while let request = try? connection.readRequest() {
            let body: String
            switch request.path {
            case "/rest/events" where request.query["limit"] == "1": body = "[]"
            case "/rest/events":
                connection.hold()
                return
            default:
                guard let answer = answers[request.path] else {
                    connection.write("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
                    continue
                }
                body = answer
            }
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        }
    }
}
