import Foundation
import SyncmonTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// SIGHUP re-reads the configuration file (docs/operations.md#systemd): RELOADING=1 … READY=1, new thresholds at once.
@Suite("Configuration reload", .serialized)
struct ReloadTests {
    func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Sends SIGHUP and waits for RELOADING=1 and then READY=1 after it.
    func reload(_ daemon: DaemonProcess) async -> Bool {
        let before = daemon.notify.datagrams.count
        daemon.signal(SIGHUP)
        return await Polling.until {
            let since = Array(daemon.notify.datagrams.dropFirst(before))
            guard let reloading = since.firstIndex(where: { $0.contains("RELOADING=1") }) else { return false }
            return since[(reloading + 1)...].contains { $0.contains("READY=1") }
        }
    }

    @Test("a shortened threshold takes effect after SIGHUP, globally and per engine")
    func thresholdChange() async throws {
        let directory = try TemporaryDirectory(prefix: "smd")
        defer { directory.remove() }
        let config = directory.path("syncmon.conf")
        try self.write("not-syncing-after = 1h\n", to: config)
        let daemon = try await DaemonProcess.start(in: directory.path, arguments: ["--config", config])

        // One connection, kept open: engines that sent engineStarted are tied to it.
        let connection = try daemon.connect()
        for engine in ["global", "special"] {
            try connection.write(lines: [
                EventLine.make(engine, "engineStarted"),
                EventLine.make(engine, "accountStatus", ["status": "available"]),
            ])
        }
        #expect(await daemon.waitForStatus { $0.count == 2 }.met)
        // Under the 1 h threshold nothing stalls (observed for a second, well past the 1 s used below).
        let early = await daemon.waitForStatus(timeout: .milliseconds(1_100)) { rows in rows.values.contains { $0["summary"] as? String == "stalled" } }
        #expect(!early.met, "rows: \(early.rows)")

        // Only the engine "special" gets a 1 s threshold.
        try self.write("not-syncing-after = 1h\n\n[engine special]\nnot-syncing-after = 1s\n", to: config)
        #expect(await self.reload(daemon), "datagrams: \(daemon.notify.datagrams)")
        let special = await daemon.waitForStatus(timeout: .seconds(5)) { summary($0, "special/private") == "stalled" }
        #expect(special.met, "rows: \(special.rows)")
        #expect(summary(special.rows, "global/private") == "not_started")
        #expect((special.rows["special/private"]?["stalled"] as? [String]) == ["not_syncing"])

        // Then the global threshold: every engine.
        try self.write("not-syncing-after = 1s\n", to: config)
        #expect(await self.reload(daemon), "datagrams: \(daemon.notify.datagrams)")
        let all = await daemon.waitForStatus(timeout: .seconds(5)) { summary($0, "global/private") == "stalled" }
        #expect(all.met, "rows: \(all.rows)")
        // STATUS= follows.
        #expect(await daemon.notify.waitFor { $0.value(of: "STATUS") == "2 engines: 2 stalled" } != nil, "\(daemon.notify.datagrams)")
        #expect(daemon.standardError.contains("configuration reloaded"))
        #expect(await daemon.stop() == .exited(0))
        connection.close()
    }

    @Test("a broken file on reload keeps the running configuration")
    func brokenReload() async throws {
        let directory = try TemporaryDirectory(prefix: "smd")
        defer { directory.remove() }
        let config = directory.path("syncmon.conf")
        try self.write("not-syncing-after = 1s\n", to: config)
        let daemon = try await DaemonProcess.start(in: directory.path, arguments: ["--config", config])

        try self.write("not-syncing-after = 1h\nthis is = not a setting\n", to: config)
        #expect(await self.reload(daemon), "datagrams: \(daemon.notify.datagrams)")
        #expect(daemon.isRunning)
        #expect(await Polling.until { daemon.standardError.contains("configuration reload failed") }, "\(daemon.standardError)")
        #expect(daemon.standardError.contains("line 2"))

        // The 1 s threshold still applies.
        let connection = try daemon.connect()
        try connection.write(lines: [
            EventLine.make("notes", "engineStarted"),
            EventLine.make("notes", "accountStatus", ["status": "available"]),
        ])
        let stalled = await daemon.waitForStatus(timeout: .seconds(5)) { summary($0, "notes/private") == "stalled" }
        #expect(stalled.met, "rows: \(stalled.rows)")
        #expect(await daemon.stop() == .exited(0))
        connection.close()
    }

