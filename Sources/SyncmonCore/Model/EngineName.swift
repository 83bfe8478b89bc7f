/// Engine identifiers as protocol version 1 allows them (docs/protocol.md#envelope): 1–64 characters of
/// `[A-Za-z0-9._-]`. The one rule the decoder, the daemon's configuration and query checks,
/// the command line and the client library all use.
public enum EngineName {
    /// Whether `bytes` form a valid engine identifier.
    @inline(__always)
    public static func isValid(_ bytes: some Collection<UInt8>) -> Bool {
        (1...InlineName.capacity).contains(bytes.count) && bytes.allSatisfy(Self.isAllowed)
    }

    /// The name, or `nil` when `string` is not a valid engine identifier.
    public static func parse(_ string: String) -> InlineName? {
        guard Self.isValid(string.utf8) else { return nil }
        return InlineName(string)
    }

    /// Whether `byte` may appear in an engine identifier.
    @inline(__always)
    public static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }
}
