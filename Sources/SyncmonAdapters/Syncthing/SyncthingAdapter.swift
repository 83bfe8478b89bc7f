import SyncmonCore

/// Turns one Syncthing's REST API (1.19 and later) into core events: one pair per folder,
/// `engine` = the source's name, `database` = the folder id (docs/syncthing.md).
///
/// A value with no I/O and no clock: the source that owns it fetches, and passes the time.
///
/// **Driving it** (everything the I/O side does):
/// 1. While `needsSnapshot` (at the start, after a failed poll, a restart, an event-id gap, a
///    resumed folder, a cleared folder error, a changed folder list): fill `makeSnapshot()` request by request
///    (`SyncthingSnapshot.nextRequest`), then `ingest(snapshot:at:)`. A failed request: back off,
///    start a new snapshot.
/// 2. Otherwise long-poll `GET eventsPath` with a client timeout of `pollDeadline`, and hand the
///    body to `ingest(events:at:)`. `since` advances by itself.
/// 3. Any failed poll or snapshot request (refused, reset, timeout, non-200, undecodable): call
///    `pollFailed()`, back off, go to 1.
/// 4. Apply every output event, in order, to the monitor with `at: event.time`.
///
/// **Liveness.** Every answered poll is the sign of life: each running pair gets a `heartbeat`
/// when it had no other event, and every `engineStarted` promises heartbeats every
/// `heartbeatInterval` = (poll timeout + 10 s) / 3, so a pair is `engine_down` once a poll has gone
/// unanswered for the poll timeout + 10 s. For `engine_down` at once when the API refuses
/// connections, the source applies the events of this adapter with one connection id of its own
/// and calls the monitor's `connectionClosed(id)` when a connection fails: `reportedPairs` are the
/// pairs tied that way. The next snapshot sends `engineStarted` again, which ties them anew.
///
/// **The mapping** is docs/syncthing.md's table ("How Syncthing maps to syncmon"). Where
/// Syncthing leaves room, these decisions (each explained there):
/// - `sync-waiting` (the queue for the I/O token) is not part of a pull; a pull looping through
///   `sync-preparing`/`syncing` is one cycle; a folder that stops on an error mid-pull ends the
///   cycle failed with `folderError`.
/// - "Idle with nothing needed and no failed item" is an import that succeeded whenever
///   Syncthing says so (a snapshot, a summary, leaving `error`), so a failure also clears without
///   a pull (the obstacle's file deleted upstream). Otherwise a failure stays until a clean pull.
/// - Export also starts when a scan commits local changes (Syncthing reports the peers'
///   completion up to 2 s later, when a LAN peer often has the file already), and ends only on
///   completions reported after the change. With no peer connected an open export stays open.
/// - Pending = the most items any connected peer still needs (max, not sum).
/// - A folder shared with no remote device is `stopped`, like one whose devices are all paused;
///   a folder removed from the configuration gets `engineStopped` and is forgotten.
/// - Pull errors other than the two transient strings are actionable (`pullFailed`), including
///   Syncthing's own "will try again later" races.
/// - A send-only folder never pulls: what it "needs" does not keep it from being in sync.
public struct SyncthingAdapter: Sendable {
    /// The engine name of every pair (the source's `NAME`).
    public let engine: InlineName
    /// The `timeout` of each long-poll, in seconds (Syncthing's default is 60).
    public let pollTimeoutSeconds: Int

    /// The `since` of the next poll: the id of the last event ingested.
    public internal(set) var since = 0
    /// The next step is a snapshot, not a poll.
    public internal(set) var needsSnapshot = true
    /// `since` cannot be trusted: the next snapshot asks for the latest event id.
    var needsCatchUp = true
    /// Syncthing's `startTime` and `myID` at the latest snapshot.
    public internal(set) var startTime: String? = nil
    var localDevice = ""
    var peers = SyncthingPeers()
    /// Reported folders by id.
    var folders: [String: SyncthingFolder] = [:]
    /// Folder ids already said to be rejected.
    var rejected: Set<String> = []
    /// The latest time given to an event: times never go backwards.
    var lastTime = Timestamp.distantPast

    /// - Parameters:
    ///   - engine: the source's name (`a` in `--subscribe a=syncthing+http://…`).
    ///   - pollTimeoutSeconds: the `timeout` of each long-poll; at least 1.
    public init(engine: InlineName, pollTimeoutSeconds: Int = 60) {
        self.engine = engine
        self.pollTimeoutSeconds = max(1, pollTimeoutSeconds)
    }

    /// The event types the mapping reads, for `/rest/events?events=`. A custom mask has its own
    /// subscription in Syncthing, created on its first request (events before it are not in its
    /// buffer), with its own ids; `FolderSummary` and `FolderCompletion` are only computed while a
    /// poll with them in its mask came within the last minute.
    public static let eventMask = SyncthingEvent.mappedTypes.joined(separator: ",")

    /// Path and query of the next long-poll.
    public var eventsPath: String {
        "/rest/events?since=\(self.since)&timeout=\(self.pollTimeoutSeconds)&events=\(Self.eventMask)"
    }

    /// How long to wait for a poll's answer before calling it failed: the timeout + 10 s.
    public var pollDeadline: TimeSpan { .seconds(Int64(self.pollTimeoutSeconds) + 10) }

    /// The heartbeat interval every `engineStarted` promises: three of them are `pollDeadline`.
    public var heartbeatInterval: TimeSpan {
        TimeSpan(microseconds: self.pollDeadline.microseconds / 3)
    }

    /// The pairs reported as running, by folder id: the ones `engine_down` concerns.
    public var reportedPairs: [PairKey] {
        self.folders.values.filter(\.isRunning).map { PairKey(engine: self.engine, database: $0.database) }.sorted()
    }

    /// An empty snapshot for the I/O side to fill.
    public func makeSnapshot() -> SyncthingSnapshot {
        SyncthingSnapshot(knownStartTime: self.startTime, catchUpRequired: self.needsCatchUp)
    }

    /// A poll or a snapshot request failed (refused, reset, timed out, non-200, undecodable):
    /// whatever happened meanwhile, possibly a restart, is read again before polling on.
    public mutating func pollFailed() {
        self.needsSnapshot = true
    }

    /// The database of a folder id, or `nil` when the id breaks the name rule (docs/protocol.md,
    /// "Envelope": 1–64 characters of `[A-Za-z0-9._-]`). Such a folder is skipped, never renamed:
    /// two ids mangled to one name would merge two folders' verdicts.
    public static func database(forFolder id: String) -> Database? {
        Database(id)
    }

    /// Why a folder id is not reported, or `nil` when it is fine.
    public static func rejectionReason(forFolder id: String) -> String? {
        if id.isEmpty { return "an empty folder id" }
        if id.utf8.count > InlineName.capacity { return "longer than \(InlineName.capacity) bytes" }
        if !EngineName.isValid(id.utf8) { return "characters outside [A-Za-z0-9._-]" }
        return nil
    }

    /// The time an event happened: Syncthing's own time, kept between the previous event's time and
    /// `now` so that a clock apart from ours (a remote Syncthing) or a late batch never moves a
    /// pair's time backwards or into the future.
    mutating func time(of stated: String?, now: Timestamp) -> Timestamp {
        let proposed = stated.flatMap(RFC3339.parse) ?? now
        let time = max(self.lastTime, min(proposed, now))
        self.lastTime = time
        return time
    }
}
