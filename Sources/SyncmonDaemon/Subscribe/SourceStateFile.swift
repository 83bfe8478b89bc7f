import FoundationEssentials

#if canImport(Glibc)
import Glibc
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

enum AtomicFile {
    /// Writes `bytes` to `path` so that a crash leaves the old file or the new one, never half.
    static func write(_ bytes: [UInt8], to path: String) throws {
        try PushIngestService.prepareDirectory(of: path)
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw DaemonError("cannot write \(temporary): \(String(cString: strerror(errno)))") }
        var failure: String?
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        close(descriptor)
        if let failure {
            unlink(temporary)
            throw DaemonError("cannot write \(temporary): \(failure)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw DaemonError("cannot rename \(temporary): \(reason)")
        }
        if let slash = path.lastIndex(of: "/") {
            let directory = open(String(path[..<slash]), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if directory >= 0 {
                fsync(directory)
                close(directory)
            }
        }
    }
}
