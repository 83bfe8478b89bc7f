/// One entry of a `/rest/events` answer, reduced to what the mapping reads.
///
/// Envelope: `{"id", "globalID", "time", "type", "data"}`; `id` counts per subscription (per
/// event mask) from 1 and restarts with Syncthing. Types outside `SyncthingAdapter.eventMask`
/// (a poll with another mask, a recording) decode as `ignored`; a known type whose `data` does not
/// have the expected shape decodes as `malformed` so that one odd event never loses a batch.
struct SyncthingEvent: Decodable {
    var id: Int
    /// Syncthing's RFC 3339 time of the event (nanoseconds, the host's offset).
    var time: String?
    var payload: Payload

    enum Payload {
        case stateChanged(folder: String, from: String?, to: String, error: String?)
        case folderSummary(folder: String, summary: SyncthingJSON.FolderStatus)
        case folderCompletion(SyncthingJSON.Completion)
        case folderErrors(folder: String, errors: [SyncthingJSON.PathError])
        case folderPaused(folder: String)
        case folderResumed(folder: String)
        case deviceConnected(device: String)
        case deviceDisconnected(device: String)
        case devicePaused(device: String)
        case deviceResumed(device: String)
        /// A pulled item; `error` is `nil` when it succeeded.
        case itemFinished(folder: String, action: String?, error: String?)
        /// The folders with downloads in flight (the final, empty event names none).
        case downloadProgress(folders: [String])
        /// A remote device reports its download of our files; `active` unless its state is empty.
        case remoteDownloadProgress(folder: String, device: String, active: Bool)
        case localIndexUpdated(folder: String)
        case configSaved(SyncthingJSON.Config)
        case ignored(type: String)
        case malformed(type: String)
    }

    private enum CodingKeys: String, CodingKey {
        case id, time, type, data
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.id = try container.decode(Int.self, forKey: .id)
        self.time = try? container.decodeIfPresent(String.self, forKey: .time)
        let type = try container.decode(String.self, forKey: .type)
        func data<Data: Decodable>(_ shape: Data.Type) -> Data? {
            try? container.decode(shape, forKey: .data)
        }
        let payload: Payload?
        switch type {
        case "StateChanged":
            payload = data(StateChanged.self).map { .stateChanged(folder: $0.folder, from: $0.from, to: $0.to, error: $0.error) }
        case "FolderSummary":
            payload = data(FolderSummary.self).map { .folderSummary(folder: $0.folder, summary: $0.summary) }
        case "FolderCompletion":
            payload = data(SyncthingJSON.Completion.self).flatMap { $0.folder != nil && $0.device != nil ? .folderCompletion($0) : nil }
        case "FolderErrors":
            payload = data(SyncthingJSON.FolderErrors.self).flatMap { errors in
                errors.folder.map { .folderErrors(folder: $0, errors: errors.errors ?? []) }
            }
        case "FolderPaused":
            payload = data(FolderID.self).map { .folderPaused(folder: $0.id) }
        case "FolderResumed":
            payload = data(FolderID.self).map { .folderResumed(folder: $0.id) }
        case "DeviceConnected":
            payload = data(DeviceByID.self).map { .deviceConnected(device: $0.id) }
        case "DeviceDisconnected":
            payload = data(DeviceByID.self).map { .deviceDisconnected(device: $0.id) }
        case "DevicePaused":
            payload = data(DeviceByName.self).map { .devicePaused(device: $0.device) }
        case "DeviceResumed":
            payload = data(DeviceByName.self).map { .deviceResumed(device: $0.device) }
        case "ItemFinished":
            payload = data(ItemFinished.self).map { .itemFinished(folder: $0.folder, action: $0.action, error: $0.error) }
        case "DownloadProgress":
            // {folder: {file: progress}}; `data` may also be null or {} once all is done.
            let folders = (try? container.decodeIfPresent([String: [String: SyncthingJSON.Ignored]].self, forKey: .data)) ?? nil
            payload = .downloadProgress(folders: (folders ?? [:]).filter { !$0.value.isEmpty }.keys.sorted())
        case "RemoteDownloadProgress":
            payload = data(RemoteDownloadProgress.self).map {
                .remoteDownloadProgress(folder: $0.folder, device: $0.device, active: !($0.state ?? [:]).isEmpty)
            }
        case "LocalIndexUpdated":
            payload = data(FolderField.self).map { .localIndexUpdated(folder: $0.folder) }
        case "ConfigSaved":
            payload = data(SyncthingJSON.Config.self).map { .configSaved($0) }
        default:
            payload = .ignored(type: type)
        }
        self.payload = payload ?? .malformed(type: type)
    }

    /// The event types the adapter reads, as `/rest/events?events=` names them.
    static let mappedTypes = [
        "StateChanged", "FolderSummary", "FolderCompletion", "FolderErrors", "FolderPaused", "FolderResumed",
        "DeviceConnected", "DeviceDisconnected", "DevicePaused", "DeviceResumed", "ItemFinished",
        "DownloadProgress", "RemoteDownloadProgress", "LocalIndexUpdated", "ConfigSaved",
    ]

    private struct StateChanged: Decodable {
        var folder: String
        var from: String?
        var to: String
        var error: String?
    }

    private struct FolderSummary: Decodable {
        var folder: String
        var summary: SyncthingJSON.FolderStatus
    }

    private struct FolderID: Decodable {
        var id: String
    }

    private struct DeviceByID: Decodable {
        var id: String
    }

    private struct DeviceByName: Decodable {
        var device: String
    }

    private struct ItemFinished: Decodable {
        var folder: String
        var action: String?
        var error: String?
    }

    private struct RemoteDownloadProgress: Decodable {
        var folder: String
        var device: String
        var state: [String: SyncthingJSON.Ignored]?
    }

    private struct FolderField: Decodable {
        var folder: String
    }
}
