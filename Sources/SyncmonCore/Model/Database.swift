/// The CloudKit database an engine syncs: one state per (engine, database), as one
/// CKSyncEngine runs per database.
public enum Database: UInt8, CaseIterable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    case `private`
    case shared
    case `public`

    /// The wire and label spelling.
    public var description: String {
        switch self {
        case .private: "private"
        case .shared: "shared"
        case .public: "public"
        }
    }

    public init?(_ name: UnsafeRawBufferPointer) {
        if InlineName.bytes(name, equal: "private") {
            self = .private
        } else if InlineName.bytes(name, equal: "shared") {
            self = .shared
        } else if InlineName.bytes(name, equal: "public") {
            self = .public
        } else {
            return nil
        }
    }

    public static func < (lhs: Database, rhs: Database) -> Bool { lhs.rawValue < rhs.rawValue }
}
