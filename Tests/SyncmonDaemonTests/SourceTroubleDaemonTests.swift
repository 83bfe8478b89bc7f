import Foundation
import SyncmonTestSupport
import Testing

/// A source the daemon cannot read shows in the status from its first failed try
/// (docs/subscribe.md#sources-in-the-status), on the real binary: in `/api/v1/status`, after the
/// table of `syncmon status` with its last error, in the Nagios line, and in the exit status
/// (critical). And a Syncthing that refuses after a daemon restart makes the folders restored
/// from the state file `engine_down` at once (docs/syncthing.md#when-syncthing-is-unreachable).
@Suite("Sources in trouble, on the real daemon", .serialized)
struct SourceTroubleDaemonTests {
    /// The daemon's `sources` array.
    static func sources(_ daemon: DaemonProcess) throws -> [[String: Any]] {
        try daemon.get("/api/v1/status").jsonObject()["sources"] as? [[String: Any]] ?? []
    }

    /// A Syncthing API that answers every request with 403, as Syncthing 1.19 answers a wrong key.
    static func forbidding(_ connection: StreamTestServer.Connection) {
        while (try? connection.readRequest()) != nil {
            connection.write("HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n\r\nCSRF Error\n")
        }
    }

    @Test(
        "a Syncthing source that never connected: its error in the status, critical, from the first failed try",
        arguments: [
            ("refused", "connection refused at http://127.0.0.1:"),
            ("forbidden", "/rest/system/status: 403 (CSRF Error) — is the API key right?"),
        ])
    func neverConnected(answer: String, error: String) async throws {
        let directory = try TemporaryDirectory(prefix: "smst")
        defer { directory.remove() }
        try "wrong-key\n".write(toFile: directory.path("st"), atomically: true, encoding: .utf8)
        // Nothing listens at a refusing port; the server answers 403 to everything.
        let server = answer == "forbidden" ? try StreamTestServer.tcp { Self.forbidding($0) } : nil
        defer { server?.stop() }
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let url = server?.baseURL ?? refusing.url
        try await withDaemon(arguments: ["--subscribe", "st=syncthing+\(url)"], environment: ["CREDENTIALS_DIRECTORY": directory.path]) { daemon, _ in
            let failing = try await Polling.until(timeout: .seconds(5)) {
                try Self.sources(daemon).first?["state"] as? String == "disconnected"
            }
            let source = try #require(try Self.sources(daemon).first)
            #expect(failing, "\(source)")
            #expect(source["name"] as? String == "st" && source["kind"] as? String == "syncthing", "\(source)")
            #expect((source["lastError"] as? String)?.contains(error) == true, "\(source)")
            #expect(source["since"] is String, "\(source)")

            let table = try await SyncmonProcess.run(["status", "--url", daemon.url])
            #expect(table.status == 2, "\(table.standardOutput)\(table.standardError)")
            let lines = table.standardOutput.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasPrefix("No engines tracked") == true, "\(table.standardOutput)")
            #expect(lines.contains { $0.hasPrefix("SOURCE") && $0.contains("LAST ERROR") }, "\(table.standardOutput)")
            #expect(lines.contains { $0.hasPrefix("st ") && $0.contains("syncthing") && $0.contains(error) }, "\(table.standardOutput)")

            let nagios = try await SyncmonProcess.run(["status", "--url", daemon.url, "--format", "nagios"])
            #expect(nagios.status == 2)
            #expect(nagios.standardOutput.hasPrefix("SYNCMON CRITICAL - source st not connected ("), "\(nagios.standardOutput)")
            #expect(nagios.standardOutput.contains("; no engines tracked | ok=0"), "\(nagios.standardOutput)")
        }
    }

    @Test("sources that connected are listed, add nothing to the exit status, and print no block")
    func connectedSource() async throws {
        let directory = try TemporaryDirectory(prefix: "smst")
        defer { directory.remove() }
        let path = directory.path("events.jsonl")
        try (EventLine.make("filed", "willFetchChanges") + "\n" + EventLine.make("filed", "didFetchChanges") + "\n").write(
            toFile: path, atomically: true, encoding: .utf8)
        try await withDaemon(arguments: ["--subscribe", "log=file:\(path)", "--from-start"]) { daemon, _ in
            let ready = try await Polling.until(timeout: .seconds(5)) {
                try Self.sources(daemon).first?["state"] as? String == "connected" && summary(daemon.status(), "filed/private") == "succeeded"
            }
            let sources = try Self.sources(daemon)
            #expect(ready, "\(sources)")
            let source = try #require(try Self.sources(daemon).first)
            #expect(source["kind"] as? String == "file" && source["lastError"] is NSNull, "\(source)")
            let table = try await SyncmonProcess.run(["status", "--url", daemon.url])
            #expect(table.status == 0, "\(table.standardOutput)")
            #expect(!table.standardOutput.contains("SOURCE"), "\(table.standardOutput)")
        }
    }

    @Test("a Syncthing that refuses after a daemon restart: its restored folders are engine_down at once, not after ~70 s")
    func refusedAfterRestart() async throws {
        let directory = try TemporaryDirectory(prefix: "smst")
        defer { directory.remove() }
        try "test-key\n".write(toFile: directory.path("st"), atomically: true, encoding: .utf8)
        let server = try StreamTestServer.tcp { SourceUpTests.answerAsSyncthing($0, answers: Self.deviceWithFolder) }
        let arguments = ["--subscribe", "st=syncthing+\(server.baseURL)"]
        let environment = ["CREDENTIALS_DIRECTORY": directory.path]
        let first = try await DaemonProcess.start(in: directory.path, arguments: arguments, environment: environment)
        let synced = await first.waitForStatus { summary($0, "st/shared") == "succeeded" }
        #expect(synced.met, "\(synced.rows)\n\(first.standardError)")
        #expect(await first.stop() == .exited(0))
        server.stop()

        let second = try await DaemonProcess.start(in: directory.path, arguments: arguments, environment: environment)
        let down = await second.waitForStatus(timeout: .seconds(5)) { summary($0, "st/shared") == "engine_down" }
        #expect(down.met, "\(down.rows)\n\(second.standardError)")
        #expect(try Self.sources(second).first?["state"] as? String == "disconnected")
        await second.stop()
    }

    /// Syncthing 1.19's answers for a device sharing folder `shared` with one connected peer, in
    /// sync.
    static let deviceWithFolder = [
        "/rest/system/status": #"{"myID":"LOCAL","startTime":"2026-11-26T10:00:00Z","uptime":5}"#,
        "/rest/system/connections": #"{"connections":{"PEER":{"connected":true,"paused":false}},"total":{}}"#,
        "/rest/config": #"""
        {"folders":[{"id":"shared","label":"shared","type":"sendreceive","paused":false,"devices":[{"deviceID":"LOCAL"},{"deviceID":"PEER"}]}],
         "devices":[{"deviceID":"LOCAL","paused":false},{"deviceID":"PEER","paused":false}]}
        """#,
        "/rest/db/status": #"{"state":"idle","needTotalItems":0,"errors":0,"pullErrors":0}"#,
        "/rest/folder/errors": #"{"folder":"shared","errors":[]}"#,
        "/rest/db/completion": #"{"completion":100,"needItems":0,"needBytes":0,"needDeletes":0}"#,
    ]
}
