import Foundation
import SyncmonSockets
import SyncmonTestSupport
import Testing

@testable import SyncmonDaemon

#if canImport(Glibc)
import Glibc
#endif

/// One daemon per events socket and per state directory (docs/operations.md, "One daemon per
/// socket"): a second one exits 73 naming what is taken and by whom, and the first keeps
/// hearing its engines.
@Suite("One daemon per socket and state directory", .serialized)
struct OneDaemonTests {
    /// `syncmon emit` to `socket`, then waits for the pair to show in `daemon`'s status.
    static func expectHears(_ daemon: DaemonProcess, socket: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let engine = uniqueEngine("heard")
        let emitted = try await SyncmonProcess.run(["emit", "--events-socket", socket, "--engine", engine, "willFetchChanges"])
        #expect(emitted.status == 0, "emit: \(emitted.standardError)", sourceLocation: sourceLocation)
        let (met, rows) = await daemon.waitForStatus { phaseState($0, "\(engine)/private", "import") == "in_progress" }
        #expect(met, "the first daemon did not get the event; rows: \(rows)", sourceLocation: sourceLocation)
    }

    @Test("a second daemon on a live socket exits 73 naming the socket and the first's pid; the first still hears engines")
    func liveSocket() async throws {
        try await withDaemon { first, _ in
            let other = try TemporaryDirectory(prefix: "smd")
            defer { other.remove() }
            // Its own state directory and port: only the socket is shared.
            let second = try await DaemonProcess.start(in: other.path, arguments: ["--events-socket", first.eventsSocket], waitForReady: false)
            let exit = await second.waitForExit()
            #expect(exit == .exited(73), "stderr:\n\(second.standardError)")
            #expect(second.standardError.contains("the events socket \(first.eventsSocket) is in use"), "\(second.standardError)")
            #expect(second.standardError.contains("(pid \(first.pid))"), "\(second.standardError)")
            #expect(!second.standardError.contains("errno"), "\(second.standardError)")
            #expect(!second.notify.datagrams.contains { $0.contains("READY=1") })
            #expect(FileManager.default.fileExists(atPath: first.eventsSocket))
            try await Self.expectHears(first, socket: first.eventsSocket)
        }
    }

    @Test("a second daemon on a held state directory exits 73 naming the directory and the first's pid")
    func heldStateDirectory() async throws {
        try await withDaemon { first, _ in
            let other = try TemporaryDirectory(prefix: "smd")
            defer { other.remove() }
            let second = try await DaemonProcess.start(in: other.path, arguments: ["--state-dir", first.stateDirectory], waitForReady: false)
            let exit = await second.waitForExit()
            #expect(exit == .exited(73), "stderr:\n\(second.standardError)")
            #expect(second.standardError.contains("the state directory \(first.stateDirectory) is in use"), "\(second.standardError)")
            #expect(second.standardError.contains("(pid \(first.pid))"), "\(second.standardError)")
            // It never bound its own socket either.
            #expect(!FileManager.default.fileExists(atPath: second.eventsSocket))
            let lock = try String(contentsOfFile: first.stateDirectory + "/lock", encoding: .utf8)
            #expect(lock == "\(first.pid)\n")
            try await Self.expectHears(first, socket: first.eventsSocket)
        }
    }

    @Test("a daemon killed with SIGKILL leaves a stale socket and a lock that frees itself: the next one starts")
    func afterSigkill() async throws {
        let directory = try TemporaryDirectory(prefix: "smd")
        defer { directory.remove() }
        let first = try await DaemonProcess.start(in: directory.path)
        #expect(await first.kill() == .signalled(SIGKILL))
        // What the killed daemon left behind: the socket file, nobody listening.
        #expect(FileManager.default.fileExists(atPath: first.eventsSocket))
        let second = try await DaemonProcess.start(in: directory.path)
        try await Self.expectHears(second, socket: second.eventsSocket)
        #expect(try String(contentsOfFile: second.stateDirectory + "/lock", encoding: .utf8) == "\(second.pid)\n")
        #expect(await second.stop() == .exited(0))
        // At a clean stop the daemon removes its own socket.
        #expect(!FileManager.default.fileExists(atPath: second.eventsSocket))
    }

