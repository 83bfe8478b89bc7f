import SyncmonCore

/// Engine names as the protocol allows them (SPEC §1.2): 1–64 characters of `[A-Za-z0-9._-]`.
///
/// `InlineName(_:)` only checks the length; names that come from operators (configuration
/// sections, `?engine=`) are checked here so that a name no engine can have is refused.
enum EngineName {
    /// The name, or `nil` when `string` is not a valid engine name.
    static func parse(_ string: String) -> InlineName? {
        guard !string.isEmpty, string.utf8.allSatisfy(Self.isAllowed) else { return nil }
        return InlineName(string)
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }
}
