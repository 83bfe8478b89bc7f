// rtnetlink datagrams built byte by byte, for the parser's tests. The numbers are the kernel's
// ABI written out (linux/netlink.h, linux/rtnetlink.h, linux/if_link.h, netdevice(7)), not
// taken from the headers the parser uses, so the tests check the parser against the ABI.
// Netlink is in host byte order (little-endian here).

/// Builders for rtnetlink messages and attributes, from the ABI's numbers.
enum NetlinkBytes {
    static let newLink: UInt16 = 16, delLink: UInt16 = 17, newRoute: UInt16 = 24, delRoute: UInt16 = 25
    static let error: UInt16 = 2, done: UInt16 = 3
    static let multi: UInt16 = 0x2, dumpInterrupted: UInt16 = 0x10, replace: UInt16 = 0x100
    static let up: UInt32 = 0x1, loopback: UInt32 = 0x8, running: UInt32 = 0x40, lowerUp: UInt32 = 0x1_0000
    static let inet: UInt8 = 2, inet6: UInt8 = 10, mpls: UInt8 = 28
    static let unicast: UInt8 = 1, local: UInt8 = 2, blackhole: UInt8 = 6, unreachable: UInt8 = 7, prohibit: UInt8 = 8

    static func u16(_ value: UInt16) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
    static func u32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
    static func i32(_ value: Int32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }

    /// Pads to the next multiple of 4.
    static func padded(_ bytes: [UInt8]) -> [UInt8] {
        bytes + [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4)
    }

    /// `nlmsghdr` + body.
    static func message(_ type: UInt16, flags: UInt16 = 0, sequence: UInt32 = 0, _ body: [UInt8]) -> [UInt8] {
        padded(u32(UInt32(16 + body.count)) + u16(type) + u16(flags) + u32(sequence) + u32(0) + body)
    }

    /// `rtattr` + value, padded.
    static func attribute(_ type: UInt16, _ value: [UInt8]) -> [UInt8] {
        padded(u16(UInt16(4 + value.count)) + u16(type) + value)
    }

    static func string(_ text: String) -> [UInt8] { Array(text.utf8) + [0] }

    /// `ifinfomsg` (family, pad, type, index, flags, change) + IFLA_IFNAME + IFLA_LINKINFO/IFLA_INFO_KIND.
    static func link(index: Int32, flags: UInt32, name: String, kind: String? = nil) -> [UInt8] {
        var body: [UInt8] = [0, 0] + u16(1) + i32(index) + u32(flags) + u32(0xFFFF_FFFF)
        body += attribute(3, string(name))
        if let kind { body += attribute(18 | 0x8000, attribute(1, string(kind))) }
        return body
    }

    /// `rtmsg` (family, dst_len, src_len, tos, table, protocol, scope, type, flags) + attributes.
    static func route(family: UInt8 = inet, prefixLength: UInt8 = 0, tos: UInt8 = 0, table: UInt8 = 254, type: UInt8 = unicast, _ attributes: [UInt8]...)
        -> [UInt8]
    {
        [family, prefixLength, 0, tos, table, 3, 0, type] + u32(0) + attributes.flatMap { $0 }
    }

    static func oif(_ index: Int32) -> [UInt8] { attribute(4, i32(index)) }
    static func table(_ id: UInt32) -> [UInt8] { attribute(15, u32(id)) }
    static func priority(_ metric: UInt32) -> [UInt8] { attribute(6, u32(metric)) }
    static func destination(_ bytes: [UInt8]) -> [UInt8] { attribute(1, bytes) }
    static func gateway(_ bytes: [UInt8]) -> [UInt8] { attribute(5, bytes) }

    /// RTA_MULTIPATH: one `rtnexthop` (len, flags, hops, ifindex) per interface, each with a gateway.
    static func multipath(_ interfaces: [Int32]) -> [UInt8] {
        attribute(
            9,
            interfaces.flatMap { index -> [UInt8] in
                let gateway = attribute(5, [10, 213, 0, 2])
                return u16(UInt16(8 + gateway.count)) + [0, 0] + i32(index) + gateway
            })
    }
}
