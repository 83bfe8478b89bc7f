import Logging
import ServiceLifecycle
import SyncmonCore
import SyncmonHost
import SyncmonLock

/// Reports one sync engine's events to the syncmon daemon, without ever blocking or slowing
/// the engine.
///
/// One client stands for one (engine, database) pair, as one `CKSyncEngine` runs per database.
/// Its event methods are synchronous and O(1): each takes the time, gives the event the next
/// `seq`, and appends it to a bounded in-memory queue. When the queue is full the event is
/// dropped and counted (``droppedEvents``; a warning is logged at most every few seconds).
///
/// The client is a `Service`: ``run()`` connects to the daemon's Unix push socket, writes the
/// queued events, sends `engineStarted` on every connection (with `heartbeatSeconds` when
/// heartbeats are on) and the heartbeats themselves, and reconnects with capped exponential
/// backoff and jitter when the daemon restarts, keeping what is queued. A graceful shutdown
/// (the service group's, or ``finish()``) delivers what is queued, sends `engineStopped` and
/// closes, within ``Configuration/shutdownTimeout``. A client for one run of a batch job
/// (``Configuration/Lifecycle-swift.enum/batchRun``) says `runStarted` and `runEnded` instead.
/// Cancelling the task that runs ``run()`` instead closes the connection at once, as a crash
/// would: the daemon then shows the engine as `engine_down`.
///
/// ```swift
/// let monitor = SyncmonClient(
///     engine: "notes",
///     database: .private,
///     configuration: .init(queueCapacity: 10_000, heartbeatInterval: .seconds(30))
/// )
/// let group = ServiceGroup(services: [monitor, app], gracefulShutdownSignals: [.sigterm], logger: logger)
/// try await group.run()
/// ```
///
/// Wiring it into a CKSyncEngine-style delegate (`ckErrorName` stands for the app's mapping of
/// an error to its `CKError.Code` case name, e.g. `"quotaExceeded"`):
///
/// ```swift
/// func handleEvent(_ event: SyncEngine.Event, syncEngine: SyncEngine) async {
///     switch event {
///     case .stateUpdate:
///         monitor.stateUpdate(
///             pendingRecordZoneChanges: syncEngine.state.pendingRecordZoneChanges.count,
///             pendingDatabaseChanges: syncEngine.state.pendingDatabaseChanges.count)
///     case .accountChange(let change):
///         monitor.accountChange(change.changeType.syncmonValue)   // .signIn / .signOut / .switchAccounts
///     case .fetchedDatabaseChanges(let changes):
///         monitor.fetchedDatabaseChanges(modifications: changes.modifications.count, deletions: changes.deletions.count)
///     case .fetchedRecordZoneChanges(let changes):
///         monitor.fetchedRecordZoneChanges(modifications: changes.modifications.count, deletions: changes.deletions.count)
///     case .sentDatabaseChanges(let sent):
///         monitor.sentDatabaseChanges(
///             savedZones: sent.savedZones.count, deletedZones: sent.deletedZoneIDs.count,
///             failedSaves: sent.failedZoneSaves.map { .init(code: ckErrorName($0.error), zone: $0.zone.zoneID.zoneName) },
///             failedDeletes: sent.failedZoneDeletes.map { .init(code: ckErrorName($0.value), zone: $0.key.zoneName) })
///     case .sentRecordZoneChanges(let sent):
///         monitor.sentRecordZoneChanges(
///             saved: sent.savedRecords.count, deleted: sent.deletedRecordIDs.count,
///             failedSaves: sent.failedRecordSaves.map {
///                 .init(code: ckErrorName($0.error), recordName: $0.record.recordID.recordName,
///                       retryAfter: $0.error.retryAfterSeconds.map { .seconds($0) })
///             },
///             failedDeletes: sent.failedRecordDeletes.map { .init(code: ckErrorName($0.value), recordName: $0.key.recordName) })
///     case .willFetchChanges:
///         monitor.willFetchChanges()
///     case .willFetchRecordZoneChanges(let zone):
///         monitor.willFetchRecordZoneChanges(zone: zone.zoneID.zoneName)
///     case .didFetchRecordZoneChanges(let zone):
///         monitor.didFetchRecordZoneChanges(zone: zone.zoneID.zoneName, error: zone.error.map { .init(code: ckErrorName($0)) })
///     case .didFetchChanges:
///         monitor.didFetchChanges()
///     case .willSendChanges:
///         monitor.willSendChanges()
///     case .didSendChanges:
///         monitor.didSendChanges()
///     @unknown default:
///         break
///     }
/// }
/// ```
///
/// Also report what the engine learns outside its events: ``accountStatus(_:)`` after asking
/// the container, ``networkStatus(available:)`` from the path monitor, ``error(phase:code:message:retryAfter:)``
/// for failures outside a cycle. The latest account status and network availability are sent
/// again after each reconnect, so a restarted daemon learns them.
///
/// `seq` starts at the wall-clock time in microseconds when the client is created and counts
/// up, so it keeps increasing across restarts of the app; use one client per (engine, database)
/// — two clients for the same pair would make the daemon drop one's events as duplicates.
public final class SyncmonClient: Service, Sendable {
    /// A failed save or delete, for the `failedSaves:` / `failedDeletes:` lists.
    public typealias Failure = EngineFailure

