/// One route of the host's routing tables, as rtnetlink reports it: what the host network view
/// needs to know about it (docs/operations.md, "Host network view").
public struct HostRoute: Hashable, Sendable {
    /// The address family.
    public enum Family: UInt8, Hashable, Sendable {
        case ipv4
        case ipv6
    }

    /// The route type (`rtm_type`). Only unicast routes carry traffic somewhere; the others
    /// drop it (blackhole), refuse it (unreachable, prohibit) or are not forwarding routes.
    public enum Kind: Hashable, Sendable {
        case unicast
        case blackhole
        case unreachable
        case prohibit
        /// Local, broadcast, multicast, throw, …
        case other
    }

    /// The table IDs of the kernel's default rules that a process outside any VRF consults:
    /// `main` (254) and `default` (253).
    public static let mainTable: UInt32 = 254
    public static let defaultTable: UInt32 = 253

    public var family: Family
    /// The routing table (`RTA_TABLE`, else `rtm_table`).
    public var table: UInt32
    /// The destination's leading bytes in network order; empty for a default route. Only the
    /// first byte is read (only prefixes of up to 8 bits can cover a default, see `coversDefault`).
    public var destination: [UInt8]
    /// The destination's prefix length: 0 for a default route.
    public var prefixLength: UInt8
    public var kind: Kind
    /// The metric (`RTA_PRIORITY`), part of the route's identity.
    public var priority: UInt32
    /// The type of service (IPv4), part of the route's identity.
    public var tos: UInt8
    /// The output interface of each next hop: one for a plain route, several for a multipath
    /// route, none when the route names no interface (a next-hop object without compat data).
    public var interfaces: [Int32]
    /// The next hops came as `RTA_MULTIPATH`.
    public var isMultipath: Bool

    public init(
        family: Family,
        table: UInt32 = HostRoute.mainTable,
        destination: [UInt8] = [],
        prefixLength: UInt8 = 0,
        kind: Kind = .unicast,
        priority: UInt32 = 0,
        tos: UInt8 = 0,
        interfaces: [Int32],
        isMultipath: Bool = false
    ) {
        self.family = family
        self.table = table
        self.destination = destination
        self.prefixLength = prefixLength
        self.kind = kind
        self.priority = priority
        self.tos = tos
        self.interfaces = interfaces
        self.isMultipath = isMultipath
    }

    /// What identifies a route in its table, as the kernel does (destination, prefix, type of
    /// service, metric) plus the output interface of a plain route: IPv6 reports the next hops
    /// of one destination and metric as separate routes.
    public struct Key: Hashable, Sendable {
        public var slot: Slot
        /// The single next hop's interface; 0 for a multipath route or none.
        public var interface: Int32
    }

    /// The destination, type of service and metric in a table: what `NLM_F_REPLACE` replaces.
    public struct Slot: Hashable, Sendable {
        public var family: Family
        public var table: UInt32
        public var destination: [UInt8]
        public var prefixLength: UInt8
        public var tos: UInt8
        public var priority: UInt32
    }

    public var slot: Slot {
        // Bits beyond the prefix do not make another route: compare the masked first byte.
        Slot(
            family: self.family, table: self.table, destination: self.maskedDestination, prefixLength: self.prefixLength, tos: self.tos, priority: self.priority
        )
    }

    public var key: Key {
        Key(slot: self.slot, interface: !self.isMultipath && self.interfaces.count == 1 ? self.interfaces[0] : 0)
    }

    /// The destination with the bits beyond the prefix cleared, as many bytes as the prefix spans.
    private var maskedDestination: [UInt8] {
        let length = Int(self.prefixLength)
        var bytes = Array(self.destination.prefix((length + 7) / 8))
        if length % 8 != 0, !bytes.isEmpty {
            bytes[bytes.count - 1] &= UInt8(truncatingIfNeeded: 0xFF << (8 - length % 8))
        }
        return bytes
    }

    /// The route could give default coverage, whatever its interfaces' state: unicast, in a
    /// table the default rules consult, and short enough a prefix (at most 8 bits) to be a
    /// default or one of the few halves or quarters that tunnels install instead of one.
    public var mayCoverDefault: Bool {
        self.kind == .unicast && self.prefixLength <= 8
            && (self.table == Self.mainTable || self.table == Self.defaultTable)
    }

    /// The first-byte values the destination covers, for a prefix of at most 8 bits.
    var firstByteRange: ClosedRange<UInt8> {
        let length = min(Int(self.prefixLength), 8)
        let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - length))
        let low = (self.destination.first ?? 0) & mask
        return low...(low | ~mask)
    }
}
