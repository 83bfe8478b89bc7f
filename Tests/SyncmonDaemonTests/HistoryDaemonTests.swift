import Foundation
import SyncmonCore
import SyncmonSockets
import SyncmonTestSupport
import Testing

/// Each pair's history of health changes with the real binaries (docs/operations.md#history):
/// events sent by `syncmon emit`, read from `GET /api/v1/history` and `syncmon status
/// --history`, kept across a restart that adds no change, removed by `syncmon forget`.
@Suite("History across a daemon restart", .serialized)
struct HistoryDaemonTests {
    static func syncmon(_ arguments: [String]) async throws -> ExternalCommand.Result {
        try await ExternalCommand.run(SyncmonProcess.binaryPath, arguments)
    }

    /// `syncmon emit` for `notes`, as a shell script would send it.
    static func emit(_ daemon: DaemonProcess, _ arguments: [String]) async throws {
        let result = try await self.syncmon(["emit", "--events-socket", daemon.eventsSocket, "--engine", "notes"] + arguments)
        #expect(result.status == 0, "\(result.errors)")
    }

    /// An export cycle that ended a second ago, failed with quotaExceeded or succeeded.
    static func exportCycle(id: String, failed: Bool) -> [String] {
        let now = Timestamp(microseconds: Int64(Date().timeIntervalSince1970 * 1_000_000))
        var arguments = [
            "containerEvent", "kind=export", "id=\(id)", "started=\(RFC3339.format(now.adding(.seconds(Int64(-2)))))",
            "ended=\(RFC3339.format(now.adding(.seconds(Int64(-1)))))", "succeeded=\(!failed)",
        ]
        if failed { arguments += ["error.code=quotaExceeded", "error.message=Storage full"] }
        return arguments
    }

    /// `/api/v1/history` read with the same reader `syncmon status --history` uses.
    static func history(_ daemon: DaemonProcess, query: String = "") throws -> HistoryDocument {
        let response = try daemon.get("/api/v1/history" + query)
        guard response.status == 200 else { throw TestSupportError("history answered \(response.status): \(response.text)") }
        return try JSONDecoder().decode(HistoryDocument.self, from: Data(response.text.utf8))
    }

    /// `notes/private`'s changes as `from → to`.
    static func moves(_ document: HistoryDocument) -> [String] {
        (document.pairs.first { $0.key.description == "notes/private" }?.changes ?? []).map { "\($0.from?.description ?? "new") → \($0.to)" }
    }

