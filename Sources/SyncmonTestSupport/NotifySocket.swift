import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A Unix datagram socket standing in for systemd's `NOTIFY_SOCKET`: it records every
/// datagram the daemon sends (`READY=1`, `STATUS=…`, `WATCHDOG=1`, …) with its arrival time,
/// on a thread of its own, so a test can wait for a message and later look at all of them.
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

    /// What goes into `NOTIFY_SOCKET`.
    public let path: String
    private let storage: Storage
    private let finished = DispatchSemaphore(value: 0)

    /// Binds `path` (which must not exist) and starts receiving.
    public init(path: String) throws {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw TestSupportError("socket: \(String(cString: strerror(errno)))") }
        do {
            try UnixAddress.withAddress(path) { address, length in
                guard bind(descriptor, address, length) == 0 else {
                    throw TestSupportError("bind \(path): \(String(cString: strerror(errno)))")
                }
            }
        } catch {
            Glibc.close(descriptor)
            throw error
        }
        self.path = path
        let storage = Storage(descriptor: descriptor)
        self.storage = storage
        let finished = self.finished
        let thread = Thread {
            storage.receiveLoop()
            finished.signal()
        }
        thread.name = "NotifySocket"
        thread.start()
    }

    deinit {
        self.close()
    }

    /// Stops receiving, closes the socket and removes its file. Idempotent.
    public func close() {
        guard self.storage.stop() else { return }
        self.finished.wait()
        Glibc.close(self.storage.descriptor)
        unlink(self.path)
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
        let descriptor: Int32
        private let lock = NSLock()
        private var received: [Datagram] = []
        private var stopping = false

        init(descriptor: Int32) {
            self.descriptor = descriptor
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
                var pollDescriptor = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&pollDescriptor, 1, 50) > 0 else { continue }
                let count = buffer.withUnsafeMutableBytes { recv(self.descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                guard count > 0 else { continue }
                let datagram = Datagram(received: .now, text: String(decoding: buffer[0..<count], as: UTF8.self))
                self.lock.lock()
                self.received.append(datagram)
                self.lock.unlock()
            }
        }
    }
}

/// Fills a `sockaddr_un` for a filesystem path.
enum UnixAddress {
    static func withAddress<Result>(
        _ path: String,
        _ body: (UnsafePointer<sockaddr>, socklen_t) throws -> Result
    ) throws -> Result {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw TestSupportError("socket path too long (\(bytes.count) bytes): \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return try withUnsafePointer(to: &address) {
            try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}
