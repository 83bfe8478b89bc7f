#if canImport(Glibc)
import Glibc
#endif

/// Where a Syncthing source's API key comes from (docs/syncthing.md, "The API key"): the file
/// `$CREDENTIALS_DIRECTORY/NAME` that systemd's `LoadCredential=NAME:/path` provides, else the
/// `api-key-file` of the `[source NAME]` section. Never from the command line, where `ps` shows
/// it; the key is read when the source connects and is never logged.
struct SyncthingCredential: Sendable, Equatable {
    /// The file the key is read from.
    let path: String

    /// Why no key file could be chosen.
    struct Missing: Error, CustomStringConvertible {
        let source: String
        var description: String {
            "no API key for Syncthing source \(self.source): give it with systemd's LoadCredential=\(self.source):/path/to/key, "
                + "or api-key-file = /path/to/key in a [source \(self.source)] section of the configuration file"
        }
    }

    /// The key file for source `name`: the credential directory's file when it exists, else the
    /// configured `api-key-file`.
    static func locate(
        source name: String,
        settings: SourceSettings?,
        credentialsDirectory: String?,
        fileExists: (String) -> Bool = { access($0, F_OK) == 0 }
    ) throws(Missing) -> SyncthingCredential {
        if let directory = credentialsDirectory, !directory.isEmpty {
            let path = directory + "/" + name
            if fileExists(path) { return SyncthingCredential(path: path) }
        }
        if let file = settings?.apiKeyFile { return SyncthingCredential(path: file) }
        throw Missing(source: name)
    }

    /// Reads the key: the file's first line, without surrounding white space.
    func read() throws(SyncthingSourceError) -> String {
        let descriptor = open(self.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SyncthingSourceError("cannot read the API key file \(self.path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65_536 {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        let firstLine = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).first ?? []
        let key = String(decoding: firstLine, as: UTF8.self).trimmingCharacters(in: " \t\r")
        guard !key.isEmpty else { throw SyncthingSourceError("the API key file \(self.path) is empty") }
        return key
    }
}

/// A Syncthing source's failure, as its health line and log say it.
struct SyncthingSourceError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var view = Substring(self)
        while let first = view.first, set.contains(first) { view.removeFirst() }
        while let last = view.last, set.contains(last) { view.removeLast() }
        return String(view)
    }
}
