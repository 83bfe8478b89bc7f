/// A line of a replayed stream that was rejected: its number (from 1, blank lines counted), why,
/// and its start, so that `syncmon replay` can say which line to fix.
public struct RejectedLine: Sendable, Equatable, CustomStringConvertible {
    public var number: UInt64
    public var rejection: Rejection
    /// The line's first bytes, control characters escaped; empty for a line too long to keep.
    public var excerpt: String
    /// For an `unknown_type` line, the type it asked for, so that the rejection can suggest the
    /// type meant, as `syncmon emit` does.
    public var typeName: String?

    public init(number: UInt64, rejection: Rejection, excerpt: String, typeName: String? = nil) {
        self.number = number
        self.rejection = rejection
        self.excerpt = excerpt
        self.typeName = typeName
    }

    /// `line 3: malformed (not a JSON object): not json at all`.
    public var description: String {
        let text = "line \(self.number): \(self.rejection.reason) (\(Self.explain(self.rejection, typeName: self.typeName)))"
        return self.excerpt.isEmpty ? text : text + ": " + self.excerpt
    }

    /// The reason in words, with the field at fault.
    static func explain(_ rejection: Rejection, typeName: String?) -> String {
        let field = rejection.field.map { "\($0)" }
        switch rejection.reason {
        case .unknownType:
            guard let typeName else { return "unknown event type in the field type" }
            // Quoted as JSON, so a control character in it shows escaped; cut, as the excerpt is.
            let shown = JSONText.quoted(String(typeName.prefix(64)))
            // Only a near miss is named: the list of every type would drown the line.
            let nearest = NearestName.nearest(to: typeName, in: EventType.allCases.map(\.description))
            return "unknown event type \(shown) in the field type" + (nearest.map { "; did you mean \($0)?" } ?? "")
        case .malformed: return field.map { "the field \($0) is not valid JSON" } ?? "not a JSON object"
        case .tooLarge: return "longer than the line limit, 64 KiB by default"
        case .unsupportedVersion: return "protocol version: v must be 1"
        case .invalidField: return field.map { "the field \($0) is missing or invalid" } ?? "a field is missing or invalid"
        case .engineLimit: return "one (engine, database) pair more than the limit"
        case .forbidden: return "this writer may not report for the engine"
        }
    }

    /// A control byte as C and `od -c` write it, for a person: `\t`, `\r`, else `\x08`, two
    /// hex digits (never Swift's `\u{8}`).
    static func escaped(_ byte: UInt8) -> String {
        switch byte {
        case 0x09: return "\\t"
        case 0x0D: return "\\r"
        default:
            let digits = String(byte, radix: 16, uppercase: true)
            return "\\x" + (digits.count < 2 ? "0" + digits : digits)
        }
    }

    /// The first 80 characters of `bytes`, invalid UTF-8 replaced and control characters escaped
    /// (``escaped(_:)``), with `…` when cut.
    static func excerpt(of bytes: UnsafeRawBufferPointer) -> String {
        let limit = 80
        let text = String(decoding: bytes.prefix(limit * 4), as: UTF8.self)
        var result = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                result += "…"
                break
            }
            if scalar.value < 0x20 || scalar.value == 0x7F {
                result += Self.escaped(UInt8(scalar.value))
            } else {
                result.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return result
    }
}
