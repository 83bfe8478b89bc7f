import SyncmonCore

/// One event an engine reports, with every key protocol version 1 defines for it (docs/protocol.md#event-types).
///
/// The typed methods of ``SyncmonClient`` build these; ``SyncmonClient/send(_:)``
/// takes one directly, and ``EventLineRenderer`` turns one into an NDJSON line. Unlike the
/// core's `EventPayload`, which keeps only what the state machines need, this keeps what goes on
/// the wire: zone names, reasons, messages and record names (for the daemon's debug logs).
public enum EngineEvent: Sendable, Hashable {
    /// `willFetchChanges`: an import (fetch) cycle starts.
    case willFetchChanges(reason: SyncReason?)
    /// `fetchedDatabaseChanges`: a batch of zone changes arrived.
    case fetchedDatabaseChanges(modifications: Int, deletions: Int)
    /// `willFetchRecordZoneChanges`: fetching one zone starts.
    case willFetchRecordZoneChanges(zone: String)
    /// `fetchedRecordZoneChanges`: a batch of record changes arrived.
    case fetchedRecordZoneChanges(zone: String?, modifications: Int, deletions: Int)
    /// `didFetchRecordZoneChanges`: fetching one zone ended, with an error when it failed.
    case didFetchRecordZoneChanges(zone: String, error: EngineError?)
    /// `didFetchChanges`: the import cycle ended.
    case didFetchChanges(reason: SyncReason?)
    /// `willSendChanges`: an export (send) cycle starts.
    case willSendChanges(reason: SyncReason?)
    /// `sentDatabaseChanges`: zone saves and deletes were sent.
    case sentDatabaseChanges(savedZones: Int, deletedZones: Int, failedZoneSaves: [EngineFailure], failedZoneDeletes: [EngineFailure])
    /// `sentRecordZoneChanges`: record saves and deletes were sent.
    case sentRecordZoneChanges(
        savedRecords: Int,
        deletedRecords: Int,
        failedRecordSaves: [EngineFailure],
        failedRecordDeletes: [EngineFailure]
    )
    /// `didSendChanges`: the export cycle ended.
    case didSendChanges(reason: SyncReason?)
    /// `stateUpdate`: the pending counts changed (`nil` leaves a count unreported).
    case stateUpdate(pendingRecordZoneChanges: Int?, pendingDatabaseChanges: Int?)
    /// `accountChange`: the user signed in, out, or switched accounts.
    case accountChange(AccountChangeType)
    /// `accountStatus`: what `CKContainer.accountStatus` answered.
    case accountStatus(AccountStatus)
    /// `networkStatus`: what the path monitor says.
    case networkStatus(available: Bool)
    /// `containerEvent`: an NSPersistentCloudKitContainer-style setup, import or export, posted
    /// once when it starts (no `ended`) and again when it ends.
    case containerEvent(ContainerActivity)
    /// `engineStarted`: the engine runs; with an interval, it promises heartbeats at it.
    case engineStarted(heartbeatInterval: Duration?, version: String?)
    /// `heartbeat`: the engine is alive.
    case heartbeat
    /// `engineStopped`: a clean, intended stop.
    case engineStopped
    /// `error`: an error outside any will/did pair.
    case error(phase: Phase?, error: EngineError)
    /// `runStarted`: a batch job's run begins; with an interval, it promises heartbeats at it
    /// until `runEnded`. Unlike `engineStarted` it opens no setup.
    case runStarted(heartbeatInterval: Duration?, version: String?)
    /// `runEnded`: the run is over; the job is neither stopped nor down until the next run.
    case runEnded

    /// The wire name of the event type.
    public var type: EventType {
        switch self {
        case .willFetchChanges: .willFetchChanges
        case .fetchedDatabaseChanges: .fetchedDatabaseChanges
        case .willFetchRecordZoneChanges: .willFetchRecordZoneChanges
        case .fetchedRecordZoneChanges: .fetchedRecordZoneChanges
        case .didFetchRecordZoneChanges: .didFetchRecordZoneChanges
        case .didFetchChanges: .didFetchChanges
        case .willSendChanges: .willSendChanges
        case .sentDatabaseChanges: .sentDatabaseChanges
        case .sentRecordZoneChanges: .sentRecordZoneChanges
        case .didSendChanges: .didSendChanges
        case .stateUpdate: .stateUpdate
        case .accountChange: .accountChange
        case .accountStatus: .accountStatus
        case .networkStatus: .networkStatus
        case .containerEvent: .containerEvent
        case .engineStarted: .engineStarted
        case .heartbeat: .heartbeat
        case .engineStopped: .engineStopped
        case .error: .error
        case .runStarted: .runStarted
        case .runEnded: .runEnded
        }
    }
}
