import Foundation
import SyncmonAdapters
import SyncmonCore
import Testing

// Hand-written Syncthing answers for the unit tables: small, explicit JSON in the shapes the
// recordings show (Tests/Fixtures/syncthing/), so each rule can be tested on its own.

/// 2026-11-24T10:00:00Z, the instant unit-test times count from.
let unitBase = RFC3339.parse("2026-11-24T10:00:00Z")!

/// `seconds` after `unitBase`.
func t(_ seconds: Double) -> Timestamp {
    unitBase.adding(.seconds(seconds))
}

/// `seconds` after `unitBase` as Syncthing writes event times.
func stamp(_ seconds: Double) -> String {
    RFC3339.format(t(seconds))
}

let sharedFolder = Database("shared")!

/// The REST side of one Syncthing, as plain values.
struct FakeSyncthing {
    struct Folder {
        var id: String
        var paused = false
        var type = "sendreceive"
        var devices = ["PEER1"]
        var state = "idle"
        var need: Int64 = 0
        var error: String? = nil
        /// Failed items: (path, error).
        var failed: [(String, String)] = []
        /// By device: (percent, needItems).
        var completion: [String: (Double, Int64)] = ["PEER1": (100, 0)]
    }

    var myID = "LOCAL"
    var startTime = "2026-11-24T09:00:00Z"
    /// The id `/rest/events?since=0&limit=1` answers; 0 for `[]`.
    var latestEventID = 0
    var folders = [Folder(id: "shared")]
    /// Remote devices and whether they are paused.
    var devices: [String: Bool] = ["PEER1": false]
    var connected: Set<String> = ["PEER1"]

    func answer(_ request: SyncthingRequest) -> [UInt8] {
        func json(_ value: Any) -> [UInt8] { Array(try! JSONSerialization.data(withJSONObject: value)) }
        func folder(_ id: String) -> Folder { self.folders.first { $0.id == id }! }
        switch request {
        case .systemStatus:
            return json(["myID": self.myID, "startTime": self.startTime, "uptime": 5])
        case .latestEvent:
            return json(
                self.latestEventID == 0
                    ? [] : [["id": self.latestEventID, "type": "StateChanged", "time": stamp(0), "data": ["folder": "x", "from": "idle", "to": "scanning"]]])
        case .connections:
            var connections: [String: Any] = [self.myID: ["connected": false, "paused": false]]
            for (device, paused) in self.devices { connections[device] = ["connected": self.connected.contains(device), "paused": paused] }
            return json(["connections": connections, "total": [:]])
        case .config:
            return json([
                "folders": self.folders.map { folder in
                    [
                        "id": folder.id, "label": folder.id, "type": folder.type, "paused": folder.paused,
                        "devices": ([self.myID] + folder.devices).map { ["deviceID": $0] },
                    ] as [String: Any]
                },
                "devices": ([self.myID: false].merging(self.devices) { $1 }).map { ["deviceID": $0.key, "paused": $0.value] },
                "gui": ["apiKey": "do-not-log-me"],
            ])
        case .folderStatus(let id):
            let folder = folder(id)
            var status: [String: Any] = [
                "state": folder.state, "needTotalItems": folder.need, "errors": folder.failed.count, "pullErrors": folder.failed.count,
            ]
            if let error = folder.error { status["error"] = error }
            return json(status)
        case .folderErrors(let id):
            let failed = folder(id).failed
            return json(["folder": id, "errors": failed.isEmpty ? NSNull() : failed.map { ["path": $0.0, "error": $0.1] } as Any, "page": 1, "perpage": 65536])
        case .completion(let id, let device):
            let (percent, need) = folder(id).completion[device] ?? (100, 0)
            return json([
                "completion": percent, "needItems": need, "needDeletes": 0, "needBytes": need * 100, "globalItems": 10, "globalBytes": 1000, "sequence": 1,
            ])
        }
    }

    /// The requests a snapshot made, and the snapshot itself.
    func snapshot(for adapter: SyncthingAdapter) throws -> (requests: [SyncthingRequest], snapshot: SyncthingSnapshot) {
        var snapshot = adapter.makeSnapshot()
        var requests: [SyncthingRequest] = []
        while let request = snapshot.nextRequest {
            requests.append(request)
            try snapshot.record(request, body: self.answer(request))
            if requests.count > 100 { throw FixtureError("the snapshot never completes") }
        }
        return (requests, snapshot)
    }
}

/// One `/rest/events` entry.
struct FakeEvent {
    var id: Int
    var type: String
    var time: Double
    var data: Any

