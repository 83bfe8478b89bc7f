import SyncmonDaemon
import Testing

/// The exit status of each kind of failure, as docs/operations.md documents them.
@Suite("Daemon errors")
struct DaemonErrorTests {
    @Test(
        "exit statuses",
        arguments: [
            (DaemonError.taken("the events socket /run/syncmon/events.sock is in use"), Int32(73)),
            (.configuration("rules /etc/syncmon/unison.rules:3: unknown key"), 78),
            (.system("cannot write /var/lib/syncmon/state.json.tmp: no space left on device"), 1),
        ]
    )
    func exitStatus(error: DaemonError, status: Int32) {
        #expect(error.exitCode == status)
        #expect(!error.description.isEmpty && "\(error)" == error.description)
    }
}
