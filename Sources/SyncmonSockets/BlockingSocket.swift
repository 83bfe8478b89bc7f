import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One blocking POSIX socket, for the command line, the tests and the benchmark: the daemon
/// itself talks through SwiftNIO, and this is what everything around it uses instead of raw
/// `socket(2)` calls.
///
/// Every socket is close-on-exec (a test or a wrapper that spawns a process must not leak it
/// there), every send is `MSG_NOSIGNAL` (a peer that went away is an error, not SIGPIPE), and
/// interrupted calls are retried. The descriptor is closed by ``close()`` or when the object
/// goes away, whichever comes first.
public final class BlockingSocket: Sendable {
    /// The descriptor, for what this type does not wrap.
    public let descriptor: Int32
    /// What it is connected, listening or bound to (for an accepted socket, the listener's).
    public let address: SocketAddress
    private let isOpen = Atomic<Bool>(true)

    private init(descriptor: Int32, address: SocketAddress) {
        self.descriptor = descriptor
        self.address = address
    }

    deinit { self.close() }

    /// A new close-on-exec socket for `address`.
    private static func make(_ address: SocketAddress, type: __socket_type) throws -> BlockingSocket {
        let descriptor = socket(address.family, Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SocketError(.socket, address) }
        return BlockingSocket(descriptor: descriptor, address: address)
    }

    /// A stream connection to `address`. With a `timeout`, the connect, every send and every
    /// receive give up after it (Linux applies the send timeout to `connect(2)`); without one
    /// they wait as long as it takes.
    public static func connect(to address: SocketAddress, timeout: Duration? = nil) throws -> BlockingSocket {
        let socket = try Self.make(address, type: SOCK_STREAM)
        if let timeout {
            try socket.setTimeout(SO_RCVTIMEO, timeout)
            try socket.setTimeout(SO_SNDTIMEO, timeout)
        }
        try address.withSockaddr { sockaddr, length in
            guard Glibc.connect(socket.descriptor, sockaddr, length) == 0 else { throw SocketError(.connect, address) }
        }
        if case .loopback = address {
            // Requests are single small writes: do not hold them back for an acknowledgement.
            try socket.setOption(Int32(IPPROTO_TCP), TCP_NODELAY, 1)
        }
        return socket
    }

    /// A stream socket listening on `address`. A TCP port may be reused at once; a stale Unix
    /// socket file is replaced.
    public static func listen(on address: SocketAddress, backlog: Int32 = 64) throws -> BlockingSocket {
        let socket = try Self.make(address, type: SOCK_STREAM)
        switch address {
        case .loopback: try socket.setOption(SOL_SOCKET, SO_REUSEADDR, 1)
        case .unix(let path): unlink(path)
        case .abstract: break
        }
        try address.withSockaddr { sockaddr, length in
            guard bind(socket.descriptor, sockaddr, length) == 0 else { throw SocketError(.bind, address) }
        }
        guard Glibc.listen(socket.descriptor, backlog) == 0 else { throw SocketError(.listen, address) }
        return socket
    }

    /// A stream socket bound to `address` and never listening: a connection to it is refused
    /// at once, and nothing else can bind the port while it is open (it is bound without
    /// `SO_REUSEADDR`, which a second socket would need on both). A test's "nobody listens
    /// here" that another test's server cannot take.
    public static func bindStream(to address: SocketAddress) throws -> BlockingSocket {
        let socket = try Self.make(address, type: SOCK_STREAM)
        try address.withSockaddr { sockaddr, length in
            guard bind(socket.descriptor, sockaddr, length) == 0 else { throw SocketError(.bind, address) }
        }
        return socket
    }

    /// A datagram socket bound to `address` (which, as a file, must not exist).
    public static func bindDatagram(to address: SocketAddress) throws -> BlockingSocket {
        let socket = try Self.make(address, type: SOCK_DGRAM)
        try address.withSockaddr { sockaddr, length in
            guard bind(socket.descriptor, sockaddr, length) == 0 else { throw SocketError(.bind, address) }
        }
        return socket
    }

    /// The next connection of a listening socket; fails once the socket is shut down.
    public func accept() throws -> BlockingSocket {
        while true {
            // accept4(SOCK_CLOEXEC) is not in the Glibc module (it wants _GNU_SOURCE): set the
            // flag right after instead.
            let descriptor = Glibc.accept(self.descriptor, nil, nil)
            if descriptor >= 0 {
                _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
                return BlockingSocket(descriptor: descriptor, address: self.address)
            }
            if errno != EINTR { throw SocketError(.accept, self.address) }
        }
    }

    /// The local TCP port: the one the kernel chose for `.loopback(port: 0)`.
    public func localPort() throws -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(self.descriptor, $0, &length) }
        }
        guard named == 0 else { throw SocketError(.name, self.address) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Sends every byte of `bytes`.
    public func send(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.send(self.descriptor, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if written < 0 {
                if errno == EINTR { continue }
                throw SocketError(.send, self.address)
            }
            offset += written
        }
    }

    /// Sends every byte of `bytes`.
    public func send(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try self.send($0) }
    }

    /// Sends `text` as UTF-8.
    public func send(_ text: String) throws {
        var text = text
        try text.withUTF8 { try self.send(UnsafeRawBufferPointer($0)) }
    }

    /// Receives what is there (or, `waiting`, the next bytes to come) into `buffer`: how many
    /// bytes, 0 at the end of the stream. Without `waiting`, nothing there is `EAGAIN`.
    public func receive(into buffer: UnsafeMutableRawBufferPointer, waiting: Bool = true) throws -> Int {
        while true {
            let count = recv(self.descriptor, buffer.baseAddress, buffer.count, waiting ? 0 : Int32(MSG_DONTWAIT))
            if count >= 0 { return count }
            if errno != EINTR { throw SocketError(.receive, self.address) }
        }
    }

    /// Receives into the start of `buffer`: how many bytes, 0 at the end of the stream.
    public func receive(into buffer: inout [UInt8], waiting: Bool = true) throws -> Int {
        try buffer.withUnsafeMutableBytes { try self.receive(into: $0, waiting: waiting) }
    }

    /// Whether something can be received (data, the end of the stream, or a connection to
    /// accept) within `milliseconds`; 0 only looks.
    public func waitUntilReadable(milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) > 0
    }

    /// Ends both directions: the peer sees the end of the stream, and a call blocked on this
    /// socket (an `accept`, a `recv`) returns.
    public func shutdown() {
        guard self.isOpen.load(ordering: .acquiring) else { return }
        _ = Glibc.shutdown(self.descriptor, Int32(SHUT_RDWR))
    }

    /// Closes the descriptor. Idempotent.
    public func close() {
        guard self.isOpen.exchange(false, ordering: .acquiringAndReleasing) else { return }
        _ = Glibc.close(self.descriptor)
    }

    private func setOption(_ level: Int32, _ name: Int32, _ value: Int32) throws {
        var value = value
        guard setsockopt(self.descriptor, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw SocketError(.option, self.address)
        }
    }

    private func setTimeout(_ name: Int32, _ timeout: Duration) throws {
        let (seconds, attoseconds) = timeout.components
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        guard setsockopt(self.descriptor, SOL_SOCKET, name, &value, socklen_t(MemoryLayout<timeval>.size)) == 0 else {
            throw SocketError(.option, self.address)
        }
    }
}
