import Foundation
import SyncmonTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `syncmon wrap` running the real rclone, restic and rsync against real servers on loopback,
/// watched by the real daemon through `GET /api/v1/status` (docs/wrap.md).
///
/// The transfers are shaped so that every phase is visible with `--no-progress-after 3s`:
/// 8 MiB/s (the tools' own bandwidth limits), data moving for 4 s before the server is
/// stopped with SIGSTOP, about 1.5 s for the socket buffers to fill, the stall, SIGCONT, and
/// the rest of the 57 MiB. The three transfers run one after another: on a 2-core machine three
/// at once would make the timings, not the code, the thing under test. The other tests move
/// little data and run beside them, on a thread of their own: this suite is the Swift run's
/// longest, and run one by one its tests added 18 s to it.
@Suite("syncmon wrap with the real tools")
struct WrapRealToolTests {
    static let threshold = ["--no-progress-after", "3s"]

    /// The thread these tests run on. Their looks at the daemon are timed against what the tools
    /// do (data moving for longer than the threshold, a server stopped before its transfer is
    /// done); on the cooperative pool, shared with every other suite of the run, a look could
    /// wait seconds for a thread and come after the transfer it was meant to catch.
    static let executor = ThreadExecutor(name: "wrap tests")
    /// The thread of the tests that run beside the transfers.
    static let neighbours = ThreadExecutor(name: "wrap tests beside")

    /// A job one of the tools runs: its command and environment, and the server it talks to.
    struct Job {
        var server: BackgroundProcess
        var command: [String]
        var environment: [String: String] = [:]
    }

    enum Tool: String, CaseIterable, Sendable {
        case rclone, restic, rsync
    }

    /// The export job of `tool` from `source` (a directory in `test`).
    static func job(_ tool: Tool, source: String, in test: TemporaryDirectory) async throws -> Job {
        switch tool {
        case .rclone:
            let (server, url) = try await RealTools.webdav(serving: test.path("webdav"), in: test)
            // --stats 1s: the default 5 s between stats lines would be longer than the 3 s
            // threshold of this test (wrap keeps a --stats the command already has).
            return Job(
                server: server,
                command: [
                    try RealTools.require("rclone"), "sync", source, ":webdav:backup", "--webdav-url", url,
                    "--config", RealTools.emptyConfig(in: test), "--bwlimit", "8M", "--stats", "1s",
                ])
        case .restic:
            let (server, repository) = try await RealTools.resticServer(in: test)
            return Job(
                server: server, command: [try RealTools.require("restic"), "-r", repository, "backup", "--limit-upload", "8192", source],
                environment: RealTools.resticEnvironment(test))
        case .rsync:
            let (server, url) = try await RealTools.rsyncDaemon(in: test)
            return Job(server: server, command: [try RealTools.require("rsync"), "-a", "--bwlimit=8192", source + "/", url])
        }
    }

    /// `syncmon wrap --engine ENGINE --phase export -- COMMAND` against `daemon`.
    static func wrap(
        _ engine: String, _ command: [String], daemon: DaemonProcess, in test: TemporaryDirectory, environment: [String: String] = [:],
        options: [String] = []
    ) throws -> BackgroundProcess {
        try BackgroundProcess(
            SyncmonProcess.binaryPath,
            ["wrap", "--events-socket", daemon.eventsSocket, "--engine", engine, "--phase", "export"] + options + ["--"] + command,
            name: "wrap-\(engine)", in: test, environment: environment
        )
    }

