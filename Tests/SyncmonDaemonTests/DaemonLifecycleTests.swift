import Foundation
import SyncmonSockets
import SyncmonTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The daemon's life under systemd's eyes: READY=1, STATUS=, STOPPING=1 (docs/operations.md#systemd).
@Suite("Daemon lifecycle", .serialized)
struct DaemonLifecycleTests {
    @Test("READY=1 arrives once both listeners are bound, with a STATUS= line")
    func ready() async throws {
        let directory = try TemporaryDirectory(prefix: "smd")
        defer { directory.remove() }
        let daemon = try await DaemonProcess.start(in: directory.path, waitForReady: false)
        // Poll the notify socket only: the listeners are checked the moment READY=1 is seen.
        let ready = try #require(await daemon.notify.waitFor("READY=1", timeout: .seconds(20)), "no READY=1; stderr:\n\(daemon.standardError)")
        let health = try daemon.get("/healthz")
        #expect(health.status == 200)
        let writer = try daemon.connect()
        writer.close()
        // The very first datagram is READY=1 with the initial status, nothing before it.
        #expect(daemon.notify.datagrams.first?.text == ready.text)
        #expect(ready.value(of: "STATUS") == "no engines yet")
        #expect(await daemon.stop() == .exited(0))
    }

    @Test("STATUS= follows the engines' summaries")
    func statusLine() async throws {
        try await withDaemon(arguments: ["--not-syncing-after", "1s"]) { daemon, _ in
            // Engines that sent engineStarted are tied to their connection: keep it open.
            let notes = try daemon.connect()
            try notes.write(lines: [
                EventLine.make("notes", "engineStarted"),
                EventLine.make("notes", "willFetchChanges"),
                EventLine.make("notes", "didFetchChanges"),
            ])
            let ok = await daemon.notify.waitFor { $0.value(of: "STATUS") == "1 engine: 1 ok" }
            #expect(ok != nil, "STATUS datagrams: \(daemon.notify.datagrams)")

            // A second engine whose setup succeeded but never imports stalls after 1 s.
            let photos = try daemon.connect()
            try photos.write(lines: [
                EventLine.make("photos", "engineStarted"),
                EventLine.make("photos", "accountStatus", ["status": "available"]),
            ])
            let stalled = await daemon.notify.waitFor { $0.value(of: "STATUS") == "2 engines: 1 ok, 1 stalled" }
            #expect(stalled != nil, "STATUS datagrams: \(daemon.notify.datagrams)")
            // STATUS= is only sent when it changes.
            let statuses = daemon.notify.datagrams.compactMap { $0.value(of: "STATUS") }
            for (previous, next) in zip(statuses, statuses.dropFirst()) { #expect(previous != next, "repeated STATUS=\(next)") }
            notes.close()
            photos.close()
        }
    }

    @Test("SIGTERM: STOPPING=1, exit 0, the socket removed and the state written")
    func sigterm() async throws {
        let directory = try TemporaryDirectory(prefix: "smd")
        defer { directory.remove() }
        let daemon = try await DaemonProcess.start(in: directory.path)
        #expect(FileManager.default.fileExists(atPath: daemon.eventsSocket))
        // The state is saved on the way out, even within the first persist interval.
        let connection = try daemon.connect()
        try connection.write(lines: [EventLine.make("notes", "engineStarted"), EventLine.make("notes", "willSendChanges")])
        #expect(await daemon.waitForStatus { summary($0, "notes/private") == "in_progress" }.met)
        let beforeStop = daemon.notify.datagrams.count
        #expect(await daemon.stop() == .exited(0), "stderr:\n\(daemon.standardError)")
        let stopping = daemon.notify.datagrams.dropFirst(beforeStop).first { $0.contains("STOPPING=1") }
        #expect(stopping != nil, "datagrams: \(daemon.notify.datagrams)")
        #expect(!FileManager.default.fileExists(atPath: daemon.eventsSocket))
        let state = try Data(contentsOf: URL(fileURLWithPath: daemon.stateDirectory + "/state.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: state) as? [String: Any])
        let pairs = try #require(document["pairs"] as? [[String: Any]])
        #expect(pairs.map { $0["engine"] as? String } == ["notes"])
        #expect(!FileManager.default.fileExists(atPath: daemon.stateDirectory + "/state.json.tmp"))
        connection.close()
    }

    @Test("SIGINT stops cleanly too")
    func sigint() async throws {
        let directory = try TemporaryDirectory(prefix: "smd")
        defer { directory.remove() }
        let daemon = try await DaemonProcess.start(in: directory.path)
        daemon.signal(SIGINT)
        #expect(await daemon.waitForExit() == .exited(0))
        #expect(daemon.notify.datagrams.contains { $0.contains("STOPPING=1") })
        #expect(!FileManager.default.fileExists(atPath: daemon.eventsSocket))
    }

    @Test("a port already in use is a clear startup failure: exit 1, no READY=1, no hang")
    func portInUse() async throws {
        try await withDaemon { first, _ in
            let directory = try TemporaryDirectory(prefix: "smd")
            defer { directory.remove() }
            let second = try await DaemonProcess.start(in: directory.path, port: first.port, waitForReady: false)
            let exit = await second.waitForExit(timeout: .seconds(10))
            #expect(exit == .exited(1), "stderr:\n\(second.standardError)")
            #expect(
                second.standardError.contains(
                    "cannot listen on 127.0.0.1:\(first.port): address already in use (another syncmon or exporter? choose another with --listen)"),
                "\(second.standardError)")
            #expect(!second.standardError.contains("errno"), "\(second.standardError)")
            #expect(!second.notify.datagrams.contains { $0.contains("READY=1") })
            // The half-started daemon cleaned up its push socket.
            #expect(!FileManager.default.fileExists(atPath: second.eventsSocket))
            // The first daemon is unaffected.
            #expect(try first.get("/healthz").status == 200)
        }
    }
}
