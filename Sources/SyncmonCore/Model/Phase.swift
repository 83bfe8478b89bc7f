/// One of the three sync activities tracked per (engine, database), as in
/// NSPersistentCloudKitContainer's event types.
public enum Phase: Int, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
    case setup
    case `import`
    case export

    /// The wire and label spelling.
    public var description: String {
        switch self {
        case .setup: "setup"
        case .import: "import"
        case .export: "export"
        }
    }

    public init?(_ name: UnsafeRawBufferPointer) {
        if InlineName.bytes(name, equal: "setup") {
            self = .setup
        } else if InlineName.bytes(name, equal: "import") {
            self = .import
        } else if InlineName.bytes(name, equal: "export") {
            self = .export
        } else {
            return nil
        }
    }
}
