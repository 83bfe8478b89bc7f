import Glibc
import SyncmonLock

/// Writes log lines straight to a file descriptor with `write(2)`, one line at a time.
///
/// It bypasses stdio so a line is on its way when `write(line:)` returns (no buffer left to flush on a crash), and a
/// lock keeps lines from different threads from interleaving even when one line takes several `write` calls.
package final class FileDescriptorLineWriter: LogLineWriter {
    /// The writer for the process's standard error; every stderr handler shares it, and so its lock.
    package static let standardError = FileDescriptorLineWriter(fileDescriptor: STDERR_FILENO)

    /// How long to wait for a non-blocking descriptor to drain before dropping the rest of a line, in milliseconds.
    private static let drainTimeoutMilliseconds: Int32 = 1_000

    /// The descriptor written to; not owned, never closed.
    private let fileDescriptor: Int32

    /// Serialises writers so each line goes out whole.
    private let lock = Locked<Void>(())

    /// Creates a writer for `fileDescriptor`, which the caller keeps open.
    package init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    package func write(line: String) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        self.lock.withLock { _ in
            bytes.withUnsafeBytes { self.writeAll($0) }
        }
    }

    /// Writes every byte, retrying interrupted and partial writes.
    ///
    /// Stderr is the last resort for a log line, so a failure here has nowhere to be reported: the rest of the line
    /// is dropped rather than blocking the caller forever.
    private func writeAll(_ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress else { return }
        var offset = 0
        while offset < buffer.count {
            let written = Glibc.write(self.fileDescriptor, base + offset, buffer.count - offset)
            if written > 0 {
                offset += written
                continue
            }
            if written < 0 && errno == EINTR {
                continue
            }
            if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && self.waitUntilWritable() {
                continue
            }
            return
        }
    }

    /// Waits until a non-blocking descriptor takes more bytes; false on timeout or error.
    private func waitUntilWritable() -> Bool {
        var descriptor = pollfd(fd: self.fileDescriptor, events: Int16(POLLOUT), revents: 0)
        while true {
            let ready = poll(&descriptor, 1, Self.drainTimeoutMilliseconds)
            if ready < 0 && errno == EINTR { continue }
            return ready > 0 && descriptor.revents & Int16(POLLOUT) != 0
        }
    }
}
