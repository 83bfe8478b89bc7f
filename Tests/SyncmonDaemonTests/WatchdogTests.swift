import Foundation
import SyncmonSockets
import SyncmonTestSupport
import Testing

/// sd_notify's watchdog (docs/operations.md#systemd) on the real binary: WATCHDOG=1 goes out
/// when `WATCHDOG_USEC` is for this process only. When (the cadence) is
/// `SystemdNotifyServiceTests`' question, on a manual clock: here no interval is timed.
@Suite("systemd watchdog", .serialized)
struct WatchdogTests {
    @Test("WATCHDOG_USEC=1000000 without WATCHDOG_PID: WATCHDOG=1 keeps coming")
    func pings() async throws {
        try await withDaemon(environment: ["WATCHDOG_USEC": "1000000"]) { daemon, _ in
            let ready = daemon.notify.datagrams.count
            let pings = await daemon.notify.waitForCount("WATCHDOG=1", atLeast: 3, from: ready)
            #expect(pings, "datagrams: \(daemon.notify.datagrams)")
        }
    }

    @Test("WATCHDOG_PID naming the daemon itself: WATCHDOG=1 keeps coming")
    func pingsForOwnPID() async throws {
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
        let pings = await daemon.notify.waitForCount("WATCHDOG=1", atLeast: 3, from: ready)
        #expect(pings, "datagrams: \(daemon.notify.datagrams)")
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
