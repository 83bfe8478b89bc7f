import SyncmonDaemon
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The exit status of each kind of failure, as docs/operations.md documents them, and the
/// message printed as it was given (it names the thing and the fix).
@Suite("Daemon errors")
struct DaemonErrorTests {
    @Test(
        "exit statuses and messages",
        arguments: [
            (DaemonError.taken("the events socket /run/syncmon/events.sock is in use"), Int32(73), "the events socket /run/syncmon/events.sock is in use"),
            (.configuration("rules /etc/syncmon/unison.rules:3: unknown key"), 78, "rules /etc/syncmon/unison.rules:3: unknown key"),
            (.permission("cannot write the state directory /s: permission denied"), 77, "cannot write the state directory /s: permission denied"),
            (
                .cannotWrite("cannot write the state directory /s: the file system is read-only"), 74,
                "cannot write the state directory /s: the file system is read-only"
            ),
            (.system("cannot write /var/lib/syncmon/state.json.tmp: no space left"), 1, "cannot write /var/lib/syncmon/state.json.tmp: no space left"),
        ]
    )
    func exitStatus(error: DaemonError, status: Int32, message: String) {
        #expect(error.exitCode == status)
        #expect("\(error)" == message)
    }

    @Test(
        "an events socket that cannot be bound: 77 or 74 by its cause, never 73",
        arguments: [
            (
                EACCES, Int32(77),
                "cannot listen on the events socket /run/x/events.sock: permission denied in its directory; give the directory to the daemon's user, or choose another --events-socket"
            ),
            (
                EROFS, 74,
                "cannot listen on the events socket /run/x/events.sock: the file system is read-only; choose an --events-socket on a writable file system"
            ),
            (ENOSPC, 1, "cannot listen on the events socket /run/x/events.sock: no space left on device"),
        ]
    )
    func eventsSocketBind(code: Int32, status: Int32, message: String) {
        let error = EventsSocket.bindError("/run/x/events.sock", code: code)
        #expect(error.exitCode == status)
        #expect("\(error)" == message)
    }

    /// The user the fix names: the one running the test, as the daemon would name its own.
    static let user = String(cString: getpwuid(geteuid())!.pointee.pw_name)

    @Test(
        "a state directory that cannot be written: 77 or 74, never 73; the path once, the cause and the fix",
        arguments: [
            (
                "/var/lib/syncmon", EACCES, Int32(77),
                "cannot write the state directory /var/lib/syncmon: permission denied for user \(user); give it to the daemon's user (chown \(user): /var/lib/syncmon) or choose another --state-dir"
            ),
            (
                "/var/lib/syncmon/lock", EACCES, 77,
                "cannot write the state directory /var/lib/syncmon: permission denied for user \(user); give it to the daemon's user (chown \(user): /var/lib/syncmon) or choose another --state-dir"
            ),
            (
                "/var/lib", EACCES, 77,
                "cannot write the state directory /var/lib/syncmon: permission denied on /var/lib for user \(user); create it for the daemon's user (install -d -o \(user) /var/lib/syncmon) or choose another --state-dir"
            ),
            ("/var/lib/syncmon", EPERM, 77, "cannot write the state directory /var/lib/syncmon: permission denied for user \(user)"),
            (
                "/var/lib", EROFS, 74,
                "cannot write the state directory /var/lib/syncmon: the file system is read-only; choose a --state-dir on a writable file system"
            ),
            (
                "/var/lib/syncmon/lock", ENOSPC, 74,
                "cannot write the state directory /var/lib/syncmon: no space left on device; choose another --state-dir"
            ),
            (
                "/var/lib", ENOTDIR, 74,
                "cannot write the state directory /var/lib/syncmon: a file is in the way, where its path needs a directory; choose another --state-dir"
            ),
            ("/var/lib/syncmon", EIO, 74, "cannot write the state directory /var/lib/syncmon: input/output error; choose another --state-dir"),
        ]
    )
    func stateDirectory(failedAt path: String, code: Int32, status: Int32, message: String) {
        let error = DaemonError.stateDirectory("/var/lib/syncmon", failedAt: path, code: code)
        #expect(error.exitCode == status)
        #expect("\(error)".hasPrefix(message), "\(error)")
        #expect(
            "\(error)".split(separator: "/var/lib/syncmon", omittingEmptySubsequences: false).count <= (code == EACCES || code == EPERM ? 3 : 2),
            "the path said once (and in the fix): \(error)")
    }
}