    @Test("a failure and a recovery are recorded, served, printed, kept across a restart that adds nothing, and forgotten")
    func historyAcrossRestart() async throws {
        let directory = try TemporaryDirectory(prefix: "smhi")
        defer { directory.remove() }
        let first = try await DaemonProcess.start(in: directory.path)
        try await Self.emit(first, ["engineStarted"])
        try await Self.emit(first, Self.exportCycle(id: "a", failed: true))
        try await Self.emit(first, Self.exportCycle(id: "b", failed: false))
        let expected = ["new → not_started", "not_started → error", "error → succeeded"]
        let recorded = await Polling.until { (try? Self.moves(Self.history(first))) == expected }
        let before = try Self.history(first)
        #expect(recorded, "\(Self.moves(before))")
        let failure = try #require(before.pairs.first?.changes.dropFirst().first)
        #expect(failure.phase == .export && failure.code == "quotaExceeded" && failure.message == "Storage full", "\(failure)")
        let raw = try first.get("/api/v1/history?engine=notes&database=private").jsonObject()
        let firstChange = ((raw["pairs"] as? [[String: Any]])?.first?["changes"] as? [[String: Any]])?.first
        #expect(firstChange?["from"] is NSNull, "\(raw)")
        let badSince = try first.get("/api/v1/history?since=yesterday")
        #expect(badSince.status == 400, "\(badSince.text)")

        let printed = try await Self.syncmon(["status", "--history", "--url", first.url])
        #expect(printed.status == 0, "\(printed.errors)")
        let lines = printed.output.split(separator: "\n")
        #expect(lines.count == 3, "\(printed.output)")
        #expect(lines.dropFirst().first?.hasSuffix("notes/private  not_started → error  export: quotaExceeded — Storage full") == true, "\(printed.output)")
        #expect(lines.last?.hasSuffix("notes/private  error → succeeded") == true, "\(printed.output)")
        #expect(await first.stop() == .exited(0))
        let saved = String(decoding: FileManager.default.contents(atPath: first.stateDirectory + "/state.json") ?? Data(), as: UTF8.self)
        #expect(saved.contains(#""history":["#), "\(saved)")

        let second = try await DaemonProcess.start(in: directory.path)
        // The restart is no change: the same history at every look while the daemon settles
        // (its first evaluation, its first save).
        #expect(try Self.history(second).pairs == before.pairs)
        #expect(await Polling.holds(for: .seconds(2)) { (try? Self.history(second).pairs) == before.pairs })
        let json = try await Self.syncmon(["status", "--history", "--json", "--since", "1h", "--url", second.url])
        #expect(json.status == 0, "\(json.errors)")
        #expect(Self.moves(try JSONDecoder().decode(HistoryDocument.self, from: Data(json.output.utf8))) == expected, "\(json.output)")
        let other = try await Self.syncmon(["status", "--history", "--engine", "other", "--url", second.url])
        #expect(other.status == 0 && other.output == "No engine named other is tracked.\n", "\(other.output)\(other.errors)")

        // `--url host:port`, as `syncmon status` takes it.
        let forgotten = try await Self.syncmon(["forget", "--events-socket", second.eventsSocket, "--url", "127.0.0.1:\(second.port)", "--engine", "notes"])
        #expect(forgotten.status == 0 && forgotten.output.contains("forgot notes/private"), "\(forgotten.output)\(forgotten.errors)")
        #expect(try Self.history(second).pairs.isEmpty)
        try await Self.emit(second, ["engineStarted"])
        #expect(await Polling.until { (try? Self.moves(Self.history(second))) == ["new → not_started"] })
        #expect(await second.stop() == .exited(0))
    }

    @Test("a backlog sent an hour late is judged at its own times: no stall between a start and its end")
    func lateBacklog() async throws {
        let directory = try TemporaryDirectory(prefix: "smlb")
        defer { directory.remove() }
        let daemon = try await DaemonProcess.start(in: directory.path)
        // Five fetch-and-send cycles of a second each, an hour ago (a client's queue after a
        // reconnect): judged when they came, each start was an hour-long no_progress stall.
        let hourAgo = Timestamp(microseconds: Int64(Date().timeIntervalSince1970 * 1_000_000)).adding(.seconds(Int64(-3600)))
        let types = ["willFetchChanges", "didFetchChanges", "willSendChanges", "didSendChanges"]
        let lines = (0..<20).map { index in
            let time = RFC3339.format(hourAgo.adding(.seconds(Int64(index))))
            return #"{"v":1,"engine":"notes","database":"private","time":"\#(time)","type":"\#(types[index % 4])","reason":"scheduled"}"#
        }
        // A line a read, each taken in before the next is written: the looks at the daemon's
        // time fall between the backlog's pieces, as they do when a client's queue goes out.
        let connection = try daemon.connect()
        for (index, line) in lines.enumerated() {
            try connection.write(lines: [line])
            let received = await Polling.until { (try? daemon.metrics().value("syncmon_events_received_total", ["transport": "push"])) == Double(index + 1) }
            #expect(received, "line \(index + 1) not taken in")
        }
        connection.close()
        let (settled, rows) = await daemon.waitForStatus { $0["notes/private"]?["summary"] as? String == "succeeded" }
        #expect(settled, "\(rows)")
        // The looks at the daemon's time follow the backlog; none of them finds a stall either.
        let quiet = await Polling.holds(for: .seconds(2)) { (try? Self.moves(Self.history(daemon))) == ["new → in_progress"] }
        #expect(quiet, "\((try? Self.moves(Self.history(daemon))) ?? [])")
        #expect(await daemon.stop() == .exited(0))
    }

    @Test("an unreachable daemon is exit 3 with the reason on stderr")
    func unreachable() async throws {
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let port = refusing.port
        let result = try await ExternalCommand.run(SyncmonProcess.binaryPath, ["status", "--history", "--url", "127.0.0.1:\(port)"])
        #expect(result.status == 3)
        #expect(result.errors.contains("cannot reach the daemon"), "\(result.errors)")
        #expect(result.output.isEmpty)
    }
}
