import SyncmonCore

#if canImport(Glibc)
import Glibc
#endif

/// The rtnetlink socket and the follower it feeds: reads what arrived, sends the dumps the
/// follower asks for, and hands on each new view. Used by one thread at a time (the daemon's
/// start, then the host network thread).
struct HostNetworkReader: Sendable {
    let socket: RouteNetlinkSocket
    private(set) var follower = HostNetworkFollower()

    /// Large enough for any rtnetlink datagram: the kernel's dump messages stay below 32 KiB.
    static let bufferSize = 64 * 1024

    /// Opens the socket and asks for the first dump.
    static func open() throws(RouteNetlinkSocket.Failure) -> HostNetworkReader {
        let socket = try RouteNetlinkSocket.open()
        var reader = HostNetworkReader(socket: socket)
        do {
            try socket.send(reader.follower.start())
        } catch {
            socket.close()
            throw error
        }
        return reader
    }

    private init(socket: RouteNetlinkSocket) {
        self.socket = socket
    }

    /// Reads every datagram waiting (without blocking) and applies it; `publish` gets each new view.
    mutating func readAvailable(buffer: UnsafeMutableRawBufferPointer, publish: (HostNetworkView) -> Void) throws(RouteNetlinkSocket.Failure) {
        while true {
            switch self.socket.receive(into: buffer) {
            case .nothing:
                return
            case .failed(let failure):
                throw failure
            case .overrun:
                try self.apply(self.follower.overrun(), publish: publish)
            case .datagram(let count):
                guard let envelopes = RouteNetlinkParser.parse(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) else {
                    // Not what rtnetlink sends: trust nothing read since, and dump again.
                    try self.apply(self.follower.overrun(), publish: publish)
                    continue
                }
                for envelope in envelopes {
                    try self.apply(self.follower.handle(envelope), publish: publish)
                }
            }
        }
    }

    private mutating func apply(_ outcome: HostNetworkFollower.Outcome, publish: (HostNetworkView) -> Void) throws(RouteNetlinkSocket.Failure) {
        if let errno = outcome.failure { throw RouteNetlinkSocket.Failure(operation: "rtnetlink dump", errno: errno) }
        if let view = outcome.view { publish(view) }
        if let request = outcome.request { try self.socket.send(request) }
    }

    /// Waits for readable data for at most `milliseconds`; `false` when the time ran out.
    func waitReadable(milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: self.socket.descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, max(0, milliseconds)) > 0
    }
}
