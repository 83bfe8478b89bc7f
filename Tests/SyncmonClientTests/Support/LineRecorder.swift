import Foundation
import SyncmonSockets
import SyncmonTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A stand-in for the daemon's push socket: listens on a Unix socket path, accepts one
/// connection at a time and records every line, per connection. Like the daemon, when the
/// client closes its side it closes its own.
final class LineRecorder: @unchecked Sendable {
    let path: String
    /// Guards everything below; signalled when the recorder stops.
    private let lock = NSCondition()
    private var recorded: [[String]] = []
    /// Per connection: whether the client closed its writing side (EOF seen).
    private var ends: [Bool] = []
    /// `nil` once stopped.
    private var listener: BlockingSocket?
    private var connection: BlockingSocket?
    private let thread: Thread
    /// Whether the recorder closes a connection once the client closed its side (as the
    /// daemon does); `false` keeps it open until `stop()`, as a stuck daemon would.
    private let closesOnEOF: Bool

    /// Listens on `path` (removing a stale socket file first).
    init(path: String, closesOnEOF: Bool = true) throws {
        self.closesOnEOF = closesOnEOF
        let listener = try BlockingSocket.listen(on: .unix(path: path), backlog: 16)
        self.path = path
        self.listener = listener
        let box = WeakBox()
        self.thread = Thread { box.recorder?.acceptLoop(listener) }
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
        let (listener, connection) = self.lock.withLock { () -> (BlockingSocket?, BlockingSocket?) in
            defer {
                self.listener = nil
                self.connection = nil
            }
            return (self.listener, self.connection)
        }
        self.lock.withLock { self.lock.broadcast() }
        connection?.shutdown()
        if let listener {
            // Wakes the accept loop, which then ends.
            listener.shutdown()
            listener.close()
            unlink(self.path)
        }
    }

    private func acceptLoop(_ listener: BlockingSocket) {
        while let connection = try? listener.accept() {
            let index = self.lock.withLock { () -> Int in
                self.recorded.append([])
                self.ends.append(false)
                self.connection = connection
                return self.recorded.count - 1
            }
            self.read(connection, into: index)
            if !self.closesOnEOF { self.waitForStop() }
            connection.close()
            let stopped = self.lock.withLock { self.listener == nil }
            if stopped { return }
        }
    }

    /// Blocks the accept thread until `stop()`: a connection held open, as a stuck daemon holds it.
    private func waitForStop() {
        self.lock.withLock {
            while self.listener != nil { self.lock.wait() }
        }
    }

    private func read(_ connection: BlockingSocket, into index: Int) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = (try? connection.receive(into: &buffer)) ?? -1
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
