import SyncmonCore
import Testing

@testable import SyncmonSources

/// rtnetlink datagrams to messages (netlink(7), rtnetlink(7)), on bytes written from the ABI.
@Suite("Host network: rtnetlink parser")
struct RouteNetlinkParserTests {
    typealias B = NetlinkBytes

    /// A table row: one datagram and the messages it holds, or `nil` for a malformed one.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var datagram: [UInt8]
        var expected: [RouteNetlinkEnvelope]?
        var testDescription: String { self.name }
    }

    static func envelope(_ message: RouteNetlinkMessage, sequence: UInt32 = 0, interrupted: Bool = false) -> RouteNetlinkEnvelope {
        RouteNetlinkEnvelope(message: message, sequence: sequence, dumpInterrupted: interrupted)
    }

    static let cases: [Case] = [
        Case(
            name: "a veth up with carrier, its kind nested in IFLA_LINKINFO",
            datagram: B.message(B.newLink, flags: B.multi, sequence: 1, B.link(index: 7, flags: B.up | B.running | B.lowerUp, name: "smtva", kind: "veth")),
            expected: [envelope(.link(HostLink(index: 7, name: "smtva", isUp: true, isRunning: true, kind: "veth")), sequence: 1)]
        ),
        Case(
            name: "a link up without carrier",
            datagram: B.message(B.newLink, B.link(index: 2, flags: B.up, name: "eth0")),
            expected: [envelope(.link(HostLink(index: 2, name: "eth0", isUp: true, isRunning: false)))]
        ),
        Case(
            name: "loopback",
            datagram: B.message(B.newLink, B.link(index: 1, flags: B.up | B.running | B.loopback | B.lowerUp, name: "lo")),
            expected: [envelope(.link(HostLink(index: 1, name: "lo", isUp: true, isRunning: true, isLoopback: true)))]
        ),
        Case(
            name: "a link removed",
            datagram: B.message(B.delLink, B.link(index: 9, flags: 0, name: "wg0", kind: "wireguard")),
            expected: [envelope(.linkRemoved(index: 9))]
        ),
        Case(
            name: "an IPv4 default route via a gateway, in main",
            datagram: B.message(B.newRoute, B.route(B.table(254), B.gateway([10, 213, 0, 2]), B.oif(7))),
            expected: [envelope(.route(HostRoute(family: .ipv4, interfaces: [7]), replacing: false))]
        ),
        Case(
            name: "RTA_TABLE wins over rtm_table (252, RT_TABLE_COMPAT, for tables above 255)",
            datagram: B.message(B.newRoute, B.route(table: 252, B.table(51820), B.oif(5))),
            expected: [envelope(.route(HostRoute(family: .ipv4, table: 51820, interfaces: [5]), replacing: false))]
        ),
        Case(
            name: "no RTA_TABLE: rtm_table",
            datagram: B.message(B.newRoute, B.route(table: 253, B.oif(5))),
            expected: [envelope(.route(HostRoute(family: .ipv4, table: 253, interfaces: [5]), replacing: false))]
        ),
        Case(
            name: "a replacing route with metric, destination and type of service",
            datagram: B.message(
                B.newRoute, flags: B.replace, B.route(prefixLength: 1, tos: 4, B.table(254), B.destination([128, 0, 0, 0]), B.priority(600), B.oif(6))),
            expected: [
                envelope(
                    .route(HostRoute(family: .ipv4, destination: [128, 0, 0, 0], prefixLength: 1, priority: 600, tos: 4, interfaces: [6]), replacing: true))
            ]
        ),
        Case(
            name: "an IPv6 default route",
            datagram: B.message(B.newRoute, B.route(family: B.inet6, B.table(254), B.priority(1024), B.oif(2))),
            expected: [envelope(.route(HostRoute(family: .ipv6, priority: 1024, interfaces: [2]), replacing: false))]
        ),
        Case(
            name: "a multipath route: every next hop's interface",
            datagram: B.message(B.newRoute, B.route(B.table(254), B.multipath([2, 4]))),
            expected: [envelope(.route(HostRoute(family: .ipv4, interfaces: [2, 4], isMultipath: true), replacing: false))]
        ),
        Case(
            name: "blackhole, unreachable, prohibit and local types",
            datagram: B.message(B.newRoute, B.route(type: B.blackhole, B.table(254))) + B.message(B.newRoute, B.route(type: B.unreachable, B.table(254)))
                + B.message(B.newRoute, B.route(type: B.prohibit, B.table(254)))
                + B.message(B.newRoute, B.route(table: 255, type: B.local, B.table(255), B.oif(1))),
            expected: [
                envelope(.route(HostRoute(family: .ipv4, kind: .blackhole, interfaces: []), replacing: false)),
                envelope(.route(HostRoute(family: .ipv4, kind: .unreachable, interfaces: []), replacing: false)),
                envelope(.route(HostRoute(family: .ipv4, kind: .prohibit, interfaces: []), replacing: false)),
                envelope(.route(HostRoute(family: .ipv4, table: 255, kind: .other, interfaces: [1]), replacing: false)),
            ]
        ),
        Case(
            name: "a route deleted",
            datagram: B.message(B.delRoute, B.route(B.table(254), B.oif(7))),
            expected: [envelope(.routeRemoved(HostRoute(family: .ipv4, interfaces: [7])))]
        ),
        Case(
            name: "an MPLS route is none of ours",
            datagram: B.message(B.newRoute, B.route(family: B.mpls, B.oif(7))),
            expected: [envelope(.other)]
        ),
        Case(
            name: "the end of a dump, interrupted by a change",
            datagram: B.message(B.done, flags: B.multi | B.dumpInterrupted, sequence: 4, B.i32(0)),
            expected: [envelope(.done, sequence: 4, interrupted: true)]
        ),
        Case(
            name: "an error, and an acknowledgement",
            datagram: B.message(B.error, sequence: 2, B.i32(-16) + [UInt8](repeating: 0, count: 16))
                + B.message(B.error, sequence: 3, B.i32(0) + [UInt8](repeating: 0, count: 16)),
            expected: [envelope(.error(16), sequence: 2), envelope(.other, sequence: 3)]
        ),
        Case(
            name: "several messages in one datagram",
            datagram: B.message(B.newLink, flags: B.multi, sequence: 1, B.link(index: 1, flags: B.up | B.running | B.loopback, name: "lo"))
                + B.message(B.newLink, flags: B.multi, sequence: 1, B.link(index: 2, flags: B.up | B.running, name: "eth0"))
                + B.message(B.done, flags: B.multi, sequence: 1, B.i32(0)),
            expected: [
                envelope(.link(HostLink(index: 1, name: "lo", isUp: true, isRunning: true, isLoopback: true)), sequence: 1),
                envelope(.link(HostLink(index: 2, name: "eth0", isUp: true, isRunning: true)), sequence: 1),
                envelope(.done, sequence: 1),
            ]
        ),
        Case(name: "an empty datagram holds nothing", datagram: [], expected: []),
        Case(
            name: "a length running past the datagram is malformed",
            datagram: Array(B.message(B.newLink, B.link(index: 2, flags: B.up, name: "eth0")).dropLast(8)),
            expected: nil
        ),
        Case(name: "a length below the header's is malformed", datagram: B.u32(8) + B.u16(B.newLink) + [UInt8](repeating: 0, count: 10), expected: nil),
        Case(name: "a link message too short for ifinfomsg is malformed", datagram: B.message(B.newLink, [0, 0, 0, 0]), expected: nil),
        Case(
            name: "an attribute running past its message is ignored from there",
            datagram: B.message(B.newLink, B.link(index: 2, flags: B.up | B.running, name: "eth0") + B.u16(200) + B.u16(3)),
            expected: [envelope(.link(HostLink(index: 2, name: "eth0", isUp: true, isRunning: true)))]
        ),
    ]

    @Test(arguments: cases)
    func parse(_ row: Case) {
        let parsed = row.datagram.withUnsafeBytes { RouteNetlinkParser.parse($0) }
        #expect(parsed == row.expected)
    }

    @Test("dump requests: a netlink header (REQUEST|DUMP, the sequence) and an ifinfomsg or rtmsg of family 0 (every family)")
    func requests() {
        #expect(
            RouteNetlinkSocket.bytes(of: .links(sequence: 7)) == B.u32(32) + B.u16(18) + B.u16(0x301) + B.u32(7) + B.u32(0) + [UInt8](repeating: 0, count: 16))
        #expect(
            RouteNetlinkSocket.bytes(of: .routes(sequence: 8)) == B.u32(28) + B.u16(26) + B.u16(0x301) + B.u32(8) + B.u32(0) + [UInt8](repeating: 0, count: 12))
    }
}
