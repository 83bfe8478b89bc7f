import Foundation
import SyncmonSockets

#if canImport(Glibc)
import Glibc
#endif

/// A private session bus (dbus-daemon) with, when asked, a desktop notification server on it:
/// python3-dbusmock's `notification_daemon` template, which logs every call it gets (Debian's
/// dbus-daemon and python3-dbusmock, from `scripts/install-deps.sh --test`). For the desktop
/// route's tests, from its bus client to the daemon's delivery.
public final class NotificationServerBus: @unchecked Sendable {
    /// Why the bus or its server did not come up.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let directory: TemporaryDirectory
    /// The address for `DBUS_SESSION_BUS_ADDRESS`.
    public let address: String
    /// The server's log of the calls it got.
    public let log: String
    private var processes: [Process] = []

    /// Whether dbus-daemon and python3-dbusmock are installed.
    public static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon")
            && (try? ExternalCommand.runBlocking("/usr/bin/python3", ["-c", "import dbusmock"]).status) == 0
    }

    /// Starts the bus and, with `server`, a notification server whose capabilities are `capabilities`;
    /// returns once `ready` (a call that succeeds only when the server answers) says it does.
    public init(server: Bool, capabilities: String = "actions body body-markup body-hyperlinks", ready: @Sendable (String) -> Bool) async throws {
        self.directory = try TemporaryDirectory(prefix: "smbus")
        self.address = "unix:path=" + self.directory.path("bus")
        self.log = self.directory.path("server.log")
        // A configuration of its own, with no service directories: the machine's (dunst's
        // org.freedesktop.Notifications, say) would be activated for a bus meant to have no server.
        let configuration = self.directory.path("bus.conf")
        try Self.configuration(listen: self.address).write(toFile: configuration, atomically: true, encoding: .utf8)
        try self.launch("/usr/bin/dbus-daemon", ["--config-file=" + configuration, "--nofork", "--nopidfile"])
        // The socket's file appears at bind(2), a moment before dbus-daemon listens on it: a
        // client in between is refused, so the bus is up once a connection is taken.
        let socket = self.directory.path("bus")
        guard await Polling.until(timeout: .seconds(20), { (try? BlockingSocket.connect(to: .unix(path: socket))) != nil }) else {
            throw Failure(description: "dbus-daemon does not listen on \(socket)")
        }
        guard server else { return }
        try self.launch(
            "/usr/bin/python3",
            ["-m", "dbusmock", "--session", "--template", "notification_daemon", "-l", self.log, "-p", #"{"capabilities": "\#(capabilities)"}"#],
            environment: ["DBUS_SESSION_BUS_ADDRESS": self.address, "PATH": "/usr/bin:/bin"])
        let address = self.address
        guard await Polling.until(timeout: .seconds(20), { ready(address) }) else {
            throw Failure(description: "the notification server did not come up on \(address)")
        }
    }

    /// A session bus listening on `listen` that lets everyone own and call anything, and
    /// activates nothing.
    static func configuration(listen: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>\(listen)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """
    }

    /// What the server logged: one line per call (`Notify "syncmon" 0 "…" "SUMMARY" "BODY" [ACTIONS] {HINTS} TIMEOUT`).
    public func calls() -> String {
        (try? String(contentsOfFile: self.log, encoding: .utf8)) ?? ""
    }

    private func launch(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        self.processes.append(process)
    }

    deinit {
        // SIGKILL and a blocking waitpid: nothing to flush, and Foundation's waitUntilExit
        // spins a run loop on the calling thread.
        for process in self.processes.reversed() {
            kill(process.processIdentifier, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(process.processIdentifier, &status, 0)
        }
        self.directory.remove()
    }
}