    var json: [String: Any] { ["id": self.id, "globalID": self.id + 1000, "time": stamp(self.time), "type": self.type, "data": self.data] }
}

/// The body of one poll answer.
func body(_ events: [FakeEvent]) -> [UInt8] {
    Array(try! JSONSerialization.data(withJSONObject: events.map(\.json)))
}

/// Events numbered from `first`, all at `time`: (type, data).
func events(from first: Int, at time: Double, _ list: [(String, Any)]) -> [FakeEvent] {
    list.enumerated().map { FakeEvent(id: first + $0.offset, type: $0.element.0, time: time, data: $0.element.1) }
}

func stateChanged(_ from: String, _ to: String, folder: String = "shared", error: String? = nil) -> (String, Any) {
    var data: [String: Any] = ["folder": folder, "from": from, "to": to, "duration": 0.5]
    if let error { data["error"] = error }
    return ("StateChanged", data)
}

func folderSummary(state: String, need: Int64, errors: Int64 = 0, folder: String = "shared") -> (String, Any) {
    ("FolderSummary", ["folder": folder, "summary": ["state": state, "needTotalItems": need, "errors": errors, "pullErrors": errors]])
}

func folderCompletion(_ device: String, _ percent: Double, need: Int64, bytes: Int64? = nil, folder: String = "shared") -> (String, Any) {
    ("FolderCompletion", ["folder": folder, "device": device, "completion": percent, "needItems": need, "needDeletes": 0, "needBytes": bytes ?? need * 100])
}

func folderErrors(_ items: [(String, String)], folder: String = "shared") -> (String, Any) {
    ("FolderErrors", ["folder": folder, "errors": items.map { ["path": $0.0, "error": $0.1] }])
}

func itemFinished(_ item: String, action: String = "update", error: String? = nil, folder: String = "shared") -> (String, Any) {
    ("ItemFinished", ["folder": folder, "item": item, "type": "file", "action": action, "error": error as Any? ?? NSNull()])
}

func device(_ type: String, _ id: String) -> (String, Any) {
    (type, type.hasPrefix("DeviceConn") || type.hasPrefix("DeviceDisconn") ? ["id": id] : ["device": id])
}

/// An adapter that took `syncthing`'s snapshot at `time` seconds, and that snapshot's output.
func started(_ syncthing: FakeSyncthing = FakeSyncthing(), at time: Double = 0, pollTimeout: Int = 60) throws -> (SyncthingAdapter, SyncthingOutput) {
    var adapter = SyncthingAdapter(engine: InlineName("st")!, pollTimeoutSeconds: pollTimeout)
    let output = adapter.ingest(snapshot: try syncthing.snapshot(for: adapter).snapshot, at: t(time))
    return (adapter, output)
}

/// The payloads of a phase's events (`import`, `export`), plus pending and network updates.
func payloads(_ output: SyncthingOutput, _ keep: (EventPayload) -> Bool) -> [EventPayload] {
    output.events.map { withoutMessage($0.payload) }.filter(keep)
}

/// The payload with its error's message left out: the mapping tables compare codes, and
/// `SyncthingMessageTests` checks the messages.
func withoutMessage(_ payload: EventPayload) -> EventPayload {
    guard case .error(let phase, var error) = payload else { return payload }
    error.message = nil
    return .error(phase: phase, error: error)
}

func isExport(_ payload: EventPayload) -> Bool {
    switch payload {
    case .willSendChanges, .sentRecordZoneChanges, .didSendChanges, .stateUpdate: true
    default: false
    }
}

func isImport(_ payload: EventPayload) -> Bool {
    switch payload {
    case .willFetchChanges, .fetchedRecordZoneChanges, .didFetchChanges, .error(phase: .import, _): true
    default: false
    }
}

func sent(_ items: Int64) -> EventPayload {
    .sentRecordZoneChanges(savedRecords: items, deletedRecords: 0, failures: FailureDigest())
}

func pending(_ items: Int64) -> EventPayload {
    .stateUpdate(pendingRecordZoneChanges: items, pendingDatabaseChanges: nil)
}

func importError(_ code: String) -> EventPayload {
    .error(phase: .import, error: SyncError(code: ErrorCode(name: InlineName(code)!)))
}

/// A monitor fed with every output, in order, at the events' own times.
struct Fed {
    var monitor = Monitor()

    mutating func feed(_ output: SyncthingOutput) {
        for event in output.events { self.monitor.apply(event, at: event.time!, connection: 1) }
    }

    func summary(_ folder: String = "shared", at time: Double) -> Summary? {
        self.monitor.evaluate(PairKey(engine: InlineName("st")!, database: Database(folder)!), at: t(time))?.summary
    }
}
