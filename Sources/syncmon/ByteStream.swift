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
}
