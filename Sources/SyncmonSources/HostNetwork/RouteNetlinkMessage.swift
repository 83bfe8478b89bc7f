import CNetlink
import SyncmonCore

#if canImport(Glibc)
import Glibc
#endif

/// One rtnetlink message, as far as the host network view reads it.
enum RouteNetlinkMessage: Equatable, Sendable {
    /// `RTM_NEWLINK`: a link appeared or changed.
    case link(HostLink)
    /// `RTM_DELLINK`.
    case linkRemoved(index: Int32)
    /// `RTM_NEWROUTE` (IPv4 or IPv6); `replacing` with `NLM_F_REPLACE`.
    case route(HostRoute, replacing: Bool)
    /// `RTM_DELROUTE` (IPv4 or IPv6).
    case routeRemoved(HostRoute)
    /// `NLMSG_DONE`: the end of a dump.
    case done
    /// `NLMSG_ERROR` with an error: the kernel refused a request (a positive errno).
    case error(Int32)
    /// Anything else: acknowledgements, routes of other families, other message types.
    case other
}

/// A message with its header fields that matter: the request it answers and whether the dump
/// it belongs to was disturbed by a change (`NLM_F_DUMP_INTR`).
struct RouteNetlinkEnvelope: Equatable, Sendable {
    var message: RouteNetlinkMessage
    var sequence: UInt32
    var dumpInterrupted = false
}

/// Reads rtnetlink datagrams (netlink(7), rtnetlink(7)). Pure: bytes in, messages out, so the
/// layouts are tested on bytes built in the tests.
enum RouteNetlinkParser {
    /// The messages of one datagram, or `nil` when it is malformed (a length that runs past the
    /// end, a header shorter than its type needs).
    static func parse(_ datagram: UnsafeRawBufferPointer) -> [RouteNetlinkEnvelope]? {
        var messages: [RouteNetlinkEnvelope] = []
        var offset = 0
        let headerSize = MemoryLayout<nlmsghdr>.size
        while datagram.count - offset >= headerSize {
            let header = datagram.loadUnaligned(fromByteOffset: offset, as: nlmsghdr.self)
            let length = Int(header.nlmsg_len)
            guard length >= headerSize, length <= datagram.count - offset else { return nil }
            let body = UnsafeRawBufferPointer(rebasing: datagram[(offset + headerSize)..<(offset + length)])
            guard let message = Self.message(type: header.nlmsg_type, flags: header.nlmsg_flags, body: body) else { return nil }
            messages.append(
                RouteNetlinkEnvelope(
                    message: message,
                    sequence: header.nlmsg_seq,
                    dumpInterrupted: Int32(header.nlmsg_flags) & NLM_F_DUMP_INTR != 0
                ))
            offset += Self.align(length)
        }
        return messages
    }

    /// Netlink aligns messages and attributes to 4 bytes (`NLMSG_ALIGN`, `RTA_ALIGN`).
    static func align(_ length: Int) -> Int {
        (length + 3) & ~3
    }

    private static func message(type: UInt16, flags: UInt16, body: UnsafeRawBufferPointer) -> RouteNetlinkMessage? {
        switch Int(type) {
        case Int(NLMSG_DONE):
            return .done
        case Int(NLMSG_ERROR):
            guard body.count >= MemoryLayout<Int32>.size else { return nil }
            let error = body.loadUnaligned(as: Int32.self)
            return error == 0 ? .other : .error(-error)
        case RTM_NEWLINK:
            return Self.link(body).map(RouteNetlinkMessage.link)
        case RTM_DELLINK:
            guard body.count >= MemoryLayout<ifinfomsg>.size else { return nil }
            return .linkRemoved(index: body.loadUnaligned(as: ifinfomsg.self).ifi_index)
        case RTM_NEWROUTE:
            guard body.count >= MemoryLayout<rtmsg>.size else { return nil }
            return Self.route(body).map { .route($0, replacing: Int32(flags) & NLM_F_REPLACE != 0) } ?? .other
        case RTM_DELROUTE:
            guard body.count >= MemoryLayout<rtmsg>.size else { return nil }
            return Self.route(body).map(RouteNetlinkMessage.routeRemoved) ?? .other
        default:
            return .other
        }
    }

