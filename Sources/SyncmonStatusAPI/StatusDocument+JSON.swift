import FoundationEssentials
import SyncmonCore

extension StatusDocument {
    /// The document as JSON text, ending with a newline: keys sorted, for an order that is the
    /// same on every run (diffs, people reading it), indented when `pretty`.
    public func json(pretty: Bool = true) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        // Strings, integers and booleans only: encoding cannot fail.
        guard let data = try? encoder.encode(self) else { return Array("{}\n".utf8) }
        return Array(data) + [UInt8(ascii: "\n")]
    }

    /// Reads a document back, as `syncmon status` does with the daemon's answer.
    public init(json: some Collection<UInt8>) throws {
        self = try JSONDecoder().decode(StatusDocument.self, from: Data(json))
    }
}