    @Test("a daemon leaves a socket that is no longer its own where it is")
    func replacedSocketStays() async throws {
        try await withDaemon { daemon, directory in
            // Someone moved the socket away and put another in its place.
            try FileManager.default.moveItem(atPath: daemon.eventsSocket, toPath: directory.path("moved.sock"))
            let stranger = try StreamTestServer.unix(path: daemon.eventsSocket) { $0.hold() }
            defer { stranger.stop() }
            #expect(await daemon.stop() == .exited(0))
            #expect(FileManager.default.fileExists(atPath: daemon.eventsSocket))
        }
    }

    @Test("the probe: nothing there, a stale file, a live listener with its pid, a full backlog, a file that is not a socket")
    func probe() throws {
        let directory = try TemporaryDirectory(prefix: "smp")
        defer { directory.remove() }
        let path = directory.path("events.sock")
        #expect(EventsSocket.probe(path) == .stale)
        try BlockingSocket.listen(on: .unix(path: path)).close()
        #expect(EventsSocket.probe(path) == .stale)
        let listener = try BlockingSocket.listen(on: .unix(path: path), backlog: 1)
        #expect(EventsSocket.probe(path) == .listening(pid: getpid()))
        // Fill the backlog (nobody accepts): the probe must answer at once, not wait.
        var pending: [BlockingSocket] = []
        while pending.count < 64, let connection = try? BlockingSocket.connect(to: .unix(path: path), timeout: .milliseconds(50)) {
            pending.append(connection)
        }
        let start = ContinuousClock.now
        #expect(EventsSocket.probe(path) == .listening(pid: nil))
        #expect(ContinuousClock.now - start < .seconds(1))
        listener.close()
        let file = directory.path("file")
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        #expect(throws: DaemonError.self) { try EventsSocket.claim(file) }
        #expect((try? String(contentsOfFile: file, encoding: .utf8)) == "x", "a file that is not a socket is never removed")
    }

    /// Which files two daemons started at once share.
    enum Shared: String, CaseIterable {
        case socketAndStateDirectory, socketOnly, stateDirectoryOnly
    }

    @Test("two daemons started at the same instant: one wins, the other exits 73", arguments: Shared.allCases)
    func race(shared: Shared) async throws {
        let base = try TemporaryDirectory(prefix: "smd")
        defer { base.remove() }
        let socket = base.path("events.sock")
        let state = base.path("state")
        var daemons: [DaemonProcess] = []
        for index in 0..<2 {
            let own = base.path("d\(index)")
            try FileManager.default.createDirectory(atPath: own, withIntermediateDirectories: true)
            var arguments: [String] = []
            if shared != .stateDirectoryOnly { arguments += ["--events-socket", socket] }
            if shared != .socketOnly { arguments += ["--state-dir", state] }
            daemons.append(try await DaemonProcess.start(in: own, arguments: arguments, waitForReady: false))
        }
        defer { for daemon in daemons { daemon.signal(SIGKILL) } }
        // Each either becomes ready or exits; exactly one of each.
        let settled = await Polling.until(timeout: .seconds(30)) {
            daemons.allSatisfy { daemon in !daemon.isRunning || daemon.notify.datagrams.contains { $0.contains("READY=1") } }
        }
        #expect(settled)
        let running = daemons.filter(\.isRunning)
        let exited = daemons.filter { !$0.isRunning }
        #expect(running.count == 1, "stderr: \(daemons.map(\.standardError))")
        #expect(exited.count == 1)
        if let loser = exited.first {
            #expect(await loser.waitForExit() == .exited(73), "stderr:\n\(loser.standardError)")
        }
        if let winner = running.first {
            try await Self.expectHears(winner, socket: shared == .stateDirectoryOnly ? winner.eventsSocket : socket)
            #expect(await winner.stop() == .exited(0))
        }
    }
}
