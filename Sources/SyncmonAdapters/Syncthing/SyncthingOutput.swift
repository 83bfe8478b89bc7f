import SyncmonCore

/// What one call into `SyncthingAdapter` produced: core events to apply, in order, and notices
/// to log. The adapter's decisions for the I/O side (`needsSnapshot`, `since`, the poll path)
/// are properties of the adapter itself, read after each call.
public struct SyncthingOutput: Sendable {
    /// Events for the monitor, each with its engine, folder and explicit `time`.
    public var events: [Event] = []
    /// Things worth a log entry: Syncthing's own words that the events cannot carry (the core keeps
    /// error codes, never messages), and the adapter's reasons for wanting a snapshot.
    public var notices: [SyncthingNotice] = []

    public init() {}
}

/// One thing the I/O side should log about a Syncthing source.
public enum SyncthingNotice: Equatable, Sendable, CustomStringConvertible {
    /// A folder whose id breaks the database name rule (1–64 of `[A-Za-z0-9._-]`): not reported,
    /// not renamed. Said once per adapter, or again if it comes back after leaving the config.
    case folderRejected(id: String, reason: String)
    /// A folder stopped on a folder-level error (Syncthing's text), reported as a failed setup.
    case folderFailed(folder: Database, message: String)
    /// A folder left its error state.
    case folderRecovered(folder: Database)
    /// A running folder shared with no other device: it syncs with nobody, and is reported as
    /// `stopped` (Syncthing's first run shares its Default Folder with nobody).
    case folderNotShared(folder: Database)
    /// A pull left `count` items failed; `path` and `message` are the item the verdict shows.
    case pullFailed(folder: Database, count: Int, path: String, message: String)
    /// Syncthing restarted (its `startTime` changed): everything was read again.
    case restarted(startTime: String)
    /// Events were lost (ids jumped from `since` to `next`): a snapshot was asked for.
    case eventsLost(since: Int, next: Int)
    /// Event ids went backwards (a new Syncthing behind the same address): a snapshot was asked for.
    case eventIDsRestarted(since: Int, next: Int)
    /// The configuration changed in a way the events do not cover (a folder added, removed or
    /// shared differently): a snapshot was asked for.
    case configurationChanged
    /// An event of a known type whose data did not have the expected shape: skipped.
    case malformedEvent(id: Int, type: String)

    public var description: String {
        switch self {
        case .folderRejected(let id, let reason): "folder \"\(id)\" is not reported: \(reason)"
        case .folderFailed(let folder, let message): "folder \(folder) stopped on an error: \(message)"
        case .folderRecovered(let folder): "folder \(folder) left its error state"
        case .folderNotShared(let folder):
            "folder \(folder) is shared with no other device: it syncs with nobody, so it is reported as stopped until you share it "
                + "(Syncthing: Edit Folder, Sharing)"
        case .pullFailed(let folder, let count, let path, let message):
            "folder \(folder): a pull left \(count) item\(count == 1 ? "" : "s") failed; \(path): \(message)"
        case .restarted(let startTime): "Syncthing restarted (started \(startTime)); state read again"
        case .eventsLost(let since, let next): "events lost after id \(since) (next was \(next)); state read again"
        case .eventIDsRestarted(let since, let next): "event ids went back from \(since) to \(next); state read again"
        case .configurationChanged: "the folder configuration changed; state read again"
        case .malformedEvent(let id, let type): "event \(id) (\(type)) has unexpected data; skipped"
        }
    }
}
