import FoundationEssentials
import SyncmonCore

extension StatusDocument {
    /// Reads a document back, as `syncmon status` does with the daemon's answer (the core's
    /// `json(pretty:)` writes it).
    public init(json: some Collection<UInt8>) throws {
        self = try JSONDecoder().decode(StatusDocument.self, from: Data(json))
    }
}