    @Test("a broken file at start is a configuration error (exit 78) naming the line")
    func brokenAtStart() async throws {
        let directory = try TemporaryDirectory(prefix: "smd")
        defer { directory.remove() }
        let config = directory.path("syncmon.conf")
        try self.write("# ok\nnot-syncing-after = soon\n", to: config)
        let daemon = try await DaemonProcess.start(in: directory.path, arguments: ["--config", config], waitForReady: false)
        #expect(await daemon.waitForExit() == .exited(78))
        #expect(daemon.standardError.contains("line 2"), "\(daemon.standardError)")
        #expect(!daemon.notify.datagrams.contains { $0.contains("READY=1") })
    }

    @Test("a reload that changes log-level changes the running log's level")
    func logLevelChange() async throws {
        let directory = try TemporaryDirectory(prefix: "smd")
        defer { directory.remove() }
        let config = directory.path("syncmon.conf")
        try self.write("log-level = info\n", to: config)
        let daemon = try await DaemonProcess.start(in: directory.path, arguments: ["--config", config])

        // A push connection's peer is logged at debug when it opens: not at info.
        let quiet = try daemon.connect()
        try quiet.write(lines: [EventLine.make("quiet", "engineStarted")])
        #expect(await daemon.waitForStatus { $0["quiet/private"] != nil }.met)
        #expect(!daemon.standardError.contains("opened by"), "\(daemon.standardError)")

        try self.write("log-level = debug\n", to: config)
        #expect(await self.reload(daemon), "datagrams: \(daemon.notify.datagrams)")
        #expect(await Polling.until { daemon.standardError.contains("configuration reloaded") })
        #expect(!daemon.standardError.contains("take a restart"), "\(daemon.standardError)")
        let loud = try daemon.connect()
        try loud.write(lines: [EventLine.make("loud", "engineStarted")])
        #expect(await Polling.until { daemon.standardError.contains("opened by") }, "\(daemon.standardError)")

        // And back: the entry of a third connection is not written.
        try self.write("log-level = warning\n", to: config)
        #expect(await self.reload(daemon))
        let before = daemon.standardError.components(separatedBy: "opened by").count
        let third = try daemon.connect()
        try third.write(lines: [EventLine.make("third", "engineStarted")])
        #expect(await daemon.waitForStatus { $0["third/private"] != nil }.met)
        #expect(daemon.standardError.components(separatedBy: "opened by").count == before, "\(daemon.standardError)")
        #expect(await daemon.stop() == .exited(0))
        for connection in [quiet, loud, third] { connection.close() }
    }

    @Test("a reload names the changed settings that take a restart, and only those")
    func restartNamed() async throws {
        let directory = try TemporaryDirectory(prefix: "smd")
        defer { directory.remove() }
        let config = directory.path("syncmon.conf")
        try self.write("max-engines = 10\n", to: config)
        let daemon = try await DaemonProcess.start(in: directory.path, arguments: ["--config", config])
        try self.write("max-engines = 20\nmax-connections = 9\nsubscribe = file:/tmp/none.jsonl\nlog-level = notice\n", to: config)
        #expect(await self.reload(daemon))
        #expect(
            await Polling.until { daemon.standardError.contains("configuration reloaded; changes to subscribe, max-connections take a restart") },
            "\(daemon.standardError)")
        #expect(await daemon.stop() == .exited(0))
    }

    @Test("a typo in the file at start exits 78, naming the file, the line and the likely key")
    func typoAtStart() async throws {
        let directory = try TemporaryDirectory(prefix: "smd")
        defer { directory.remove() }
        let config = directory.path("syncmon.conf")
        try self.write("# ok\nno-progres-after = 5m\n", to: config)
        let daemon = try await DaemonProcess.start(in: directory.path, arguments: ["--config", config], waitForReady: false)
        #expect(await daemon.waitForExit() == .exited(78))
        #expect(
            daemon.standardError.contains("\(config): line 2: unknown setting no-progres-after (did you mean no-progress-after?)"),
            "\(daemon.standardError)")
    }

    @Test("a bad flag value exits 64 with the accepted forms, before any file is read")
    func badFlagValue() async throws {
        let directory = try TemporaryDirectory(prefix: "smd")
        defer { directory.remove() }
        let daemon = try await DaemonProcess.start(
            in: directory.path, arguments: ["--config", directory.path("absent.conf"), "--no-progress-after", "5 minutes"], waitForReady: false)
        #expect(await daemon.waitForExit() == .exited(64))
        #expect(daemon.standardError.contains(#"--no-progress-after: "5 minutes" is not a duration; write"#), "\(daemon.standardError)")
        #expect(!daemon.standardError.contains("absent.conf"))
    }
}