    private static func link(_ body: UnsafeRawBufferPointer) -> HostLink? {
        guard body.count >= MemoryLayout<ifinfomsg>.size else { return nil }
        let info = body.loadUnaligned(as: ifinfomsg.self)
        var name = ""
        var kind: String? = nil
        Self.attributes(body, from: MemoryLayout<ifinfomsg>.size) { type, value in
            switch Int(type) {
            case IFLA_IFNAME:
                name = Self.string(value)
            case IFLA_LINKINFO:
                Self.attributes(value, from: 0) { nestedType, nestedValue in
                    if Int(nestedType) == IFLA_INFO_KIND { kind = Self.string(nestedValue) }
                }
            default:
                break
            }
        }
        let flags = Int(info.ifi_flags)
        return HostLink(
            index: info.ifi_index,
            name: name,
            isUp: flags & IFF_UP != 0,
            isRunning: flags & IFF_RUNNING != 0,
            isLoopback: flags & IFF_LOOPBACK != 0,
            kind: kind
        )
    }

    /// An IPv4 or IPv6 route; `nil` for other families (MPLS, bridge FDB, …).
    private static func route(_ body: UnsafeRawBufferPointer) -> HostRoute? {
        let header = body.loadUnaligned(as: rtmsg.self)
        let family: HostRoute.Family
        switch Int32(header.rtm_family) {
        case AF_INET: family = .ipv4
        case AF_INET6: family = .ipv6
        default: return nil
        }
        var route = HostRoute(
            family: family,
            table: UInt32(header.rtm_table),
            prefixLength: header.rtm_dst_len,
            kind: Self.kind(header.rtm_type),
            tos: header.rtm_tos,
            interfaces: []
        )
        Self.attributes(body, from: MemoryLayout<rtmsg>.size) { type, value in
            switch type {
            case UInt16(RTA_TABLE.rawValue) where value.count >= 4:
                route.table = value.loadUnaligned(as: UInt32.self)
            case UInt16(RTA_DST.rawValue):
                route.destination = Array(value)
            case UInt16(RTA_PRIORITY.rawValue) where value.count >= 4:
                route.priority = value.loadUnaligned(as: UInt32.self)
            case UInt16(RTA_OIF.rawValue) where value.count >= 4:
                route.interfaces = [value.loadUnaligned(as: Int32.self)]
            case UInt16(RTA_MULTIPATH.rawValue):
                route.isMultipath = true
                route.interfaces = Self.nextHopInterfaces(value)
            default:
                break
            }
        }
        return route
    }

    private static func kind(_ type: UInt8) -> HostRoute.Kind {
        switch Int(type) {
        case RTN_UNICAST: .unicast
        case RTN_BLACKHOLE: .blackhole
        case RTN_UNREACHABLE: .unreachable
        case RTN_PROHIBIT: .prohibit
        default: .other
        }
    }

    /// The interface of each `rtnexthop` in an `RTA_MULTIPATH` attribute.
    private static func nextHopInterfaces(_ value: UnsafeRawBufferPointer) -> [Int32] {
        var interfaces: [Int32] = []
        var offset = 0
        let size = MemoryLayout<rtnexthop>.size
        while value.count - offset >= size {
            let hop = value.loadUnaligned(fromByteOffset: offset, as: rtnexthop.self)
            let length = Int(hop.rtnh_len)
            guard length >= size, length <= value.count - offset else { break }
            interfaces.append(hop.rtnh_ifindex)
            offset += Self.align(length)
        }
        return interfaces
    }

    /// Calls `body` with each attribute (`rtattr`) from `start`; stops at a malformed one.
    private static func attributes(_ buffer: UnsafeRawBufferPointer, from start: Int, _ body: (UInt16, UnsafeRawBufferPointer) -> Void) {
        var offset = Self.align(start)
        let size = MemoryLayout<rtattr>.size
        while buffer.count - offset >= size {
            let attribute = buffer.loadUnaligned(fromByteOffset: offset, as: rtattr.self)
            let length = Int(attribute.rta_len)
            guard length >= size, length <= buffer.count - offset else { return }
            // The type's top bits are flags (NLA_F_NESTED, NLA_F_NET_BYTEORDER).
            let type = attribute.rta_type & 0x3FFF
            body(type, UnsafeRawBufferPointer(rebasing: buffer[(offset + size)..<(offset + length)]))
            offset += Self.align(length)
        }
    }

    /// A NUL-terminated string attribute.
    private static func string(_ value: UnsafeRawBufferPointer) -> String {
        let bytes = value.prefix { $0 != 0 }
        return String(decoding: bytes, as: UTF8.self)
    }
}
