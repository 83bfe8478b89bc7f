import Foundation
import SyncmonTestSupport
import Testing

/// `syncmon forget` against the real daemon (docs/operations.md#forgetting-an-engine): the pairs
/// leave the status, /metrics and the state file; an engine not tracked is exit 0 and said so.
@Suite("syncmon forget", .serialized)
struct ForgetDaemonTests {
    static func forget(_ daemon: DaemonProcess, _ arguments: [String]) async throws -> ExternalCommand.Result {
        try await ExternalCommand.run(
            SyncmonProcess.binaryPath, ["forget", "--events-socket", daemon.eventsSocket, "--url", daemon.url] + arguments)
    }

    @Test("forget removes an engine's pairs from status, /metrics and the state; it comes back when it speaks")
    func forgetsEngine() async throws {
        let directory = try TemporaryDirectory(prefix: "smfg")
        defer { directory.remove() }
        let daemon = try await DaemonProcess.start(in: directory.path)
        let connection = try daemon.connect()
        try connection.write(lines: [
            EventLine.make("old", "engineStarted"), EventLine.make("old", "engineStarted", ["database": "shared"]),
            EventLine.make("keep", "willFetchChanges"),
        ])
        connection.close()
        #expect(await daemon.waitForStatus { summary($0, "old/private") == "engine_down" && summary($0, "keep/private") != nil }.met)

        let forgotten = try await Self.forget(daemon, ["--engine", "old"])
        #expect(forgotten.status == 0, "\(forgotten.errors)")
        #expect(forgotten.output.contains("forgot old/private, old/shared"), "\(forgotten.output)")
        #expect(Set(try daemon.status().keys) == ["keep/private"])
        #expect(try daemon.metrics().samples("syncmon_status", ["engine": "old"]).isEmpty)

        let nothing = try await Self.forget(daemon, ["--engine", "never-seen"])
        #expect(nothing.status == 0)
        #expect(nothing.output.contains("not tracked"), "\(nothing.output)")

        try daemon.send(lines: [EventLine.make("old", "heartbeat")])
        #expect(await daemon.waitForStatus { summary($0, "old/private") != nil && summary($0, "old/private") != "engine_down" }.met)
        #expect(await daemon.stop() == .exited(0))
        let saved = String(decoding: FileManager.default.contents(atPath: daemon.stateDirectory + "/state.json") ?? Data(), as: UTF8.self)
        #expect(saved.contains(#""engine":"keep""#) && !saved.contains(#""database":"shared""#), "\(saved)")
    }
}
