import Foundation
import SyncmonSockets
import SyncmonTestSupport
import Testing

/// sd_notify's watchdog (docs/operations.md#systemd): WATCHDOG=1 at half of WATCHDOG_USEC, for this process only.
@Suite("systemd watchdog", .serialized)
struct WatchdogTests {
    /// Intervals between consecutive WATCHDOG=1 datagrams, in seconds.
    static func intervals(_ datagrams: [NotifySocket.Datagram]) -> [Double] {
        let times = datagrams.filter { $0.contains("WATCHDOG=1") }.map(\.received)
        return zip(times, times.dropFirst()).map { pair in
            let duration = pair.0.duration(to: pair.1)
            return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }
    }

    func checkCadence(environment: [String: String]) async throws {
        try await withDaemon(environment: environment) { daemon, _ in
            let ready = daemon.notify.datagrams.count
            // Six pings take about 3 s at a 0.5 s cadence.
            let six = await daemon.notify.waitForCount("WATCHDOG=1", atLeast: 6, from: ready, timeout: .seconds(8))
            #expect(six, "datagrams: \(daemon.notify.datagrams)")
            let intervals = Self.intervals(Array(daemon.notify.datagrams.dropFirst(ready)))
            let mean = intervals.reduce(0, +) / Double(max(intervals.count, 1))
            #expect(mean > 0.35 && mean < 0.9, "intervals \(intervals)")
            // Regular pings; the upper bound leaves room for a busy CI machine.
            #expect(intervals.allSatisfy { $0 > 0.1 && $0 < 1.5 }, "intervals \(intervals)")
        }
    }

    @Test("WATCHDOG_USEC=1000000 without WATCHDOG_PID: WATCHDOG=1 about every 0.5 s")
    func cadence() async throws {
        try await self.checkCadence(environment: ["WATCHDOG_USEC": "1000000"])
    }

    @Test("WATCHDOG_PID naming the daemon itself: WATCHDOG=1 about every 0.5 s")
    func cadenceForOwnPID() async throws {
        let directory = try TemporaryDirectory(prefix: "smd")
        defer { directory.remove() }
        // A shell sets WATCHDOG_PID to its own pid and then becomes the daemon (exec keeps the pid).
        let script = directory.path("run.sh")
        try "#!/bin/sh\nexport WATCHDOG_PID=$$\nexec \"\(SyncmonProcess.binaryPath)\" \"$@\"\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let daemon = try await DaemonProcess.start(
            in: directory.path,
            environment: ["WATCHDOG_USEC": "1000000"],
            executable: script
        )
        let ready = daemon.notify.datagrams.count
        let pings = await daemon.notify.waitForCount("WATCHDOG=1", atLeast: 4, from: ready, timeout: .seconds(6))
        #expect(pings, "datagrams: \(daemon.notify.datagrams)")
        let intervals = Self.intervals(Array(daemon.notify.datagrams.dropFirst(ready)))
        #expect(intervals.allSatisfy { $0 > 0.1 && $0 < 1.5 }, "intervals \(intervals)")
        #expect(await daemon.stop() == .exited(0))
    }

    @Test(
        "no WATCHDOG=1 when the watchdog is off or meant for another process",
        arguments: [
            [:],
            ["WATCHDOG_USEC": "1000000", "WATCHDOG_PID": "1"],
        ])
    func noWatchdog(environment: [String: String]) async throws {
        try await withDaemon(environment: environment) { daemon, _ in
            // Absence can only be observed over a window: 1.2 s is over two would-be intervals.
            let ping = await daemon.notify.waitFor("WATCHDOG=1", timeout: .milliseconds(1_200))
            #expect(ping == nil)
            let health = try daemon.get("/healthz")
            #expect(health.status == 200)
        }
    }
}
