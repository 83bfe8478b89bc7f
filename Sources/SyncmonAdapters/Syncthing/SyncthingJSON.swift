// Foundation's JSONDecoder (its Essentials part, no ICU) instead of the core's allocation-free
// scanner: Syncthing's traffic is tiny (tens of events a second at most, a snapshot now and then)
// and its JSON is nested and open-ended, so plain `Decodable` types are the clearer tool here.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The parts of Syncthing's REST JSON (1.19 and later) the adapter reads; every other key is
/// ignored, and keys Syncthing may leave out are optional.
///
/// Shapes, per `syncthing/syncthing @ v1.19.2`, are listed in docs/syncthing.md and were checked
/// against two real 1.19.2 instances (Tests/Fixtures/syncthing/).
enum SyncthingJSON {
    static func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8]) throws(SyncthingAdapterError) -> Value {
        do {
            return try JSONDecoder().decode(type, from: Data(bytes))
        } catch {
            throw .undecodable(what: String(describing: Value.self), detail: Self.describe(error))
        }
    }

    /// What went wrong, by position only: the answers hold file names, and `ConfigSaved` and
    /// `/rest/config` hold the GUI's API key in clear, so no value from a body reaches a message.
    static func describe(_ error: any Error) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "at the top" : "at \(keys)"
        }
        switch error as? DecodingError {
        case .typeMismatch(let type, let context): return "not a \(type) \(path(context))"
        case .valueNotFound(let type, let context): return "no \(type) \(path(context))"
        case .keyNotFound(let key, let context): return "no key \"\(key.stringValue)\" \(path(context))"
        case .dataCorrupted(let context): return "not JSON \(path(context))"
        default: return "not JSON"
        }
    }

    /// `GET /rest/system/status`: who this Syncthing is and when it started.
    struct SystemStatus: Decodable {
        var myID: String
        /// Whole seconds (`2026-11-24T02:07:40Z`); it changes when Syncthing restarts.
        var startTime: String
    }

    /// `GET /rest/system/connections` (the 1.19 format: every configured device, the local one
    /// as not connected).
    struct Connections: Decodable {
        struct Connection: Decodable {
            var connected: Bool?
            var paused: Bool?
        }

        var connections: [String: Connection]
    }

    /// `GET /rest/config`, and the data of a `ConfigSaved` event (the same object).
    struct Config: Decodable, Equatable {
        struct Folder: Decodable, Equatable {
            struct Device: Decodable, Equatable {
                var deviceID: String
            }

            var id: String
            var label: String?
            /// `sendreceive`, `sendonly`, `receiveonly`, `receiveencrypted`.
            var type: String?
            var paused: Bool?
            var devices: [Device]?
        }

        struct Device: Decodable, Equatable {
            var deviceID: String
            var name: String?
            var paused: Bool?
        }

        var folders: [Folder]?
        var devices: [Device]?
    }

    /// `GET /rest/db/status?folder=`, and the `summary` of a `FolderSummary` event.
    ///
    /// A paused or stopped folder answers all zeros with `state: ""`: not "in sync".
    struct FolderStatus: Decodable {
        var state: String?
        var needTotalItems: Int64?
        /// Scan and pull errors of the folder (`pullErrors` is the deprecated spelling).
        var errors: Int64?
        var pullErrors: Int64?
        /// The folder error's text while `state` is `error`.
        var error: String?

        var errorCount: Int64 { max(self.errors ?? 0, self.pullErrors ?? 0) }
    }

    /// `GET /rest/db/completion?folder=&device=`, and the data of a `FolderCompletion` event:
    /// how much of the folder a remote device still needs from the cluster.
    struct Completion: Decodable {
        var folder: String?
        var device: String?
        /// Percent; Syncthing forces 95 when only deletes are needed.
        var completion: Double
        var needItems: Int64?
        var needDeletes: Int64?
        var needBytes: Int64?
    }

    /// One failed item of a pull (`FolderErrors`, `/rest/folder/errors`).
    struct PathError: Decodable {
        var path: String?
        var error: String?
    }

    /// `GET /rest/folder/errors?folder=`: `errors` is `null` when there are none.
    struct FolderErrors: Decodable {
        var folder: String?
        var errors: [PathError]?
    }

    /// A value whose content does not matter, only its presence.
    struct Ignored: Decodable {
        init(from decoder: any Decoder) throws {}
    }
}
