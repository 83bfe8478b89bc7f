import Foundation
import SyncmonSockets

#if canImport(Glibc)
import Glibc
#endif

/// A Unix datagram socket standing in for systemd's `NOTIFY_SOCKET`: it records every
/// datagram the daemon (or `SystemdNotifier` in process) sends (`READY=1`, `STATUS=…`,
/// `WATCHDOG=1`, …) with its arrival time, on a thread of its own, so a test can wait for a
/// message and later look at all of them. It binds a file or, as systemd may, an abstract name.
public final class NotifySocket: @unchecked Sendable {
    /// One datagram as received.
    public struct Datagram: Sendable, CustomStringConvertible {
        public var received: ContinuousClock.Instant
        public var text: String

        /// The `KEY=value` assignments it carries, one per line.
        public var assignments: [String] { self.text.split(separator: "\n").map(String.init) }

        /// Whether it carries exactly `assignment` (e.g. `READY=1`).
        public func contains(_ assignment: String) -> Bool { self.assignments.contains(assignment) }

        /// The value of `key` in it, if present.
        public func value(of key: String) -> String? {
            self.assignments.first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
        }

        public var description: String { self.text.replacingOccurrences(of: "\n", with: "\\n") }
    }

    /// Where it is bound; its description is what goes into `NOTIFY_SOCKET`.
    public let address: SocketAddress
    private let storage: Storage
    private let finished = DispatchSemaphore(value: 0)

    /// Binds `address` (a path must not exist) and starts receiving.
    public init(address: SocketAddress) throws {
        self.address = address
        let storage = Storage(socket: try BlockingSocket.bindDatagram(to: address))
        self.storage = storage
        let finished = self.finished
        let thread = Thread {
            storage.receiveLoop()
            finished.signal()
        }
        thread.name = "NotifySocket"
        thread.start()
    }

    /// Binds the socket file `path` (which must not exist) and starts receiving.
    public convenience init(path: String) throws {
        try self.init(address: .unix(path: path))
    }

    /// A socket of its own name, in the abstract namespace or as a file in `/tmp`.
    public static func temporary(abstract: Bool) throws -> NotifySocket {
        let name = "syncmon-notify-\(getpid())-\(UUID().uuidString.prefix(8))"
        return try NotifySocket(address: abstract ? .abstract(name: name) : .unix(path: "/tmp/\(name).sock"))
    }

    deinit {
        self.close()
    }

    /// Stops receiving, closes the socket and removes its file. Idempotent.
    public func close() {
        guard self.storage.stop() else { return }
        self.finished.wait()
        self.storage.socket.close()
        if case .unix(let path) = self.address { unlink(path) }
    }

    /// Every datagram so far, oldest first.
    public var datagrams: [Datagram] { self.storage.snapshot() }

    /// Waits for the first datagram at or after position `from` that satisfies `predicate`.
    public func waitFor(
        from: Int = 0,
        timeout: Duration = .seconds(10),
        _ predicate: (Datagram) -> Bool
    ) async -> Datagram? {
        await Polling.value(timeout: timeout, interval: .milliseconds(10)) {
            self.datagrams.dropFirst(from).first(where: predicate)
        }
    }

    /// Waits for a datagram carrying `assignment` (e.g. `READY=1`) at or after position `from`.
    public func waitFor(_ assignment: String, from: Int = 0, timeout: Duration = .seconds(10)) async -> Datagram? {
        await self.waitFor(from: from, timeout: timeout) { $0.contains(assignment) }
    }

    /// Waits until at least `count` datagrams carrying `assignment` arrived at or after `from`.
    public func waitForCount(_ assignment: String, atLeast count: Int, from: Int = 0, timeout: Duration = .seconds(10)) async -> Bool {
        await Polling.until(timeout: timeout, interval: .milliseconds(10)) {
            self.datagrams.dropFirst(from).filter { $0.contains(assignment) }.count >= count
        }
    }

    /// The latest `STATUS=` text.
    public var lastStatus: String? { self.datagrams.reversed().lazy.compactMap { $0.value(of: "STATUS") }.first }

    /// The receiving side, shared with the thread.
    private final class Storage: @unchecked Sendable {
        let socket: BlockingSocket
        private let lock = NSLock()
        private var received: [Datagram] = []
        private var stopping = false

        init(socket: BlockingSocket) {
            self.socket = socket
        }

        /// Asks the thread to stop; `false` when already asked.
        func stop() -> Bool {
            self.lock.lock()
            defer { self.lock.unlock() }
            guard !self.stopping else { return false }
            self.stopping = true
            return true
        }

        private var isStopping: Bool {
            self.lock.lock()
            defer { self.lock.unlock() }
            return self.stopping
        }

        func snapshot() -> [Datagram] {
            self.lock.lock()
            defer { self.lock.unlock() }
            return self.received
        }

        func receiveLoop() {
            var buffer = [UInt8](repeating: 0, count: 8192)
            while !self.isStopping {
                guard self.socket.waitUntilReadable(milliseconds: 50),
                    let count = try? self.socket.receive(into: &buffer, waiting: false), count > 0
                else { continue }
                let datagram = Datagram(received: .now, text: String(decoding: buffer[0..<count], as: UTF8.self))
                self.lock.lock()
                self.received.append(datagram)
                self.lock.unlock()
            }
        }
    }
}
