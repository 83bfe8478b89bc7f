/// The store an engine's events are about (docs/protocol.md, "Envelope"): CKSyncEngine's
/// `private`, `shared` or `public` database, one NSPersistentCloudKitContainer store, one
/// Syncthing folder. One state per (engine, database).
///
/// Any name of 1–64 characters of `[A-Za-z0-9._-]`, the engine-name rule; stored inline like an
/// engine name so that decoding an event still allocates nothing.
public struct Database: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The name's bytes, already checked against the name rule.
    public let name: InlineName

    /// The default when a line names no database.
    public static let `private` = Database(checked: "private")
    public static let shared = Database(checked: "shared")
    public static let `public` = Database(checked: "public")

    private init(checked literal: String) {
        self.name = InlineName(literal)!
    }

    /// A database from its name; `nil` when the name breaks the rule.
    public init?(_ name: String) {
        guard EngineName.isValid(name.utf8), let inline = InlineName(name) else { return nil }
        self.name = inline
    }

    /// A database from the bytes of a JSON string; `nil` when they break the rule.
    @inline(__always)
    public init?(bytes: UnsafeRawBufferPointer) {
        guard EngineName.isValid(bytes), let inline = InlineName(bytes: bytes) else { return nil }
        self.name = inline
    }

    /// The wire and label spelling.
    public var description: String { self.name.description }

    /// Rows list the CloudKit scopes first, in the order private, shared, public (as before
    /// store names existed), then every other store in byte order.
    public static func < (lhs: Database, rhs: Database) -> Bool {
        let left = lhs.scopeRank
        let right = rhs.scopeRank
        return left != right ? left < right : lhs.name < rhs.name
    }

    /// 0, 1, 2 for the CloudKit scopes; 3 for any other store.
    private var scopeRank: Int {
        if self.name.equals("private") { return 0 }
        if self.name.equals("shared") { return 1 }
        if self.name.equals("public") { return 2 }
        return 3
    }
}

extension Database: Codable {
    /// Persisted as its name.
    public init(from decoder: any Decoder) throws {
        let string = try decoder.singleValueContainer().decode(String.self)
        guard let database = Database(string) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a database name: 1-64 characters of [A-Za-z0-9._-]")
            )
        }
        self = database
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self.description)
    }
}
