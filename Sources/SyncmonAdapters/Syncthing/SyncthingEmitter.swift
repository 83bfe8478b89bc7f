import SyncmonCore

/// Collects what one adapter call produces: core events stamped with the engine, the folder
/// and an explicit time, and the notices for the log.
struct SyncthingEmitter {
    let engine: InlineName
    let heartbeatInterval: TimeSpan
    private(set) var output = SyncthingOutput()

    init(engine: InlineName, heartbeatInterval: TimeSpan) {
        self.engine = engine
        self.heartbeatInterval = heartbeatInterval
    }

    /// Appends an event for `folder`'s pair at `time`.
    mutating func emit(_ payload: EventPayload, for folder: inout SyncthingFolder, at time: Timestamp) {
        self.output.events.append(Event(engine: self.engine, database: folder.database, time: time, payload: payload))
        folder.lastEmitted = max(folder.lastEmitted, time)
    }

    /// Appends a setup `containerEvent` that started and ended at `time`: its start, then its end.
    mutating func emitSetup(error: SyncError?, for folder: inout SyncthingFolder, at time: Timestamp) {
        folder.setupOperations &+= 1
        let identifier = folder.setupOperations
        self.emit(.containerEvent(ContainerEvent(kind: .setup, identifier: identifier, started: time)), for: &folder, at: time)
        let end = ContainerEvent(kind: .setup, identifier: identifier, started: time, ended: time, succeeded: error == nil, error: error)
        self.emit(.containerEvent(end), for: &folder, at: time)
    }

    mutating func notice(_ notice: SyncthingNotice) {
        self.output.notices.append(notice)
    }
}
