import SyncmonCore
import SyncmonHost

// The typed event methods: one per event type of docs/protocol.md#event-types, named after CKSyncEngine.Event.
// Each queues the event and returns at once (see `SyncmonClient.send(_:)`).
extension SyncmonClient {
    // MARK: Import (fetch)

    /// An import cycle starts (`willFetchChanges`).
    public func willFetchChanges(reason: SyncReason? = nil) {
        self.send(.willFetchChanges(reason: reason))
    }

    /// A batch of database (zone) changes was fetched.
    public func fetchedDatabaseChanges(modifications: Int, deletions: Int) {
        self.send(.fetchedDatabaseChanges(modifications: modifications, deletions: deletions))
    }

    /// Fetching one zone's changes starts.
    public func willFetchRecordZoneChanges(zone: String) {
        self.send(.willFetchRecordZoneChanges(zone: zone))
    }

    /// A batch of record changes was fetched.
    public func fetchedRecordZoneChanges(zone: String? = nil, modifications: Int, deletions: Int) {
        self.send(.fetchedRecordZoneChanges(zone: zone, modifications: modifications, deletions: deletions))
    }

    /// Fetching one zone's changes ended; `error` when it failed.
    public func didFetchRecordZoneChanges(zone: String, error: EngineError? = nil) {
        self.send(.didFetchRecordZoneChanges(zone: zone, error: error))
    }

    /// The import cycle ended.
    public func didFetchChanges(reason: SyncReason? = nil) {
        self.send(.didFetchChanges(reason: reason))
    }

    // MARK: Export (send)

    /// An export cycle starts (`willSendChanges`).
    public func willSendChanges(reason: SyncReason? = nil) {
        self.send(.willSendChanges(reason: reason))
    }

    /// Zone saves and deletes were sent; the failures with their CKError codes.
    public func sentDatabaseChanges(savedZones: Int, deletedZones: Int, failedSaves: [Failure] = [], failedDeletes: [Failure] = []) {
        self.send(.sentDatabaseChanges(savedZones: savedZones, deletedZones: deletedZones, failedZoneSaves: failedSaves, failedZoneDeletes: failedDeletes))
    }

    /// Record saves and deletes were sent; the failures with their CKError codes.
    public func sentRecordZoneChanges(saved: Int, deleted: Int, failedSaves: [Failure] = [], failedDeletes: [Failure] = []) {
        self.send(.sentRecordZoneChanges(savedRecords: saved, deletedRecords: deleted, failedRecordSaves: failedSaves, failedRecordDeletes: failedDeletes))
    }

    /// The export cycle ended.
    public func didSendChanges(reason: SyncReason? = nil) {
        self.send(.didSendChanges(reason: reason))
    }

    // MARK: State and conditions

    /// The pending counts (CKSyncEngine's `state.pendingRecordZoneChanges.count` and
    /// `pendingDatabaseChanges.count`); `nil` leaves a count unreported.
    public func stateUpdate(pendingRecordZoneChanges: Int? = nil, pendingDatabaseChanges: Int? = nil) {
        self.send(.stateUpdate(pendingRecordZoneChanges: pendingRecordZoneChanges, pendingDatabaseChanges: pendingDatabaseChanges))
    }

    /// The user signed in, out, or switched accounts.
    public func accountChange(_ change: AccountChangeType) {
        self.send(.accountChange(change))
    }

    /// What `CKContainer.accountStatus` answered. Re-sent after each reconnect. (`.unknown`,
    /// syncmon's "nothing heard yet", is sent as `couldNotDetermine`.)
    public func accountStatus(_ status: AccountStatus) {
        self.send(.accountStatus(status))
    }

    /// Whether the network is usable, from the path monitor. Re-sent after each reconnect.
    public func networkStatus(available: Bool) {
        self.send(.networkStatus(available: available))
    }

    /// An error outside any will/did pair: an actionable one with `phase: .setup` fails setup;
    /// one carrying `retryAfter` throttles the engine.
    public func error(phase: Phase? = nil, code: String, message: String? = nil, retryAfter: Duration? = nil) {
        self.send(.error(phase: phase, error: EngineError(code: code, message: message, retryAfter: retryAfter)))
    }

    /// An error outside any will/did pair.
    public func error(phase: Phase? = nil, _ error: EngineError) {
        self.send(.error(phase: phase, error: error))
    }

    // MARK: NSPersistentCloudKitContainer-style operations

    /// A setup, import or export operation starts (`containerEvent` without `ended`); pass the
    /// returned activity to ``containerEventEnded(_:succeeded:error:)`` when it ends.
    @discardableResult
    public func containerEventStarted(_ kind: Phase, id: String? = nil) -> ContainerActivity {
        let now = WallClock.now()
        let identifier = id ?? "\(kind)-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
        let activity = ContainerActivity(kind: kind, id: identifier, started: now)
        self.send(.containerEvent(activity), at: now)
        return activity
    }

    /// The operation ended: succeeded unless `succeeded` is `false` or an `error` is given.
    public func containerEventEnded(_ activity: ContainerActivity, succeeded: Bool? = nil, error: EngineError? = nil) {
        let now = WallClock.now()
        self.send(.containerEvent(activity.ending(at: now, succeeded: succeeded ?? (error == nil), error: error)), at: now)
    }

    /// A `containerEvent` as given (start when `ended` is `nil`, otherwise end).
    public func containerEvent(_ activity: ContainerActivity) {
        self.send(.containerEvent(activity))
    }

    // MARK: Liveness

    /// A heartbeat from the engine's own loop, for ``Configuration/automaticHeartbeats`` off.
    public func heartbeat() {
        self.send(.heartbeat)
    }
}
