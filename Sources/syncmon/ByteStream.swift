#if canImport(Glibc)
import Glibc
#endif

/// Reads a file or standard input in large chunks, without Foundation.
enum ByteStream {
    /// A read failed; the message names the path and the system's reason.
    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    /// Calls `body` with successive chunks of `path` ('-' for standard input).
    static func read(path: String, chunkSize: Int = 1 << 20, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ReadError(description: "cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, chunkSize)
            if count == 0 { return }
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadError(description: "cannot read \(path): \(String(cString: strerror(errno)))")
            }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// Calls `body` with the whole of `path` mapped into memory and returns `true`; returns
    /// `false` (and does not call `body`) for standard input or anything but a regular file,
    /// which are read in chunks instead. A file that cannot be opened throws as `read` does.
    static func withMapped(path: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        guard path != "-" else { return false }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ReadError(description: "cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 else { return false }
        let size = Int(status.st_size)
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else { return false }
        defer { munmap(address, size) }
        // Read front to back (by each worker of a parallel replay): ask for read-ahead of the
        // whole file. One advice per call: the values are not flags (`SEQUENTIAL | WILLNEED`
        // was `WILLNEED` alone), and `SEQUENTIAL` would let the kernel drop pages that the
        // other worker has yet to read.
        madvise(address, size, MADV_WILLNEED)
        try body(UnsafeRawBufferPointer(start: address, count: size))
        return true
    }
}
