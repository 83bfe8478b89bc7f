import Foundation
import SyncmonSockets
import SyncmonTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The real tools and the servers they talk to, on loopback only: `rclone serve webdav`,
/// `rclone serve restic` (restic's rest: backend) and an `rsync --daemon` with its
/// configuration in the test's directory.
enum RealTools {
    static let rclone = ExternalCommand.find("rclone")
    static let restic = ExternalCommand.find("restic")
    static let rsync = ExternalCommand.find("rsync")

    /// The path of `tool`; a missing tool fails the test under CI (scripts/test.sh installs
    /// them with scripts/install-deps.sh --test) and skips it elsewhere.
    static func require(_ tool: String) throws -> String {
        let path: String? =
            switch tool {
            case "rclone": Self.rclone
            case "restic": Self.restic
            default: Self.rsync
            }
        if let path { return path }
        if ExternalCommand.isCI {
            Issue.record("\(tool) is required when CI is set: scripts/install-deps.sh --test")
            throw TestSupportError("\(tool) missing")
        }
        try Test.cancel("skipped: \(tool) not installed (apt-get install rclone restic rsync); set CI=1 to make this a failure")
    }

    /// `rclone serve webdav DIR` on a free port; returns the server and its URL.
    static func webdav(serving directory: String, in test: TemporaryDirectory) async throws -> (BackgroundProcess, String) {
        let rclone = try self.require("rclone")
        let port = try FreePort.next()
        let server = try BackgroundProcess(
            rclone, ["serve", "webdav", directory, "--addr", "127.0.0.1:\(port)", "--config", self.emptyConfig(in: test)],
            name: "webdav", in: test)
        try await self.waitForPort(port, server)
        return (server, "http://127.0.0.1:\(port)")
    }

    /// `rclone serve restic DIR` on a free port; returns the server and the repository URL
    /// (`rest:http://…/repo`), initialised with password `secret`.
    static func resticServer(in test: TemporaryDirectory) async throws -> (BackgroundProcess, String) {
        let rclone = try self.require("rclone")
        let restic = try self.require("restic")
        let port = try FreePort.next()
        try FileManager.default.createDirectory(atPath: test.path("restic-store"), withIntermediateDirectories: true)
        let server = try BackgroundProcess(
            rclone, ["serve", "restic", test.path("restic-store"), "--addr", "127.0.0.1:\(port)", "--config", self.emptyConfig(in: test)],
            name: "rest-server", in: test)
        try await self.waitForPort(port, server)
        let repository = "rest:http://127.0.0.1:\(port)/repo"
        let initialised = try await ExternalCommand.run(restic, ["-r", repository, "init"], environment: self.resticEnvironment(test))
        guard initialised.status == 0 else { throw TestSupportError("restic init: \(initialised.combined)") }
        return (server, repository)
    }

    /// The environment restic runs in: its password and a cache inside the test's directory.
    static func resticEnvironment(_ test: TemporaryDirectory, password: String = "secret") -> [String: String] {
        ProcessInfo.processInfo.environment.merging(["RESTIC_PASSWORD": password, "RESTIC_CACHE_DIR": test.path("restic-cache")]) { $1 }
    }

    /// `rsync --daemon` with one writable module `mod` on a free port; returns the daemon and
    /// the module's URL.
    static func rsyncDaemon(in test: TemporaryDirectory) async throws -> (BackgroundProcess, String) {
        let rsync = try self.require("rsync")
        let port = try FreePort.next()
        let module = test.path("rsync-module")
        try FileManager.default.createDirectory(atPath: module, withIntermediateDirectories: true)
        // As root the daemon would switch to nobody, who cannot write the module: stay who we are.
        let configuration = """
            use chroot = no
            uid = \(getuid())
            gid = \(getgid())
            [mod]
            path = \(module)
            read only = no

            """
        try configuration.write(toFile: test.path("rsyncd.conf"), atomically: true, encoding: .utf8)
        let server = try BackgroundProcess(
            rsync,
            [
                "--daemon", "--no-detach", "--config=\(test.path("rsyncd.conf"))", "--address=127.0.0.1", "--port=\(port)",
                "--log-file=\(test.path("rsyncd.log"))",
            ],
            name: "rsyncd", in: test
        )
        try await self.waitForPort(port, server)
        return (server, "rsync://127.0.0.1:\(port)/mod/")
    }

    /// An empty rclone configuration, so that the test neither reads nor warns about the user's.
    static func emptyConfig(in test: TemporaryDirectory) -> String {
        let path = test.path("rclone.conf")
        if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        return path
    }

    /// `count` bytes of random data (incompressible, so no tool makes it smaller) in `path`.
    static func randomFile(_ path: String, bytes count: Int) throws {
        // From /dev/urandom a mebibyte at a time: SystemRandomNumberGenerator makes a system
        // call per 8 bytes, 7 million of them for the largest file (seconds of a test's time).
        guard let random = FileHandle(forReadingAtPath: "/dev/urandom") else { throw CocoaError(.fileReadNoPermission) }
        defer { try? random.close() }
        var data = Data(capacity: count)
        while data.count < count {
            guard let chunk = try random.read(upToCount: min(1 << 20, count - data.count)), !chunk.isEmpty else {
                throw CocoaError(.fileReadUnknown)
            }
            data.append(chunk)
        }
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// Whether a TCP connection to 127.0.0.1:`port` succeeds.
    static func accepts(port: Int) -> Bool {
        guard let connection = try? BlockingSocket.connect(to: .loopback(port: port)) else { return false }
        connection.close()
        return true
    }

    /// Waits until something accepts connections on `port`.
    static func waitForPort(_ port: Int, _ server: BackgroundProcess) async throws {
        let listening = await Polling.until(timeout: .seconds(15), interval: .milliseconds(50)) {
            Self.accepts(port: port) || !server.isRunning
        }
        guard listening, server.isRunning else {
            throw TestSupportError("\(server.name) did not listen on \(port): \(server.standardError)")
        }
    }
}
