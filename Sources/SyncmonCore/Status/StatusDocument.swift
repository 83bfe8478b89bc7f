/// The status JSON of SPEC §4, served at `/api/v1/status` and printed by `status --json` and
/// `replay --json`.
public enum StatusDocument {
    /// Renders `rows` as of `now`; `pretty` indents for people.
    public static func json(rows: [StatusRow], now: Timestamp, pretty: Bool = true) -> String {
        var writer = JSONWriter(pretty: pretty)
        writer.beginObject()
        writer.string(RFC3339.format(now), key: "now")
        writer.beginArray(key: "engines")
        for row in rows {
            writer.beginObject()
            writer.string(row.key.engine.description, key: "engine")
            writer.string(row.key.database.description, key: "database")
            writer.string(row.summary.description, key: "summary")
            writer.beginArray(key: "stalled")
            for reason in row.stalls { writer.string(reason.description) }
            writer.endArray()
            writer.string(row.account.description, key: "account")
            writer.string(row.network.description, key: "network")
            for phase in Phase.allCases { self.write(row[phase], failing: row.failing(phase), key: phase.description, to: &writer) }
            writer.string(row.throttledUntil.map(RFC3339.format), key: "throttledUntil")
            writer.beginObject(key: "pending")
            writer.integer(row.pendingRecordZoneChanges, key: "recordZone")
            writer.integer(row.pendingDatabaseChanges, key: "database")
            writer.endObject()
            writer.string(RFC3339.format(row.lastEvent), key: "lastEvent")
            writer.bool(row.up, key: "up")
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return writer.output + "\n"
    }

    private static func write(_ state: PhaseState, failing: OutstandingFailure?, key: String, to writer: inout JSONWriter) {
        writer.beginObject(key: key)
        writer.string(state.name.description, key: "state")
        switch state {
        case .notStarted:
            break
        case .inProgress(let since):
            writer.string(RFC3339.format(since), key: "started")
        case .succeeded(let started, let ended):
            writer.string(RFC3339.format(started), key: "started")
            writer.string(RFC3339.format(ended), key: "ended")
        case .failed(let started, let ended, let error):
            writer.string(RFC3339.format(started), key: "started")
            writer.string(RFC3339.format(ended), key: "ended")
            self.write(error, key: "error", to: &writer)
        }
        // Whatever the current state: a retry in progress is still failing.
        if let failing {
            writer.beginObject(key: "failing")
            writer.string(RFC3339.format(failing.since), key: "since")
            self.write(failing.error, key: "error", to: &writer)
            writer.endObject()
        }
        writer.endObject()
    }

    private static func write(_ error: PhaseError, key: String, to writer: inout JSONWriter) {
        writer.beginObject(key: key)
        writer.string(error.code.description, key: "code")
        writer.string(error.errorClass.description, key: "class")
        writer.endObject()
    }
}
