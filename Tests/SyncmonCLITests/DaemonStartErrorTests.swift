import Foundation
import SyncmonTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `syncmon daemon` refusing to start, on the real binary (docs/operations.md, "Exit status of
/// `syncmon daemon`"): each refusal has its documented status and a message that names the
/// thing once, the cause in words and the fix — before anything starts or listens.
@Suite("The daemon's refusals at start", .serialized)
struct DaemonStartErrorTests {
    /// `syncmon daemon` with its own state directory and socket in `directory`, then `arguments`.
    static func daemon(in directory: TemporaryDirectory, _ arguments: [String], prefix: [String] = []) async throws -> ExternalCommand.Result {
        let own = ["--events-socket", directory.path("events.sock"), "--log-target", "stderr", "--listen", "127.0.0.1:1"]
        let defaults = arguments.contains("--state-dir") ? own : own + ["--state-dir", directory.path("state")]
        let command = prefix + [SyncmonProcess.binaryPath, "daemon"] + defaults + arguments
        return try await ExternalCommand.run(command[0], Array(command.dropFirst()))
    }

    static func expectRefused(_ result: ExternalCommand.Result, status: Int32, saying message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == status, "\(result.errors)", sourceLocation: sourceLocation)
        #expect(result.errors.contains(message), "\(result.errors)", sourceLocation: sourceLocation)
        for started in ["starting", "listening for events", "serving HTTP", "stopped"] {
            #expect(!result.errors.contains(started), "\(started) in: \(result.errors)", sourceLocation: sourceLocation)
        }
    }

    @Test(
        "a bad flag value: 64, saying what is wrong and what to write",
        arguments: [
            (["--listen", "127.0.0.1:99999"], #"--listen: "127.0.0.1:99999": the port 99999 is out of range; write a port from 1 to 65535"#),
            (["--listen", "localhost"], #"--listen: "localhost" has no port; write host:port"#),
            (["--max-engines", "-5"], #"--max-engines: "-5" is not a positive number; write a whole number above 0"#),
            (["--not-syncing-after", "-1m"], #"--not-syncing-after: "-1m" is not a duration"#),
        ])
    func badFlag(arguments: [String], message: String) async throws {
        let directory = try TemporaryDirectory(prefix: "smr")
        defer { directory.remove() }
        let result = try await Self.daemon(in: directory, arguments)
        Self.expectRefused(result, status: 64, saying: message)
        #expect(!result.errors.contains("Missing value"))
    }

    @Test("the same in the configuration file: 78, with the file and the line")
    func badFileValue() async throws {
        let directory = try TemporaryDirectory(prefix: "smr")
        defer { directory.remove() }
        let file = directory.path("syncmon.conf")
        try "log-level = info\nlisten = 127.0.0.1:99999\n".write(toFile: file, atomically: true, encoding: .utf8)
        let result = try await Self.daemon(in: directory, ["--config", file])
        Self.expectRefused(
            result, status: 78, saying: #"\#(file): line 2: listen: "127.0.0.1:99999": the port 99999 is out of range; write a port from 1 to 65535"#)
    }

    @Test("a state directory under a file: 74, the path once and the fix")
    func stateUnderFile() async throws {
        let directory = try TemporaryDirectory(prefix: "smr")
        defer { directory.remove() }
        try "x".write(toFile: directory.path("file"), atomically: true, encoding: .utf8)
        let state = directory.path("file/state")
        let result = try await Self.daemon(in: directory, ["--state-dir", state])
        Self.expectRefused(
            result, status: 74,
            saying: "cannot write the state directory \(state): a file is in the way, where its path needs a directory; choose another --state-dir")
    }

    @Test("a state directory on a read-only file system: 74, never 73; the directory, created or not")
    func readOnly() async throws {
        guard geteuid() == 0 else {
            try Test.cancel("mounting a read-only file system needs root")
        }
        let directory = try TemporaryDirectory(prefix: "smr")
        defer { directory.remove() }
        let mountPoint = directory.path("ro")
        mkdir(mountPoint, 0o755)
        mkdir(directory.path("ro-existing"), 0o755)
        let mount = try await ExternalCommand.run("/bin/mount", ["-t", "tmpfs", "-o", "ro,size=64k", "none", mountPoint])
        guard mount.status == 0 else {
            try Test.cancel("cannot mount a tmpfs here: \(mount.errors)")
        }
        defer { _ = try? ExternalCommand.runBlocking("/bin/umount", [mountPoint]) }
        for state in [mountPoint + "/syncmon", mountPoint] {
            let result = try await Self.daemon(in: directory, ["--state-dir", state])
            Self.expectRefused(
                result, status: 74,
                saying: "cannot write the state directory \(state): the file system is read-only; choose a --state-dir on a writable file system")
        }
    }

    @Test("a state directory the daemon's user may not write: 77, with the chown")
    func notPermitted() async throws {
        let directory = try TemporaryDirectory(prefix: "smr")
        defer { directory.remove() }
        chmod(directory.path, 0o755)
        let state = directory.path("state")
        mkdir(state, 0o755)
        // Root may write anywhere: the daemon runs as nobody then.
        let asNobody = geteuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        let user = geteuid() == 0 ? String(cString: getpwuid(65534)!.pointee.pw_name) : String(cString: getpwuid(geteuid())!.pointee.pw_name)
        let result = try await Self.daemon(in: directory, ["--state-dir", state], prefix: asNobody)
        Self.expectRefused(
            result, status: 77,
            saying:
                "cannot write the state directory \(state): permission denied for user \(user); give it to the daemon's user (chown \(user): \(state)) or choose another --state-dir"
        )
    }
}
