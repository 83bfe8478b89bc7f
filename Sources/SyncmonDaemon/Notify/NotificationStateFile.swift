import FoundationEssentials
import SyncmonContract
import SyncmonCore

/// Where the notification routes remember what they sent and owe across restarts and crashes
/// (docs/notifications.md): `<state-dir>/notify.json`, every route's state by name, written
/// atomically before a decided delivery is attempted and after each outcome.
struct NotificationStateFile: Sendable {
    let path: String

    init(stateDirectory: String) {
        self.path = stateDirectory + "/notify.json"
    }

    /// The file's layout.
    struct Document: Codable, Equatable, Sendable {
        var version = 1
        var routes: [String: NotificationRouteState]
    }

    /// The saved routes; `nil` when there is no file, a failure when it cannot be read.
    func load() -> Result<[String: NotificationRouteState], any Error>? {
        guard let data = FileManager.default.contents(atPath: self.path) else { return nil }
        do {
            let document = try JSONDecoder().decode(Document.self, from: data)
            guard document.version == 1 else { throw NotificationStateFileError(message: "version \(document.version) is not 1") }
            return .success(document.routes)
        } catch {
            return .failure(error)
        }
    }

    func save(_ routes: [String: NotificationRouteState]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var bytes = Array(try encoder.encode(Document(routes: routes)))
        bytes.append(0x0A)
        try AtomicFile.write(bytes, to: self.path)
    }
}

/// A state file that is not this version's.
struct NotificationStateFileError: Error, CustomStringConvertible {
    var message: String
    var description: String { self.message }
}
