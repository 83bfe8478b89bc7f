import CNetlink

#if canImport(Glibc)
import Glibc
#endif

/// An rtnetlink socket (`NETLINK_ROUTE`) that receives link and IPv4/IPv6 route notifications and
/// asks for dumps (netlink(7), rtnetlink(7)). A value holding a descriptor: the host network
/// reader owns it and closes it once.
struct RouteNetlinkSocket: Sendable {
    let descriptor: Int32

    /// A failed system call, with its errno.
    struct Failure: Error, Equatable, CustomStringConvertible {
        var operation: String
        var errno: Int32
        var description: String { "\(self.operation): \(String(cString: strerror(self.errno)))" }
    }

    /// What one receive brought.
    enum Received: Equatable {
        /// A datagram from the kernel of this many bytes.
        case datagram(Int)
        /// The kernel dropped notifications: the receive buffer overran (ENOBUFS).
        case overrun
        /// Nothing after all (EINTR, EAGAIN), or a datagram not from the kernel: ignored.
        case nothing
        case failed(Failure)
    }

    /// Opens the socket and joins the link and route notification groups. Fails in a container
    /// or sandbox that forbids netlink (EAFNOSUPPORT under `RestrictAddressFamilies=`, EPERM or
    /// EACCES under seccomp or an LSM).
    static func open() throws(Failure) -> RouteNetlinkSocket {
        let descriptor = socket(AF_NETLINK, Int32(SOCK_RAW.rawValue | SOCK_CLOEXEC.rawValue), NETLINK_ROUTE)
        guard descriptor >= 0 else { throw Failure(operation: "socket(AF_NETLINK, NETLINK_ROUTE)", errno: errno) }
        // A larger buffer makes overruns rarer when many routes change at once; the kernel caps
        // it at net.core.rmem_max, which is fine.
        var size: Int32 = 1 << 20
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_nl()
        address.nl_family = sa_family_t(AF_NETLINK)
        address.nl_groups = UInt32(RTMGRP_LINK | RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_ROUTE)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_nl>.size)) }
        }
        guard bound == 0 else {
            let failure = Failure(operation: "bind(NETLINK_ROUTE, link and route groups)", errno: errno)
            Glibc.close(descriptor)
            throw failure
        }
        return RouteNetlinkSocket(descriptor: descriptor)
    }

    /// Asks the kernel for a dump.
    func send(_ request: HostNetworkFollower.Request) throws(Failure) {
        let bytes = Self.bytes(of: request)
        var kernel = sockaddr_nl()
        kernel.nl_family = sa_family_t(AF_NETLINK)
        let sent = bytes.withUnsafeBytes { buffer in
            withUnsafePointer(to: &kernel) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(self.descriptor, buffer.baseAddress, buffer.count, 0, $0, socklen_t(MemoryLayout<sockaddr_nl>.size))
                }
            }
        }
        guard sent == bytes.count else { throw Failure(operation: "sendto(NETLINK_ROUTE)", errno: sent < 0 ? errno : EIO) }
    }

    /// A dump request: a netlink header and an `ifinfomsg` or `rtmsg` of family 0
    /// (every family: IPv4 and IPv6 routes in one dump).
    static func bytes(of request: HostNetworkFollower.Request) -> [UInt8] {
        let type: Int
        let sequence: UInt32
        let bodySize: Int
        switch request {
        case .links(let number):
            (type, sequence, bodySize) = (RTM_GETLINK, number, MemoryLayout<ifinfomsg>.size)
        case .routes(let number):
            (type, sequence, bodySize) = (RTM_GETROUTE, number, MemoryLayout<rtmsg>.size)
        }
        let headerSize = MemoryLayout<nlmsghdr>.size
        var header = nlmsghdr()
        header.nlmsg_len = UInt32(headerSize + bodySize)
        header.nlmsg_type = UInt16(type)
        header.nlmsg_flags = UInt16(NLM_F_REQUEST | NLM_F_DUMP)
        header.nlmsg_seq = sequence
        var bytes = withUnsafeBytes(of: &header) { Array($0) }
        bytes += [UInt8](repeating: 0, count: bodySize)
        return bytes
    }

    /// Receives one datagram into `buffer` without blocking. Datagrams whose sender is not the
    /// kernel are dropped: any local process may write to a netlink port, and a forged "route
    /// deleted" must not silence the stall detectors.
    func receive(into buffer: UnsafeMutableRawBufferPointer) -> Received {
        var sender = sockaddr_nl()
        var senderSize = socklen_t(MemoryLayout<sockaddr_nl>.size)
        let count = withUnsafeMutablePointer(to: &sender) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                recvfrom(self.descriptor, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT | MSG_TRUNC), $0, &senderSize)
            }
        }
        if count < 0 {
            switch errno {
            case EINTR, EAGAIN: return .nothing
            case ENOBUFS: return .overrun
            default: return .failed(Failure(operation: "recvfrom(NETLINK_ROUTE)", errno: errno))
            }
        }
        guard sender.nl_pid == 0 else { return .nothing }
        // MSG_TRUNC returns the datagram's real size: one larger than the buffer lost its end,
        // which is as bad as a lost notification.
        guard count <= buffer.count else { return .overrun }
        return .datagram(count)
    }

    func close() {
        Glibc.close(self.descriptor)
    }
}
