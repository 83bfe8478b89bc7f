/// Writes JSON text by hand: status documents are small, and a hand-written writer keeps the
/// key order of SPEC §4 and needs no Foundation.
struct JSONWriter {
    private(set) var output = ""
    private let pretty: Bool
    private var depth = 0
    /// Whether the current container already has a member (a comma comes first).
    private var hasMember: [Bool] = [false]

    init(pretty: Bool) {
        self.pretty = pretty
    }

    private mutating func newline() {
        guard self.pretty else { return }
        self.output += "\n" + String(repeating: "  ", count: self.depth)
    }

    private mutating func beginMember(key: String?) {
        if self.hasMember[self.hasMember.count - 1] { self.output += "," }
        self.hasMember[self.hasMember.count - 1] = true
        if self.depth > 0 { self.newline() }
        if let key {
            Self.appendString(key, to: &self.output)
            self.output += self.pretty ? ": " : ":"
        }
    }

    mutating func beginObject(key: String? = nil) {
        self.beginMember(key: key)
        self.output += "{"
        self.depth += 1
        self.hasMember.append(false)
    }

    mutating func endObject() {
        self.close("}")
    }

    mutating func beginArray(key: String? = nil) {
        self.beginMember(key: key)
        self.output += "["
        self.depth += 1
        self.hasMember.append(false)
    }

    mutating func endArray() {
        self.close("]")
    }

    private mutating func close(_ bracket: String) {
        let hadMembers = self.hasMember.removeLast()
        self.depth -= 1
        if hadMembers { self.newline() }
        self.output += bracket
    }

    mutating func string(_ value: String?, key: String? = nil) {
        self.beginMember(key: key)
        if let value { Self.appendString(value, to: &self.output) } else { self.output += "null" }
    }

    mutating func integer(_ value: Int64, key: String? = nil) {
        self.beginMember(key: key)
        self.output += String(value)
    }

    mutating func bool(_ value: Bool, key: String? = nil) {
        self.beginMember(key: key)
        self.output += value ? "true" : "false"
    }

    /// Appends `value` as a JSON string literal, escaping what RFC 8259 requires.
    static func appendString(_ value: String, to output: inout String) {
        output += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
