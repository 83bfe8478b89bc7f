#if canImport(Glibc)
import Glibc
#endif

/// Files written whole or not at all: write a temporary, fsync, rename, fsync the directory.
/// The daemon's state file and the sources' own (a stream's resume point, a canary's `seq`).
package enum AtomicFile {
    /// Why a write failed, in words naming the file.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Writes `bytes` to `path` so that a crash leaves the old file or the new one, never half.
    package static func write(_ bytes: [UInt8], to path: String) throws {
        try self.write(to: path) { output in bytes.withUnsafeBytes { output.append($0) } }
    }

    /// Writes what `produce` appends to `path`, as `write(_:to:)` does, a piece at a time: a
    /// large file (the state of 10,000 pairs) is never held in memory whole.
    package static func write(to path: String, _ produce: (inout Output) throws -> Void) throws {
        try Self.prepareDirectory(of: path)
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(description: "cannot write \(temporary): \(String(cString: strerror(errno)))") }
        var output = Output(descriptor: descriptor)
        var failure: String?
        do {
            try produce(&output)
            output.flush()
            failure = output.failure
        } catch {
            failure = "\(error)"
        }
        if failure == nil, fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        close(descriptor)
        if let failure {
            unlink(temporary)
            throw Failure(description: "cannot write \(temporary): \(failure)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Failure(description: "cannot rename \(temporary): \(reason)")
        }
        if let slash = path.lastIndex(of: "/") {
            let directory = open(String(path[..<slash]), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if directory >= 0 {
                fsync(directory)
                close(directory)
            }
        }
    }

    /// The temporary file being written: appended bytes gather in a buffer written out at
    /// 256 KiB. After the first failed write the rest is dropped and the failure kept.
    package struct Output {
        fileprivate let descriptor: Int32
        private var buffer: [UInt8] = []
        fileprivate private(set) var failure: String?
        /// Bytes appended so far.
        package private(set) var count = 0
        private static let pieceSize = 256 * 1024

        fileprivate init(descriptor: Int32) {
            self.descriptor = descriptor
            self.buffer.reserveCapacity(Self.pieceSize)
        }

        package mutating func append(_ bytes: UnsafeRawBufferPointer) {
            self.count += bytes.count
            self.buffer.append(contentsOf: bytes)
            if self.buffer.count >= Self.pieceSize { self.flush() }
        }

        /// The document's own punctuation and keys, spelled in the source.
        package mutating func append(_ text: StaticString) {
            self.append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }

        fileprivate mutating func flush() {
            defer { self.buffer.removeAll(keepingCapacity: true) }
            guard self.failure == nil else { return }
            self.buffer.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = Glibc.write(self.descriptor, raw.baseAddress! + offset, raw.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        self.failure = String(cString: strerror(errno))
                        return
                    }
                    offset += written
                }
            }
        }
    }

    /// Creates the directory of `path` (0755, and its parents) when it does not exist yet. A
    /// relative path stays relative to the working directory.
    package static func prepareDirectory(of path: String) throws {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
        let directory = String(path[..<slash])
        let root = directory.hasPrefix("/") ? "/" : ""
        var components: [Substring] = []
        for component in directory.split(separator: "/") {
            components.append(component)
            let partial = root + components.joined(separator: "/")
            if mkdir(partial, 0o755) != 0, errno != EEXIST {
                throw DirectoryCreationError(path: partial, code: errno)
            }
        }
    }
}
