import Foundation
import SyncmonSockets
import SyncmonTestSupport
import Testing

@testable import syncmon

#if canImport(Glibc)
import Glibc
#endif

/// Errors a person can act on (docs/operations.md, "Commands"): each names the thing (socket
/// path, field and value, line) and the likely fix, never a system call's selector or errno.
@Suite("Errors a person can act on")
struct ActionableErrorTests {
    /// The test's environment with `SYNCMON_EVENTS_SOCKET` set (or removed with `nil`).
    static func environment(socket: String?) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["SYNCMON_EVENTS_SOCKET"] = socket
        return environment
    }

    static func expectNoSelector(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for selector in ["errno", "descriptor:", "connect(", "bind(", "IOError"] {
            #expect(!text.contains(selector), "\(selector) in: \(text)", sourceLocation: sourceLocation)
        }
    }

    @Test("emit to a socket that does not exist: names the path, asks whether the daemon runs")
    func emitNoSocket() async throws {
        let directory = try TemporaryDirectory(prefix: "sme")
        defer { directory.remove() }
        let path = directory.path("events.sock")
        let result = try await SyncmonProcess.run(["emit", "--events-socket", path, "--engine", "x", "heartbeat"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("cannot reach the daemon at \(path): no such socket"), "\(result.standardError)")
        #expect(result.standardError.contains("Is the daemon running"))
        #expect(result.standardError.contains("--events-socket or SYNCMON_EVENTS_SOCKET"))
        Self.expectNoSelector(result.standardError)
    }

    @Test("emit to a socket file nobody listens on: says it is left over, how to start the daemon")
    func emitStaleSocket() async throws {
        let directory = try TemporaryDirectory(prefix: "sme")
        defer { directory.remove() }
        let path = directory.path("events.sock")
        try BlockingSocket.listen(on: .unix(path: path)).close()
        let result = try await SyncmonProcess.run(["emit", "--events-socket", path, "--engine", "x", "heartbeat"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("cannot reach the daemon at \(path): nothing listens there"), "\(result.standardError)")
        #expect(result.standardError.contains("systemctl start syncmon"))
        Self.expectNoSelector(result.standardError)
    }

    @Test("a permission error says which group to join", arguments: [EACCES, EPERM])
    func permission(code: Int32) {
        let text = PushSocketAdvice.cannotReach("/run/syncmon/events.sock", errno: code)
        #expect(
            text
                == "cannot reach the daemon at /run/syncmon/events.sock: permission denied. Join the socket's group (sudo usermod -aG syncmon $USER, then log in again), or run as root"
        )
    }

    @Test(
        "emit names the field and the value the daemon would reject",
        arguments: [
            (["heartbaet"], #"unknown event type "heartbaet" (field type); did you mean heartbeat?"#),
            (["noSuchThing"], #"unknown event type "noSuchThing" (field type); the types are willFetchChanges, "#),
            (["engineStarted", "heartbeatSeconds=0"], "invalid value 0 for the field heartbeatSeconds of the engineStarted event"),
            (["engineStarted", "heartbeatSeconds=-5"], "invalid value -5 for the field heartbeatSeconds of the engineStarted event"),
            (["error"], "the error event needs the field error (give it as error=VALUE)"),
        ]
    )
    func emitRejection(arguments: [String], expected: String) async throws {
        let result = try await SyncmonProcess.run(["emit", "--events-socket", "/nonexistent/events.sock", "--engine", "x"] + arguments)
        #expect(result.status == 65, "\(result.standardError)")
        #expect(result.standardError.contains("the daemon would reject this event: \(expected)"), "\(result.standardError)")
        #expect(!result.standardError.contains("unknown_type (type)"))
    }

    @Test("emit and wrap honour SYNCMON_EVENTS_SOCKET; --events-socket still wins")
    func environmentSocket() async throws {
        let directory = try TemporaryDirectory(prefix: "sme")
        defer { directory.remove() }
        let daemon = try await DaemonProcess.start(in: directory.path)
        defer { Task { await daemon.stop() } }
        let environment = Self.environment(socket: daemon.eventsSocket)
        let emitted = try await SyncmonProcess.run(["emit", "--engine", "fromenv", "willFetchChanges"], environment: environment)
        #expect(emitted.status == 0, "\(emitted.standardError)")
        let wrapped = try await SyncmonProcess.run(["wrap", "--engine", "wrapenv", "--phase", "export", "--", "true"], environment: environment)
        #expect(wrapped.status == 0, "\(wrapped.standardError)")
        let (met, rows) = await daemon.waitForStatus {
            ($0["fromenv/private"]?["import"] as? [String: Any])?["state"] as? String == "in_progress"
                && ($0["wrapenv/private"]?["export"] as? [String: Any])?["state"] as? String == "succeeded"
        }
        #expect(met, "rows: \(rows)")
        // The flag wins over the variable.
        let elsewhere = try await SyncmonProcess.run(
            ["emit", "--events-socket", directory.path("none.sock"), "--engine", "fromenv", "heartbeat"], environment: environment)
        #expect(elsewhere.status == 1)
        #expect(elsewhere.standardError.contains(directory.path("none.sock")))
        #expect(await daemon.stop() == .exited(0))
    }

    @Test("wrap without a daemon: names the socket and the fix, runs the command all the same")
    func wrapNoDaemon() async throws {
        let directory = try TemporaryDirectory(prefix: "sme")
        defer { directory.remove() }
        let path = directory.path("events.sock")
        let result = try await SyncmonProcess.run(
            ["wrap", "--engine", "job", "--phase", "export", "--", "sh", "-c", "exit 3"], environment: Self.environment(socket: path))
        #expect(result.status == 3)
        #expect(result.standardError.contains("cannot reach the daemon at \(path): no such socket"), "\(result.standardError)")
        #expect(result.standardError.contains("the command runs all the same"))
        Self.expectNoSelector(result.standardError)
    }
}
