/// The REST answers one snapshot is made of, collected by the I/O side one request at a time.
///
/// ```swift
/// var snapshot = adapter.makeSnapshot()
/// while let request = snapshot.nextRequest {
///     try snapshot.record(request, body: try await get(request.path))   // any failure: start over
/// }
/// let output = adapter.ingest(snapshot: snapshot, at: now)
/// ```
///
/// The requests depend on earlier answers (the configuration names the folders, the folders name
/// their devices), so they come one by one: `/rest/system/status`, the latest event id when the
/// adapter needs one (at its start, and after a restart), `/rest/system/connections`,
/// `/rest/config`, then for each folder syncmon reports and that is not paused `/rest/db/status`,
/// `/rest/folder/errors` and `/rest/db/completion` for each remote device sharing it. A request that
/// fails (transport, HTTP status, a folder removed meanwhile) abandons the snapshot: take a new one.
public struct SyncthingSnapshot: Sendable {
    /// The `startTime` the adapter knows, `nil` before its first snapshot.
    let knownStartTime: String?
    /// The adapter's `since` cannot be trusted (its start, ids that went backwards).
    let catchUpRequired: Bool

    private(set) var status: SyncthingJSON.SystemStatus? = nil
    /// The id of the latest event of the mask, when it was asked for (`0`: none yet).
    private(set) var latestEventID: Int? = nil
    private(set) var connections: SyncthingJSON.Connections? = nil
    private(set) var config: SyncthingJSON.Config? = nil
    private(set) var folderStatus: [String: SyncthingJSON.FolderStatus] = [:]
    private(set) var folderErrors: [String: [SyncthingJSON.PathError]] = [:]
    private(set) var completions: [String: [String: SyncthingJSON.Completion]] = [:]

    init(knownStartTime: String?, catchUpRequired: Bool) {
        self.knownStartTime = knownStartTime
        self.catchUpRequired = catchUpRequired
    }

    /// Syncthing restarted since the adapter's last snapshot (`startTime` changed).
    var restarted: Bool {
        guard let known = self.knownStartTime, let status = self.status else { return false }
        return known != status.startTime
    }

    /// Whether the latest event id is part of this snapshot.
    var needsLatestEvent: Bool {
        self.catchUpRequired || self.knownStartTime == nil || self.restarted
    }

    /// The next request to make; `nil` once the snapshot is complete.
    public var nextRequest: SyncthingRequest? {
        guard let status = self.status else { return .systemStatus }
        if self.needsLatestEvent, self.latestEventID == nil { return .latestEvent }
        if self.connections == nil { return .connections }
        guard self.config != nil else { return .config }
        for folder in self.queriedFolders {
            if self.folderStatus[folder.id] == nil { return .folderStatus(folder: folder.id) }
            if self.folderErrors[folder.id] == nil { return .folderErrors(folder: folder.id) }
            for device in folder.remoteDevices(excluding: status.myID) where self.completions[folder.id]?[device] == nil {
                return .completion(folder: folder.id, device: device)
            }
        }
        return nil
    }

    /// Whether every answer is in.
    public var isComplete: Bool { self.nextRequest == nil }

    /// Takes the body of a `200` answer to `request` (which must be `nextRequest`).
    public mutating func record(_ request: SyncthingRequest, body: [UInt8]) throws(SyncthingAdapterError) {
        guard request == self.nextRequest else { throw .unexpectedAnswer(request) }
        do {
            switch request {
            case .systemStatus:
                self.status = try SyncthingJSON.decode(SyncthingJSON.SystemStatus.self, from: body)
            case .latestEvent:
                self.latestEventID = try SyncthingJSON.decode([SyncthingEvent].self, from: body).last?.id ?? 0
            case .connections:
                self.connections = try SyncthingJSON.decode(SyncthingJSON.Connections.self, from: body)
            case .config:
                self.config = try SyncthingJSON.decode(SyncthingJSON.Config.self, from: body)
            case .folderStatus(let folder):
                self.folderStatus[folder] = try SyncthingJSON.decode(SyncthingJSON.FolderStatus.self, from: body)
            case .folderErrors(let folder):
                self.folderErrors[folder] = try SyncthingJSON.decode(SyncthingJSON.FolderErrors.self, from: body).errors ?? []
            case .completion(let folder, let device):
                self.completions[folder, default: [:]][device] = try SyncthingJSON.decode(SyncthingJSON.Completion.self, from: body)
            }
        } catch {
            guard case .undecodable(_, let detail) = error else { throw error }
            throw .undecodable(what: request.path, detail: detail)
        }
    }

    /// Folders whose state is asked for: valid ids, not paused (a paused folder answers zeros).
    private var queriedFolders: [SyncthingJSON.Config.Folder] {
        (self.config?.folders ?? []).filter { SyncthingAdapter.database(forFolder: $0.id) != nil && !($0.paused ?? false) }
    }
}

extension SyncthingJSON.Config.Folder {
    /// The devices sharing this folder other than the local one, in configuration order.
    func remoteDevices(excluding local: String) -> [String] {
        (self.devices ?? []).map(\.deviceID).filter { $0 != local }
    }
}