    @Test("no stall while data moves, no_progress while the server is stopped, cleared after SIGCONT, succeeded", .serialized, arguments: Tool.allCases)
    func stopAndContinue(_ tool: Tool) async throws {
        try await withTaskExecutorPreference(Self.executor) {
            let test = try TemporaryDirectory(prefix: "smw")
            defer { test.remove() }
            try RealTools.randomFile(test.path("source/big.bin"), bytes: 56 << 20)
            try RealTools.randomFile(test.path("source/small/one.bin"), bytes: 1 << 20)
            let job = try await Self.job(tool, source: test.path("source"), in: test)
            let daemon = try await DaemonProcess.start(in: test.path, arguments: Self.threshold)
            let engine = "\(tool)-job"
            let key = "\(engine)/private"
            let wrap = try Self.wrap(engine, job.command, daemon: daemon, in: test, environment: job.environment)
            let clock = ContinuousClock()
            func context() -> String {
                "wrap stderr:\n\(wrap.standardError)\nserver stderr:\n\(job.server.standardError)\ndaemon stderr:\n\(daemon.standardError)"
            }

            // The run starts: the export is in progress.
            let running = await daemon.waitForStatus(timeout: .seconds(15)) { phaseState($0, key, "export") == "in_progress" }
            try #require(running.met, "never in progress: \(running.rows)\n\(context())")
            let start = clock.now

            // Data moves for longer than the threshold: never a stall.
            var seen: Set<String> = []
            let moving = try await Polling.holds(for: .seconds(4), interval: .milliseconds(200)) {
                let now = try daemon.status()[key]?["summary"] as? String ?? "?"
                seen.insert(now)
                return now == "in_progress"
            }
            #expect(moving, "while data moved: \(seen)\n\(context())")

            // The server stops: no_progress once the buffers are full and the threshold has passed.
            job.server.signal(SIGSTOP)
            let stopped = clock.now
            let stalled = await daemon.waitForStatus(timeout: .seconds(15)) { stalls($0, key) == ["no_progress"] && summary($0, key) == "stalled" }
            let stallAfter = clock.now - stopped
            #expect(stalled.met, "no stall while the server was stopped: \(stalled.rows[key] ?? [:])\n\(context())")
            #expect(stalled.rows[key]?["up"] as? Bool == true, "heartbeats keep the engine up")
            #expect(
                try await Polling.holds(for: .seconds(1)) { stalls(try daemon.status(), key) == ["no_progress"] }, "the stall holds while the server is stopped"
            )

            // The server continues: the stall clears with the first progress.
            job.server.signal(SIGCONT)
            let continued = clock.now
            let cleared = await daemon.waitForStatus(timeout: .seconds(15)) { stalls($0, key).isEmpty }
            let clearedAfter = clock.now - continued
            #expect(cleared.met, "the stall did not clear: \(cleared.rows[key] ?? [:])\n\(context())")

            // The run ends: succeeded, and it stays so (no engine_down, no stopped).
            let status = await wrap.waitForExit(timeout: .seconds(90))
            #expect(status == 0, "\(context())")
            let done = await daemon.waitForStatus(timeout: .seconds(10)) { summary($0, key) == "succeeded" }
            #expect(done.met, "\(done.rows[key] ?? [:])")
            #expect(phaseState(done.rows, key, "setup") == "not_started")
            let runTime = clock.now - start
            let later = await daemon.waitForStatus(timeout: .seconds(2)) { summary($0, key) != "succeeded" }
            #expect(!later.met, "after the run: \(later.rows[key] ?? [:])")
            let metrics = try daemon.metrics()
            #expect((metrics.value("syncmon_records_sent_total", ["engine": engine, "op": "save"]) ?? 0) >= 1, "files done are records sent")
            print("wrap \(tool): stalled \(stallAfter) after SIGSTOP, cleared \(clearedAfter) after SIGCONT, run \(runTime) from in_progress")
            await job.server.stop()
            await daemon.stop()
        }
    }

    @Test("a wrap killed with SIGKILL mid-run is engine_down at once; the next run is up again")
    func killed() async throws {
        try await withTaskExecutorPreference(Self.neighbours) {
            let test = try TemporaryDirectory(prefix: "smw")
            defer { test.remove() }
            try RealTools.randomFile(test.path("source/big.bin"), bytes: 8 << 20)
            let job = try await Self.job(.rclone, source: test.path("source"), in: test)
            let daemon = try await DaemonProcess.start(in: test.path, arguments: Self.threshold)
            let key = "killed/private"
            let command = job.command.map { $0 == "8M" ? "1M" : $0 }
            let wrap = try Self.wrap("killed", command, daemon: daemon, in: test)
            let running = await daemon.waitForStatus(timeout: .seconds(15)) { phaseState($0, key, "export") == "in_progress" }
            try #require(running.met)
            #expect(try await Polling.holds(for: .seconds(2)) { summary(try daemon.status(), key) == "in_progress" })
            let clock = ContinuousClock()
            let orphans = wrap.descendants()
            let killedAt = clock.now
            kill(wrap.pid, SIGKILL)
            let down = await daemon.waitForStatus(timeout: .seconds(10)) { summary($0, key) == "engine_down" }
            #expect(down.met, "\(down.rows[key] ?? [:])\n\(daemon.standardError)")
            #expect(down.rows[key]?["up"] as? Bool == false)
            print("wrap killed: engine_down \(clock.now - killedAt) after SIGKILL")
            // The orphaned rclone would die at its next write to the closed pipe; do not wait for it.
            for orphan in orphans { kill(orphan, SIGKILL) }

            // The next run of the job is heard from: up, and its outcome is the verdict.
            let next = try Self.wrap("killed", ["true"], daemon: daemon, in: test)
            #expect(await next.waitForExit(timeout: .seconds(15)) == 0)
            let back = await daemon.waitForStatus(timeout: .seconds(10)) { summary($0, key) == "succeeded" }
            #expect(back.met, "\(back.rows[key] ?? [:])")
            await job.server.stop()
            await daemon.stop()
        }
    }

    @Test("exit statuses of real failures: rclone's missing directory, restic's wrong password, rsync's unknown module")
    func failures() async throws {
        try await withTaskExecutorPreference(Self.neighbours) {
            let test = try TemporaryDirectory(prefix: "smw")
            defer { test.remove() }
            try RealTools.randomFile(test.path("source/one.bin"), bytes: 1 << 16)
            let (webdav, webdavURL) = try await RealTools.webdav(serving: test.path("webdav"), in: test)
            let (restServer, repository) = try await RealTools.resticServer(in: test)
            let (rsyncd, module) = try await RealTools.rsyncDaemon(in: test)
            let daemon = try await DaemonProcess.start(in: test.path, arguments: Self.threshold)
            struct Failure {
                var engine: String
                var command: [String]
                var environment: [String: String] = [:]
                var status: Int32
                var code: String
                var errorClass: String
                /// What the tool said, passed on to wrap's output.
                var output: String
            }
            let cases = [
                Failure(
                    engine: "rclone-nodir",
                    command: [
                        try RealTools.require("rclone"), "sync", test.path("missing"), ":webdav:backup", "--webdav-url", webdavURL,
                        "--config", RealTools.emptyConfig(in: test), "--retries", "1",
                    ],
                    status: 3, code: "directoryNotFound", errorClass: "actionable",
                    output: "ERROR : Local file system at \(test.path("missing")): error reading source root directory: directory not found"),
                Failure(
                    engine: "restic-password", command: [try RealTools.require("restic"), "-r", repository, "backup", test.path("source")],
                    environment: RealTools.resticEnvironment(test, password: "wrong"), status: 1, code: "fatal", errorClass: "actionable",
                    output: "Fatal: wrong password or no key found"),
                Failure(
                    engine: "rsync-module",
                    command: [try RealTools.require("rsync"), "-a", test.path("source") + "/", module.replacing("/mod/", with: "/nomodule/")],
                    status: 5, code: "clientServerProtocolError", errorClass: "actionable", output: "@ERROR: Unknown module 'nomodule'"),
            ]
            for failure in cases {
                let wrap = try Self.wrap(failure.engine, failure.command, daemon: daemon, in: test, environment: failure.environment)
                #expect(await wrap.waitForExit(timeout: .seconds(30)) == failure.status, "\(failure.engine): \(wrap.standardError)")
                #expect(wrap.standardError.contains(failure.output), "\(failure.engine) stderr:\n\(wrap.standardError)")
                let key = "\(failure.engine)/private"
                let failed = await daemon.waitForStatus { summary($0, key) == "error" }
                #expect(failed.met, "\(failure.engine): \(failed.rows[key] ?? [:])")
                let export = failed.rows[key]?["export"] as? [String: Any]
                let error = export?["error"] as? [String: Any]
                #expect(export?["state"] as? String == "failed")
                #expect(error?["code"] as? String == failure.code, "\(failure.engine): \(export ?? [:])")
                #expect(error?["class"] as? String == failure.errorClass)
            }
            // rclone's own retries were reported while it ran: attemptFailed, transient.
            let metrics = try daemon.metrics()
            #expect(metrics.value("syncmon_errors_total", ["engine": "rclone-nodir", "phase": "export", "class": "transient", "code": "attemptFailed"]) == 1)
            for server in [webdav, restServer, rsyncd] { await server.stop() }
            await daemon.stop()
        }
    }

    @Test("any other command: exit<N>, signal<NAME>, and its process tree's I/O as progress")
    func otherCommands() async throws {
        try await withTaskExecutorPreference(Self.neighbours) {
            let test = try TemporaryDirectory(prefix: "smw")
            defer { test.remove() }
            let daemon = try await DaemonProcess.start(in: test.path, arguments: Self.threshold)

            let exit2 = try Self.wrap("exits", ["sh", "-c", "exit 2"], daemon: daemon, in: test)
            #expect(await exit2.waitForExit(timeout: .seconds(15)) == 2)
            let signalled = try Self.wrap("signalled", ["sh", "-c", "kill -TERM $$"], daemon: daemon, in: test)
            #expect(await signalled.waitForExit(timeout: .seconds(15)) == 128 + SIGTERM)
            let codes = await daemon.waitForStatus { summary($0, "exits/private") == "error" && summary($0, "signalled/private") == "error" }
            #expect(codes.met, "\(codes.rows)")
            #expect(((codes.rows["exits/private"]?["export"] as? [String: Any])?["error"] as? [String: Any])?["code"] as? String == "exit2")
            #expect(((codes.rows["signalled/private"]?["export"] as? [String: Any])?["error"] as? [String: Any])?["code"] as? String == "signalSIGTERM")

            // 4 MB a second of writes for 5 s, then 5 s of nothing: no stall, then no_progress. The
            // script leaves a marker when it stops writing, and the writing is watched until then:
            // on a loaded machine the looks may come late, and what is checked is what the script
            // did, not how long the test thinks it took.
            let written = test.path("written")
            let script =
                "for i in 1 2 3 4 5 6 7 8 9 10; do head -c 2000000 /dev/zero > \(test.path("scratch")); sleep 0.5; done; touch \(written); sleep 5"
            let writer = try Self.wrap("writer", ["sh", "-c", script], daemon: daemon, in: test)
            let key = "writer/private"
            try #require(await daemon.waitForStatus(timeout: .seconds(15)) { phaseState($0, key, "export") == "in_progress" }.met)
            var seen: Set<String> = []
            var stalledWhileWriting = false
            let stoppedWriting = try await Polling.until(timeout: .seconds(30), interval: .milliseconds(200)) {
                let now = summary(try daemon.status(), key) ?? "?"
                // Looked at after the status: no marker yet means the script was writing when the
                // daemon answered.
                let done = FileManager.default.fileExists(atPath: written)
                seen.insert(now)
                stalledWhileWriting = stalledWhileWriting || (now != "in_progress" && !done)
                return done || stalledWhileWriting
            }
            #expect(stoppedWriting && !stalledWhileWriting, "while writing: \(seen)")
            let quiet = await daemon.waitForStatus(timeout: .seconds(10)) { stalls($0, key) == ["no_progress"] }
            #expect(quiet.met, "\(quiet.rows[key] ?? [:])")
            #expect(await writer.waitForExit(timeout: .seconds(20)) == 0)
            #expect(await daemon.waitForStatus { summary($0, key) == "succeeded" }.met)
            await daemon.stop()
        }
    }
}

/// A row's summary.
func summary(_ rows: [String: [String: Any]], _ key: String) -> String? {
    rows[key]?["summary"] as? String
}

/// A row's stall reasons.
func stalls(_ rows: [String: [String: Any]], _ key: String) -> [String] {
    rows[key]?["stalled"] as? [String] ?? []
}

/// The state of one phase of a row.
func phaseState(_ rows: [String: [String: Any]], _ key: String, _ phase: String) -> String? {
    (rows[key]?[phase] as? [String: Any])?["state"] as? String
}
