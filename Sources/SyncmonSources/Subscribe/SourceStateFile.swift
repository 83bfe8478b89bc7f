import FoundationEssentials

#if canImport(Glibc)
import Glibc
import SyncmonContract
#endif

/// Where a source remembers its position across restarts: `<state-dir>/sources/<name>.offset`
/// for `file:` sources (device, inode, offset), `<name>.resume` for `http://` sources (last
/// event ID, highest `seq`). Written atomically (write, fsync, rename, fsync the directory).
struct SourceStateFile<Document: Codable & Equatable & Sendable>: Sendable {
    let path: String

    init(stateDirectory: String, name: String, suffix: String) {
        self.path = stateDirectory + "/sources/" + name + "." + suffix
    }

    /// The saved document; `nil` when missing or unreadable (an unreadable one is logged by the caller).
    func load() -> Result<Document, any Error>? {
        guard let data = FileManager.default.contents(atPath: self.path) else { return nil }
        do {
            return .success(try JSONDecoder().decode(Document.self, from: data))
        } catch {
            return .failure(error)
        }
    }

    func save(_ document: Document) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var bytes = Array(try encoder.encode(document))
        bytes.append(0x0A)
        try AtomicFile.write(bytes, to: self.path)
    }
}

/// The position of a followed file (`file:` sources).
struct FileOffsetDocument: Codable, Equatable, Sendable {
    var version = 1
    var path: String
    var device: UInt64
    var inode: UInt64
    /// The start of the first line not yet applied.
    var offset: Int64
}

/// The resume point of an HTTP stream (`http://` sources).
struct StreamResumeDocument: Codable, Equatable, Sendable {
    var version = 1
    var url: String
    var lastEventID: String?
    var since: Int64?
    /// `sse` or `ndjson`: what the stream answered last.
    var kind: String?
}
