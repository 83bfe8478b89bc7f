import Foundation
import SyncmonTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A stand-in for the daemon's push socket: listens on a Unix socket path, accepts one
/// connection at a time and records every line, per connection. Like the daemon, when the
/// client closes its side it closes its own.
final class LineRecorder: @unchecked Sendable {
    let path: String
    /// Guards everything below.
    private let lock = NSLock()
    private var recorded: [[String]] = []
    /// Per connection: whether the client closed its writing side (EOF seen).
    private var ends: [Bool] = []
    private var listener: Int32
    private var connection: Int32 = -1
    private let thread: Thread
    /// Whether the recorder closes a connection once the client closed its side (as the
    /// daemon does); `false` keeps it open until `stop()`, as a stuck daemon would.
    private let closesOnEOF: Bool

    /// Listens on `path` (removing a stale socket file first).
    init(path: String, closesOnEOF: Bool = true) throws {
        self.closesOnEOF = closesOnEOF
        unlink(path)
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw TestSupportError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8)
            raw[path.utf8.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw TestSupportError("bind/listen \(path): \(String(cString: strerror(errno)))")
        }
        self.path = path
        self.listener = descriptor
        let box = WeakBox()
        self.thread = Thread { box.recorder?.acceptLoop(descriptor) }
        box.recorder = self
        self.thread.start()
    }

    deinit { self.stop() }

    /// The lines of each connection so far.
    var connections: [[String]] {
        self.lock.withLock { self.recorded }
    }

    /// Whether the client half-closed connection `index` (a graceful stop).
    func clientClosed(_ index: Int) -> Bool {
        self.lock.withLock { index < self.ends.count && self.ends[index] }
    }

    /// Every line of every connection, in order.
    var allLines: [String] { self.connections.flatMap { $0 } }

    /// Stops listening and drops the current connection, as a daemon that exits; the socket
    /// file is removed, so connecting fails until a new recorder listens on the path.
    func stop() {
        let (listener, connection) = self.lock.withLock { () -> (Int32, Int32) in
            defer {
                self.listener = -1
                self.connection = -1
            }
            return (self.listener, self.connection)
        }
        if connection >= 0 { shutdown(connection, Int32(SHUT_RDWR)) }
        if listener >= 0 {
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
            unlink(self.path)
        }
    }

    private func acceptLoop(_ listener: Int32) {
        while true {
            let descriptor = accept(listener, nil, nil)
            if descriptor < 0 {
                if errno == EINTR { continue }
                return
            }
            let index = self.lock.withLock { () -> Int in
                self.recorded.append([])
                self.ends.append(false)
                self.connection = descriptor
                return self.recorded.count - 1
            }
            self.read(descriptor, into: index)
            while !self.closesOnEOF, self.lock.withLock({ self.listener >= 0 }) { usleep(10_000) }
            close(descriptor)
            let stopped = self.lock.withLock { self.listener < 0 }
            if stopped { return }
        }
    }

    private func read(_ descriptor: Int32, into index: Int) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 {
                self.lock.withLock { self.ends[index] = count == 0 }
                return
            }
            pending += buffer[0..<count]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                self.lock.withLock { self.recorded[index].append(line) }
            }
        }
    }
}

/// Lets the accept thread reach the recorder without keeping it alive.
private final class WeakBox: @unchecked Sendable {
    weak var recorder: LineRecorder?
}
