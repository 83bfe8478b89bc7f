import SyncmonDaemon
import Testing

/// The exit status of each kind of failure, as docs/operations.md documents them, and the
/// message printed as it was given (it names the thing and the fix).
@Suite("Daemon errors")
struct DaemonErrorTests {
    @Test(
        "exit statuses and messages",
        arguments: [
            (DaemonError.taken("the events socket /run/syncmon/events.sock is in use"), Int32(73), "the events socket /run/syncmon/events.sock is in use"),
            (.configuration("rules /etc/syncmon/unison.rules:3: unknown key"), 78, "rules /etc/syncmon/unison.rules:3: unknown key"),
            (.system("cannot write /var/lib/syncmon/state.json.tmp: no space left"), 1, "cannot write /var/lib/syncmon/state.json.tmp: no space left"),
        ]
    )
    func exitStatus(error: DaemonError, status: Int32, message: String) {
        #expect(error.exitCode == status)
        #expect("\(error)" == message)
    }
}