    /// The engine identifier, as sent (an invalid name is made valid, see
    /// ``EventLineRenderer/sanitizedEngineName(_:)``).
    public let engine: String
    /// The database this engine syncs.
    public let database: Database
    public let configuration: Configuration
    /// Where connection changes and drops are logged.
    let logger: Logger
    /// Turns queued events into lines on the connection task.
    let renderer: EventLineRenderer
    /// The queue, counters and parked tasks.
    let state: Locked<ClientState>

    /// A client for `engine`'s `database`. Nothing happens on the network until ``run()``;
    /// events reported before are queued.
    public init(
        engine: String,
        database: Database = .private,
        configuration: Configuration = Configuration(),
        logger: Logger = Logger(label: "syncmon.client")
    ) {
        self.renderer = EventLineRenderer(engine: engine, database: database)
        self.engine = self.renderer.engine
        self.database = database
        self.configuration = configuration
        var logger = logger
        logger[metadataKey: "syncmon.engine"] = "\(self.renderer.engine)"
        logger[metadataKey: "syncmon.database"] = "\(database)"
        self.logger = logger
        self.state = Locked(
            ClientState(
                capacity: configuration.queueCapacity,
                firstSequence: WallClock.now().microseconds,
                dropLogInterval: configuration.dropLogInterval
            )
        )
        if self.renderer.engine != engine {
            logger.warning(
                "Engine names are 1-64 characters of [A-Za-z0-9._-]; reporting under a corrected name",
                metadata: ["syncmon.requested_engine": "\(engine)"]
            )
        }
    }

    /// Events dropped because the queue was full.
    public var droppedEvents: Int {
        self.state.withLock { $0.dropped }
    }

    /// Counters and the connection state.
    public var statistics: Statistics {
        self.state.withLock { $0.statistics }
    }

    /// Queues `event` with the current time and the next `seq`; never blocks. The typed methods
    /// (``willFetchChanges(reason:)`` …) all come here.
    public func send(_ event: EngineEvent) {
        self.enqueue(event, time: WallClock.now())
    }

    /// Queues `event` as happening at `time` (a replayed or simulated stream).
    public func send(_ event: EngineEvent, at time: Timestamp) {
        self.enqueue(event, time: time)
    }

    private func enqueue(_ event: EngineEvent, time: Timestamp) {
        let action = self.state.withLock { $0.enqueue(event, time: time) }
        action.resume?.resume()
        if let drops = action.dropsToLog {
            self.logger.warning(
                "syncmon client queue full: events dropped",
                metadata: ["syncmon.dropped": "\(drops)", "syncmon.queue_capacity": "\(self.configuration.queueCapacity)"]
            )
        }
    }

    /// Asks ``run()`` to stop gracefully: deliver what is queued, send `engineStopped` (`runEnded`
    /// for a batch run), close.
    /// Returns at once; ``run()`` returns when done (or after the shutdown timeout).
    public func finish() {
        let resumed = self.state.withLock { $0.requestStop() }
        for continuation in resumed { continuation.resume() }
    }

    /// The events still queued, as the lines they would be sent as (for tests and debugging).
    package func queuedLines() -> [String] {
        let queued = self.state.withLock { $0.nextBatch(maximum: .max) }
        return queued.flatMap { self.renderer.lines(for: $0.event, time: $0.time, sequence: $0.sequence) }
    }
}
