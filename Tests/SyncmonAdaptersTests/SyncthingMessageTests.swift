import SyncmonAdapters
import SyncmonCore
import Testing

/// Syncthing's own words reach the outstanding failure as its message (docs/protocol.md#phases): the
/// folder error of a folder that stopped, and the item and error of a failed pull.
@Suite("Syncthing adapter: failure messages")
struct SyncthingMessageTests {
    static func failing(_ fed: Fed, at time: Double) -> OutstandingFailure? {
        let row = fed.monitor.rows(at: t(time)).first { $0.key.database == Database("shared")! }
        return row.flatMap { $0.failing(.setup) ?? $0.failing(.import) }
    }

    @Test("a folder error at the start: setup fails with Syncthing's error text")
    func folderError() throws {
        let syncthing = folder {
            $0.state = "error"; $0.error = "folder marker missing (this indicates potential data loss)\n"
        }()
        let (_, output) = try started(syncthing)
        var fed = Fed()
        fed.feed(output)
        let failure = try #require(Self.failing(fed, at: 1))
        #expect(failure.error.code == SyncthingPullError.folderErrorCode)
        #expect(failure.error.message == "folder marker missing (this indicates potential data loss)")
    }

    @Test("failed items: the shown item's path and error")
    func pullError() throws {
        let syncthing = folder {
            $0.need = 1; $0.failed = [("photos/a.jpg", "syncing: open photos/a.jpg: permission denied\n")]
        }()
        let (_, output) = try started(syncthing)
        var fed = Fed()
        fed.feed(output)
        let failure = try #require(Self.failing(fed, at: 1))
        #expect(failure.error.message == "photos/a.jpg: open photos/a.jpg: permission denied")
    }
}
