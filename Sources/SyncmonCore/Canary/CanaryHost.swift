/// A host's name in a canary (docs/canary.md): 1–64 bytes of `[A-Za-z0-9._-]`, so that it is
/// safe as a file name part (`canary-HOST.json`), a metric label and a log field as it is.
public struct CanaryHost: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The name's bytes.
    public let name: InlineName

    /// `nil` unless `text` follows the rule.
    public init?(_ text: String) {
        var bytes = Array(text.utf8)
        guard let host = bytes.withUnsafeMutableBytes({ CanaryHost(bytes: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = host
    }

    /// `nil` unless `bytes` follow the rule.
    public init?(bytes: UnsafeRawBufferPointer) {
        // The rule of engine names, which are safe in the same places.
        guard EngineName.isValid(bytes) else { return nil }
        guard let name = InlineName(bytes: bytes) else { return nil }
        self.name = name
    }

    /// The canary file this host writes: `canary-HOST.json`.
    public var fileName: String { "canary-\(self.name).json" }

    /// The host a file name `canary-HOST.json` belongs to; `nil` for any other name.
    public init?(fileName: String) {
        guard fileName.hasPrefix("canary-"), fileName.hasSuffix(".json") else { return nil }
        let host = fileName.dropFirst("canary-".count).dropLast(".json".count)
        guard let parsed = CanaryHost(String(host)) else { return nil }
        self = parsed
    }

    public var description: String { self.name.description }

    public static func < (lhs: CanaryHost, rhs: CanaryHost) -> Bool { lhs.name < rhs.name }
}
