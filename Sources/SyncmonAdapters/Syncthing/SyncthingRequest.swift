/// A REST `GET` the I/O side makes for a snapshot (`SyncthingSnapshot.nextRequest`), with its
/// path and query ready to append to the base URL. Every request needs the `X-API-Key` header.
public enum SyncthingRequest: Hashable, Sendable, CustomStringConvertible {
    /// `/rest/system/status`: `myID` and `startTime` (a new `startTime` is a restart).
    case systemStatus
    /// `/rest/events?since=0&limit=1&timeout=0&events=…`: the latest event id of the adapter's
    /// event mask, so that polling resumes after it instead of replaying the buffer (asked for
    /// only at the adapter's start, after a restart, and after event ids went backwards).
    case latestEvent
    /// `/rest/system/connections`: which devices are connected.
    case connections
    /// `/rest/config`: folders (id, type, paused, devices) and devices (paused).
    case config
    /// `/rest/db/status?folder=`: the folder's state, its need, its error count.
    case folderStatus(folder: String)
    /// `/rest/folder/errors?folder=`: the items the last pull could not complete.
    case folderErrors(folder: String)
    /// `/rest/db/completion?folder=&device=`: how much of the folder a remote device has.
    case completion(folder: String, device: String)

    /// The path and query, percent-encoded.
    public var path: String {
        switch self {
        case .systemStatus: "/rest/system/status"
        case .latestEvent: "/rest/events?since=0&limit=1&timeout=0&events=\(SyncthingAdapter.eventMask)"
        case .connections: "/rest/system/connections"
        case .config: "/rest/config"
        case .folderStatus(let folder): "/rest/db/status?folder=\(Self.encoded(folder))"
        case .folderErrors(let folder): "/rest/folder/errors?folder=\(Self.encoded(folder))"
        case .completion(let folder, let device): "/rest/db/completion?folder=\(Self.encoded(folder))&device=\(Self.encoded(device))"
        }
    }

    public var description: String { "GET \(self.path)" }

    /// Percent-encodes all but RFC 3986's unreserved characters. Folder ids reaching a request
    /// already passed the name rule and device ids are base32 with dashes, so this never fires on
    /// Syncthing's own values; it keeps a hand-edited config from breaking the query.
    static func encoded(_ value: String) -> String {
        var result = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                result.unicodeScalars.append("%")
                result.unicodeScalars.append(digits[Int(byte >> 4)])
                result.unicodeScalars.append(digits[Int(byte & 0x0F)])
            }
        }
        return result
    }
}
