import SyncmonCore
import SyncmonDaemon
import SyncmonTestSupport
import Testing

// Shared vocabulary of the daemon's unit tests: times relative to one base instant, and
// monitors and stores fed with real event lines through the real decoder.

/// 2026-11-21T12:00:00Z.
let baseSeconds: Int64 = 1_795_262_400

/// `seconds` after the base instant.
func at(_ seconds: Int64) -> Timestamp {
    Timestamp(seconds: baseSeconds + seconds)
}

/// The event a line decodes to; a line the decoder rejects is a bug in the test.
func decodeEvent(_ line: String, fileID: String = #fileID, filePath: String = #filePath, sourceLine: Int = #line, column: Int = #column) -> Event? {
    let sourceLocation = SourceLocation(fileID: fileID, filePath: filePath, line: sourceLine, column: column)
    switch EventDecoder().decode(Array(line.utf8)) {
    case .event(let event): return event
    case .blank: Issue.record("blank line", sourceLocation: sourceLocation)
    case .rejected(let rejection): Issue.record("rejected \(rejection): \(line)", sourceLocation: sourceLocation)
    }
    return nil
}

/// A monitor fed `steps` (seconds after the base instant, line).
func makeMonitor(
    _ steps: [(Int64, String)],
    configuration: MonitorConfiguration = MonitorConfiguration(),
    fileID: String = #fileID, filePath: String = #filePath, sourceLine: Int = #line, column: Int = #column
) -> Monitor {
    var monitor = Monitor(configuration: configuration)
    for (seconds, line) in steps {
        guard let event = decodeEvent(line, fileID: fileID, filePath: filePath, sourceLine: sourceLine, column: column) else { continue }
        monitor.apply(event, at: at(seconds))
    }
    return monitor
}

/// Feeds `text` to `store` as one read of a push connection would.
@discardableResult
func feed(_ store: MonitorStore, _ text: String, now: Timestamp, connection: UInt64? = nil) -> MonitorStore.IngestOutcome {
    var framer = LineFramer()
    var batch = IngestBatch()
    Array(text.utf8).withUnsafeBytes { bytes in
        framer.feed(bytes) { batch.add($0) }
    }
    framer.finish { batch.add($0) }
    return store.apply(batch, transport: .push, connection: connection, now: now)
}

/// Shorthand for an event line.
func line(_ engine: String, _ type: String, _ fields: [String: Any] = [:]) -> String {
    EventLine.make(engine, type, fields)
}

/// A day in the life of two engines: one healthy with records and conflicts, one failing its
/// export with quota errors, plus an unknown error code and some rejected lines.
let realisticSteps: [(Int64, String)] = [
    (0, line("notes", "engineStarted", ["heartbeatSeconds": 30])),
    (1, line("notes", "accountStatus", ["status": "available"])),
    (1, line("notes", "networkStatus", ["available": true])),
    (2, line("notes", "willFetchChanges")),
    (3, line("notes", "fetchedRecordZoneChanges", ["zone": "Notes", "modifications": 12, "deletions": 2])),
    (4, line("notes", "didFetchChanges")),
    (5, line("notes", "willSendChanges")),
    (
        6,
        line(
            "notes", "sentRecordZoneChanges",
            [
                "savedRecords": 3, "deletedRecords": 1,
                "failedRecordSaves": [["code": "serverRecordChanged", "recordName": "r1"]], "failedRecordDeletes": [],
            ])
    ),
    (7, line("notes", "didSendChanges")),
    (8, line("notes", "stateUpdate", ["pendingRecordZoneChanges": 2, "pendingDatabaseChanges": 1])),
    (9, line("notes", "accountChange", ["changeType": "signIn"])),
    (0, line("photos", "engineStarted", ["database": "shared"])),
    (1, line("photos", "accountStatus", ["status": "available", "database": "shared"])),
    (2, line("photos", "willSendChanges", ["database": "shared"])),
    (
        3,
        line(
            "photos", "sentRecordZoneChanges",
            [
                "database": "shared", "savedRecords": 0, "deletedRecords": 0,
                "failedRecordSaves": [["code": "quotaExceeded"], ["code": "networkFailure", "retryAfter": 60]],
                "failedRecordDeletes": [],
            ])
    ),
    (4, line("photos", "didSendChanges", ["database": "shared"])),
    (5, line("photos", "error", ["database": "shared", "error": ["code": "someVendorCode"]])),
]
