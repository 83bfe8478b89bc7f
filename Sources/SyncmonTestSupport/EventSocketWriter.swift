import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An engine's side of the push socket: connects to the daemon's Unix stream socket and writes
/// event lines (or arbitrary bytes) on one connection until closed.
public final class EventSocketWriter: @unchecked Sendable {
    private var descriptor: Int32
    public let path: String

    /// Connects to `path`.
    public init(path: String) throws {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw TestSupportError("socket: \(String(cString: strerror(errno)))") }
        do {
            try UnixAddress.withAddress(path) { address, length in
                guard connect(descriptor, address, length) == 0 else {
                    throw TestSupportError("connect \(path): \(String(cString: strerror(errno)))")
                }
            }
        } catch {
            Glibc.close(descriptor)
            throw error
        }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        self.descriptor = descriptor
        self.path = path
    }

    deinit { self.close() }

    /// Writes all of `bytes`.
    public func write(_ bytes: [UInt8]) throws {
        guard self.descriptor >= 0 else { throw TestSupportError("write on a closed connection") }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.send(self.descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if written < 0 {
                if errno == EINTR { continue }
                throw TestSupportError("send to \(self.path): \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }

    /// Writes `text` as UTF-8.
    public func write(_ text: String) throws { try self.write(Array(text.utf8)) }

    /// Writes each line followed by `\n`.
    public func write(lines: [String]) throws {
        try self.write(lines.map { $0 + "\n" }.joined())
    }

    /// Writes one event line built from a JSON object (`v: 1` is added when missing).
    public func send(_ event: [String: Any]) throws {
        try self.write(lines: [try EventLine.json(event)])
    }

    /// Waits until the daemon closes its end (the daemon never writes, so readable means EOF
    /// or a reset); `false` when it is still open after `timeout`.
    public func waitForPeerClose(timeout: Duration = .seconds(5)) async -> Bool {
        await Polling.until(timeout: timeout, interval: .milliseconds(10)) {
            guard self.descriptor >= 0 else { return true }
            var pollDescriptor = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&pollDescriptor, 1, 0) > 0 else { return false }
            var byte: UInt8 = 0
            return recv(self.descriptor, &byte, 1, Int32(MSG_DONTWAIT)) <= 0
        }
    }

    /// Closes the connection (the daemon sees EOF). Idempotent.
    public func close() {
        guard self.descriptor >= 0 else { return }
        Glibc.close(self.descriptor)
        self.descriptor = -1
    }

    /// Connects, writes `lines`, and closes: a one-shot sender.
    public static func send(lines: [String], to path: String) throws {
        let writer = try EventSocketWriter(path: path)
        defer { writer.close() }
        try writer.write(lines: lines)
    }
}

/// Builds protocol v1 event lines.
public enum EventLine {
    /// The line for a JSON object; `v: 1` is added when missing.
    public static func json(_ object: [String: Any]) throws -> String {
        var object = object
        if object["v"] == nil { object["v"] = 1 }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    /// `{"v":1,"engine":…,"type":…,…}` with `fields` merged in.
    public static func make(_ engine: String, _ type: String, _ fields: [String: Any] = [:]) -> String {
        var object = fields
        object["engine"] = engine
        object["type"] = type
        // Only JSON-compatible values are passed by the tests; a failure here is a test bug.
        return (try? self.json(object)) ?? "{}"
    }
}
