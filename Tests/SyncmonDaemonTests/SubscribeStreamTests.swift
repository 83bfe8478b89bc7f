import Foundation
import SyncmonTestSupport
import Testing

/// `--subscribe` with real peers: SSE and NDJSON HTTP servers that drop the connection every few
/// events, and a Unix-socket engine (docs/protocol.md#transports). Counted through `/metrics`: every event exactly once.
@Suite("Subscribe: HTTP and Unix-socket sources")
struct SubscribeStreamTests {
    /// `fetchedRecordZoneChanges` with one modification: each one adds 1 to `syncmon_records_fetched_total`.
    static func fetchedLine(_ engine: String, seq: Int? = nil) -> String {
        var fields: [String: Any] = ["modifications": 1, "deletions": 0]
        if let seq { fields["seq"] = seq }
        return EventLine.make(engine, "fetchedRecordZoneChanges", fields)
    }

    static func fetched(_ daemon: DaemonProcess, _ engine: String) -> Double? {
        try? daemon.metrics().value("syncmon_records_fetched_total", ["engine": engine, "change": "modification"])
    }

    static func received(_ daemon: DaemonProcess) -> Double? {
        try? daemon.metrics().value("syncmon_events_received_total", ["transport": "subscribe"])
    }

    /// Waits until the engine's fetched count and the subscribe received count are `count`, then
    /// checks they stay there (nothing arrives twice later).
    static func expectExactly(
        _ count: Int, _ daemon: DaemonProcess, _ engine: String, received: Int? = nil, within timeout: Duration = .seconds(15),
        fileID: String = #fileID, filePath: String = #filePath,
        sourceLine: Int = #line, column: Int = #column
    ) async {
        let sourceLocation = SourceLocation(fileID: fileID, filePath: filePath, line: sourceLine, column: column)
        let expectedReceived = Double(received ?? count)
        let reached = await Polling.until(timeout: timeout) {
            Self.fetched(daemon, engine) == Double(count) && Self.received(daemon) == expectedReceived
        }
        #expect(
            reached, "fetched \(String(describing: Self.fetched(daemon, engine))), received \(String(describing: Self.received(daemon))), want \(count)",
            sourceLocation: sourceLocation)
        let stays = await Polling.holds(for: .milliseconds(400)) {
            Self.fetched(daemon, engine) == Double(count) && Self.received(daemon) == expectedReceived
        }
        #expect(stays, "later: fetched \(String(describing: Self.fetched(daemon, engine))), want \(count)", sourceLocation: sourceLocation)
    }

    @Test("an SSE engine that drops its connection every 3 events is resumed with Last-Event-ID and counted exactly once")
    func sseDropsAndResumes() async throws {
        let engine = uniqueEngine("sse")
        let total = 20
        let lines = (0..<total).map { _ in Self.fetchedLine(engine) }  // no seq: only the resume prevents double counting
        let server = try StreamTestServer.tcp { connection in
            guard let request = try? connection.readRequest() else { return }
            let start = Int(request.headers["last-event-id"] ?? "0") ?? 0
            connection.writeStreamingHead(contentType: "text/event-stream; charset=utf-8")
            // A short retry keeps the test fast; comments are keepalives.
            connection.write("retry: 150\n: hello\n\n")
            let end = min(start + 3, total)
            for index in start..<end {
                let line = lines[index]
                if index % 4 == 1, let comma = line.firstIndex(of: ",") {
                    // One event as multi-line data.
                    connection.write("id: \(index + 1)\ndata: \(line[..<comma]),\ndata: \(line[line.index(after: comma)...])\r\n\r\n")
                } else {
                    connection.write("id: \(index + 1)\ndata: \(line)\n\n")
                }
            }
            if end < total {
                // Cut the next event off mid-way: it must not count, and is sent again after the resume.
                connection.write("id: \(end + 1)\ndata: {\"v\":1,")
                return
            }
            connection.hold()
        }
        defer { server.stop() }
        try await withDaemon(arguments: ["--subscribe", "sse=\(server.baseURL)/events"]) { daemon, _ in
            await Self.expectExactly(total, daemon, engine)
            let ids = server.requests.map { $0.headers["last-event-id"] ?? "-" }
            #expect(ids == ["-", "3", "6", "9", "12", "15", "18"])
            #expect(server.requests.allSatisfy { $0.path == "/events" && $0.headers["accept"]?.contains("text/event-stream") == true })
            let metrics = try daemon.metrics()
            #expect(metrics.value("syncmon_source_up", ["source": "sse"]) == 1)
            #expect(metrics.value("syncmon_source_reconnects_total", ["source": "sse"]) == 6)
            let rows = try daemon.status()
            #expect(phaseState(rows, "\(engine)/private", "import") == "in_progress")
            #expect(daemon.standardError.contains("sse: subscribe source connected"))
        }
    }

    @Test("an SSE engine that ignores Last-Event-ID and replays from the start is still counted once")
    func sseReplayIgnored() async throws {
        let engine = uniqueEngine("ssr")
        let total = 10
        let lines = (0..<total).map { _ in Self.fetchedLine(engine) }
        let server = try StreamTestServer.tcp { connection in
            guard (try? connection.readRequest()) != nil else { return }
            let served = min(4 * connection.server.connectionCount, total)
            connection.writeStreamingHead(contentType: "text/event-stream")
            connection.write("retry: 150\n\n")
            for index in 0..<served { connection.write("id: e\(index)\ndata: \(lines[index])\n\n") }
            if served < total { return }
            connection.hold()
        }
        defer { server.stop() }
        try await withDaemon(arguments: ["--subscribe", "replay=\(server.baseURL)/"]) { daemon, _ in
            await Self.expectExactly(total, daemon, engine)
            #expect(server.requests.map { $0.headers["last-event-id"] ?? "-" } == ["-", "e3", "e7"])
        }
    }

    @Test("an NDJSON engine is resumed with ?since=<highest seq>; overlapping replays are dropped by seq")
    func ndjsonSince() async throws {
        let engine = uniqueEngine("nd")
        let total = 12
        let server = try StreamTestServer.tcp { connection in
            guard let request = try? connection.readRequest() else { return }
            let since = Int(request.query["since"] ?? "0") ?? 0
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n")
            // Inclusive of `since` on purpose: the repeated event carries its seq and is dropped.
            let first = max(since, 1)
            let last = min(first + 4, total)
            for seq in first...last {
                let line = Self.fetchedLine(engine, seq: seq) + "\n"
                connection.write(String(line.utf8.count, radix: 16) + "\r\n" + line + "\r\n")
            }
            if last < total {
                connection.write("0\r\n\r\n")  // a clean end of the response
                connection.hold()  // the daemon closes and comes back with ?since=
                return
            }
            connection.hold()
        }
        defer { server.stop() }
        try await withDaemon(arguments: ["--subscribe", "\(server.baseURL)/stream?format=ndjson"]) { daemon, directory in
            // 12 events, but the overlap makes the server send 14 lines: received counts lines.
            await Self.expectExactly(total, daemon, engine, received: 14)
            #expect(server.requests.map { $0.query["since"] ?? "-" } == ["-", "5", "9"])
            #expect(server.requests.allSatisfy { $0.query["format"] == "ndjson" })
            let metrics = try daemon.metrics()
            #expect(metrics.value("syncmon_source_up", ["source": "http-stream"]) == 1)
            // The resume point is kept in the state directory.
            let saved = await Polling.until(timeout: .seconds(5)) {
                (try? String(contentsOfFile: daemon.stateDirectory + "/sources/http-stream.resume", encoding: .utf8))?.contains("\"since\":12") == true
            }
            #expect(saved)
            _ = directory
        }
    }

    @Test("a Unix-socket engine is followed across its restarts; a broken source affects nobody")
    func unixEngine() async throws {
        let directory = try TemporaryDirectory(prefix: "sms")
        defer { directory.remove() }
        let engine = uniqueEngine("ux")
        let socketPath = directory.path("engine.sock")
        let daemon = try await DaemonProcess.start(
            in: directory.path,
            arguments: [
                "--subscribe", "engine=unix:\(socketPath)",
                "--subscribe", "broken=unix:\(directory.path)/missing/none.sock",
                "--subscribe", "http://127.0.0.1:1/refused",
            ]
        )
        do {
            // The engine is not there yet: its source is down.
            let down = await Polling.until(timeout: .seconds(5)) {
                (try? daemon.metrics().value("syncmon_source_up", ["source": "engine"])) == 0
                    && daemon.standardError.contains("engine: subscribe source disconnected")
            }
            #expect(down)

            func serve(_ range: Range<Int>) throws -> StreamTestServer {
                try StreamTestServer.unix(path: socketPath) { connection in
                    for seq in range { connection.write(Self.fetchedLine(engine, seq: seq) + "\n") }
                    connection.hold()
                }
            }
            var server = try serve(1..<6)
            // The source has been failing since the start, so its next try may be up to the
            // backoff's cap (30 s and jitter) away on a busy machine.
            await Self.expectExactly(5, daemon, engine, within: .seconds(45))
            #expect((try daemon.metrics()).value("syncmon_source_up", ["source": "engine"]) == 1)

            // The engine restarts: the source goes down, comes back, and the new lines count.
            server.stop()
            let lost = await Polling.until(timeout: .seconds(5)) {
                (try? daemon.metrics().value("syncmon_source_up", ["source": "engine"])) == 0
            }
            #expect(lost)
            server = try serve(6..<9)
            defer { server.stop() }
            await Self.expectExactly(8, daemon, engine, within: .seconds(45))

            let metrics = try daemon.metrics()
            #expect(metrics.value("syncmon_source_up", ["source": "engine"]) == 1)
            #expect((metrics.value("syncmon_source_reconnects_total", ["source": "engine"]) ?? 0) >= 2)
            #expect(metrics.value("syncmon_source_up", ["source": "broken"]) == 0)
            #expect(metrics.value("syncmon_source_up", ["source": "http-refused"]) == 0)
            #expect((metrics.value("syncmon_source_reconnects_total", ["source": "broken"]) ?? 0) >= 1)

            // The push socket works as ever next to the broken sources.
            let pushed = uniqueEngine("push")
            try daemon.send(lines: [EventLine.make(pushed, "willFetchChanges")])
            let (met, rows) = await daemon.waitForStatus { phaseState($0, "\(pushed)/private", "import") == "in_progress" }
            #expect(met, "rows: \(rows)")

            // One state-change entry per change, not one per failed retry.
            let log = daemon.standardError
            let brokenEntries = log.components(separatedBy: "broken: subscribe source disconnected").count - 1
            #expect(brokenEntries == 1, "\(log)")
            #expect(await daemon.stop() == .exited(0))
        } catch {
            await daemon.kill()
            throw TestSupportError("\(error)\n--- daemon stderr ---\n\(daemon.standardError)")
        }
    }

    @Test("a bad --subscribe is a usage error (exit 64)")
    func badSubscribe() async throws {
        let result = try await SyncmonProcess.run(["daemon", "--subscribe", "ftp://host/x", "--log-target", "stderr"])
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.contains("unsupported source"))
    }
}
