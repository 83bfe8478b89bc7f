import SyncmonCore

/// One `emit` line of a rule: `TYPE key=value…` exactly as `syncmon emit` takes its arguments,
/// where `${name}` stands for a capture of the rule's `match` and `${MESSAGE}` for the whole message.
///
/// Values type themselves as `syncmon emit` does: a literal that parses as JSON is JSON
/// (`available=false`, `modifications=3`), anything else a string. A value that is exactly one
/// `${capture}` is a number or boolean when the captured text is one (`modifications=${count}`),
/// else a string; `${MESSAGE}` and mixed text are always strings, so a message that happens to
/// read `3` never turns a string field into a number.
public struct EmitTemplate: Sendable, Equatable {
    /// A part of a value: literal text or a substitution.
    public enum Segment: Sendable, Equatable {
        case literal(String)
        case capture(String)
        case message
    }

    /// One `key=value`; dotted keys build objects (`error.code=…`).
    public struct Field: Sendable, Equatable {
        public var path: [String]
        public var segments: [Segment]
    }

    /// Why an emit line cannot be used.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The envelope keys the source sets itself: a rule may not change the pair, version or time.
    static let reservedKeys: Set<String> = ["v", "engine", "database", "type", "time", "seq"]
    /// The longest text one substitution puts into an event, so a 64 KiB message still makes an
    /// event under the line limit (the failure message keeps 256 bytes of it anyway).
    public static let substitutionLimit = 1024

    public var type: String
    public var fields: [Field]

    /// Parses `TYPE key=value…`; a value may be written in double quotes to hold spaces.
    public init(parsing text: String) throws(ParseError) {
        let words = try Self.words(text)
        guard let type = words.first else { throw ParseError(description: "emit needs an event type") }
        self.type = type
        self.fields = []
        for word in words.dropFirst() {
            guard let equals = word.firstIndex(of: "="), equals != word.startIndex else {
                throw ParseError(description: "expected key=value, got \(word)")
            }
            let key = String(word[..<equals])
            let path = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !path.contains(where: \.isEmpty) else { throw ParseError(description: "bad key \(key)") }
            guard !Self.reservedKeys.contains(path[0]) else {
                throw ParseError(description: "\(path[0]) is set by the source, not by a rule")
            }
            let segments = try Self.segments(String(word[word.index(after: equals)...]))
            self.fields.append(Field(path: path, segments: segments))
        }
    }

    /// The capture names the template refers to.
    public var captureNames: [String] {
        self.fields.flatMap { field in
            field.segments.compactMap { if case .capture(let name) = $0 { name } else { nil } }
        }
    }

    /// The event line for the pair, with substitutions from `lookup` (`nil` for `${MESSAGE}`).
    public func render(engine: String, database: String, time: Timestamp, lookup: (String?) -> String) -> String {
        var object = OrderedJSONObject()
        object.set(["v"], "1")
        object.set(["engine"], JSONText.quoted(engine))
        object.set(["database"], JSONText.quoted(database))
        object.set(["type"], JSONText.quoted(self.type))
        object.set(["time"], JSONText.quoted(RFC3339.format(time)))
        for field in self.fields {
            object.set(field.path, Self.json(field.segments, lookup: lookup))
        }
        return object.rendered
    }

    private static func json(_ segments: [Segment], lookup: (String?) -> String) -> String {
        switch segments.count {
        case 0:
            return JSONText.quoted("")
        case 1:
            switch segments[0] {
            case .literal(let text):
                return JSONText.isValue(text) ? text : JSONText.quoted(text)
            case .capture(let name):
                let text = Self.limited(lookup(name))
                return Self.isScalar(text) ? text : JSONText.quoted(text)
            case .message:
                return JSONText.quoted(Self.limited(lookup(nil)))
            }
        default:
            var text = ""
            for segment in segments {
                switch segment {
                case .literal(let literal): text += literal
                case .capture(let name): text += Self.limited(lookup(name))
                case .message: text += Self.limited(lookup(nil))
                }
            }
            return JSONText.quoted(text)
        }
    }

    /// A JSON number or boolean: what a capture may become without quotes.
    private static func isScalar(_ text: String) -> Bool {
        guard let first = text.utf8.first else { return false }
        let numeric = first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
        return (numeric || text == "true" || text == "false") && JSONText.isValue(text)
    }

    /// `text` cut to `substitutionLimit` bytes at a character boundary.
    static func limited(_ text: String) -> String {
        guard text.utf8.count > Self.substitutionLimit else { return text }
        let bytes = Array(text.utf8.prefix(Self.substitutionLimit + 1))
        var end = Self.substitutionLimit
        // Back off continuation bytes (10xxxxxx) so the cut falls before a character, not inside it.
        while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// Splits on blanks outside double quotes; quotes are removed, `\"` and `\\` escape inside them.
    private static func words(_ text: String) throws(ParseError) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quoted = false
        var escaped = false
        for character in text {
            if escaped {
                current.append(character)
                escaped = false
            } else if quoted, character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
                inWord = true
            } else if !quoted, character == " " || character == "\t" {
                if inWord { words.append(current) }
                (current, inWord) = ("", false)
            } else {
                current.append(character)
                inWord = true
            }
        }
        guard !quoted else { throw ParseError(description: "unterminated quote") }
        if inWord { words.append(current) }
        return words
    }

    /// Where the first `${` of `text` starts.
    private static func substitutionStart(in text: Substring) -> Substring.Index? {
        var index = text.startIndex
        while let dollar = text[index...].firstIndex(of: "$") {
            let next = text.index(after: dollar)
            if next < text.endIndex, text[next] == "{" { return dollar }
            index = next
        }
        return nil
    }

    /// Literal text and `${…}` substitutions; a `$` not followed by `{` is literal.
    private static func segments(_ value: String) throws(ParseError) -> [Segment] {
        var segments: [Segment] = []
        var rest = Substring(value)
        while let dollar = Self.substitutionStart(in: rest) {
            if dollar > rest.startIndex { segments.append(.literal(String(rest[..<dollar]))) }
            let nameStart = rest.index(dollar, offsetBy: 2)
            guard let close = rest[nameStart...].firstIndex(of: "}") else {
                throw ParseError(description: "unterminated ${ in \(value)")
            }
            let name = String(rest[nameStart..<close])
            guard !name.isEmpty else { throw ParseError(description: "empty ${} in \(value)") }
            segments.append(name == "MESSAGE" ? .message : .capture(name))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty || segments.isEmpty { segments.append(.literal(String(rest))) }
        return segments
    }
}

/// A JSON object built from dotted keys whose leaves are JSON text; keys keep their first order.
struct OrderedJSONObject {
    private enum Node {
        case value(String)
        case object(OrderedJSONObject)
    }

    private var keys: [String] = []
    private var nodes: [String: Node] = [:]

    mutating func set(_ path: [String], _ json: String) {
        guard let first = path.first else { return }
        if self.nodes[first] == nil { self.keys.append(first) }
        guard path.count > 1 else {
            self.nodes[first] = .value(json)
            return
        }
        var nested = OrderedJSONObject()
        if case .object(let existing) = self.nodes[first] { nested = existing }
        nested.set(Array(path.dropFirst()), json)
        self.nodes[first] = .object(nested)
    }

    var rendered: String {
        var out = "{"
        for (index, key) in self.keys.enumerated() {
            if index > 0 { out += "," }
            out += JSONText.quoted(key) + ":"
            switch self.nodes[key]! {
            case .value(let json): out += json
            case .object(let object): out += object.rendered
            }
        }
        return out + "}"
    }
}
