/// A node of the YAML subset a web configuration is written in (see `YAMLReader`), with the line
/// it starts on so that every refusal can name one.
public enum YAMLNode: Equatable, Sendable {
    /// A scalar's text; `plain` is false for quoted and block scalars, which are always strings
    /// (`"true"` is not a boolean, `''` is not null).
    case scalar(String, plain: Bool, line: Int)
    /// A mapping's pairs in the file's order; keys are scalars and never repeat.
    case mapping([(key: YAMLNode, value: YAMLNode)], line: Int)
    case sequence([YAMLNode], line: Int)

    /// The line (1-based) the node starts on.
    public var line: Int {
        switch self {
        case .scalar(_, _, let line), .mapping(_, let line), .sequence(_, let line): return line
        }
    }

    /// YAML's null: an empty value, `~` or `null`, unquoted.
    public var isNull: Bool {
        guard case .scalar(let text, plain: true, _) = self else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(text)
    }

    /// A boolean as Go's yaml.v2 (which exporter-toolkit reads with) spells one, unquoted.
    public var bool: Bool? {
        guard case .scalar(let text, plain: true, _) = self else { return nil }
        switch text {
        case "true", "True", "TRUE", "yes", "Yes", "YES", "y", "Y", "on", "On", "ON": return true
        case "false", "False", "FALSE", "no", "No", "NO", "n", "N", "off", "Off", "OFF": return false
        default: return nil
        }
    }

    public static func == (left: YAMLNode, right: YAMLNode) -> Bool {
        switch (left, right) {
        case (.scalar(let a, let aPlain, let aLine), .scalar(let b, let bPlain, let bLine)):
            return a == b && aPlain == bPlain && aLine == bLine
        case (.sequence(let a, let aLine), .sequence(let b, let bLine)):
            return a == b && aLine == bLine
        case (.mapping(let a, let aLine), .mapping(let b, let bLine)):
            return aLine == bLine && a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default:
            return false
        }
    }
}
