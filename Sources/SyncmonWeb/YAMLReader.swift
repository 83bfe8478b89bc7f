/// Reads the YAML that web configuration files are written in, into `YAMLNode`s.
///
/// Why not a YAML library: the one that resolves here (Yams) imports all of Foundation, and with
/// it ICU; that alone kept the daemon's idle resident memory over its target. A web configuration
/// is a few nested mappings of strings with an occasional list, so this reads the part of YAML
/// 1.2 such files use and refuses the rest by name, always with a line:
/// - block mappings and block lists (`- item`, also compact: `- key: value`), a list may sit at
///   its key's indentation;
/// - plain, single-quoted and double-quoted scalars (all of YAML's escapes), across lines too;
/// - literal (`|`) and folded (`>`) block scalars with chomping and indentation indicators, which
///   is how a certificate is written inline;
/// - flow lists and mappings (`[a, b]`, `{a: b}`), across lines too;
/// - comments, a leading byte order mark, one document with optional `---` and `...`.
/// Refused: anchors, aliases, tags, directives, complex keys, duplicate keys, a second document,
/// tabs as indentation, control characters, nesting deeper than `maximumDepth`.
///
/// Lines are counted at LF, CR and CRLF, as YAML 1.2 breaks lines.
struct YAMLReader {
    /// Deep enough for any configuration, shallow enough that `[[[[…` cannot exhaust the stack.
    static let maximumDepth = 64

    let bytes: [UInt8]
    var index = 0
    var line = 1
    var lineStart = 0
    var depth = 0
    /// The indentation of the block a flow collection sits in. Its lines must be indented more
    /// (a closing bracket aside), so a line that is not means the bracket was never closed.
    var flowParentIndent = -1

    /// The document in `text`, or nil when it holds none (only blank lines and comments).
    static func read(_ text: String) throws(WebConfiguration.ParseError) -> YAMLNode? {
        var reader = YAMLReader(bytes: Array(text.utf8))
        return try reader.document()
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    // MARK: Document

    mutating func document() throws(WebConfiguration.ParseError) -> YAMLNode? {
        try self.refuseControlCharacters()
        if self.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { self.index = 3; self.lineStart = 3 }
        guard try self.skipToContent() else { return nil }
        if self.byte == UInt8(ascii: "%") { throw self.failure("directives (%) are not supported") }
        if self.atDocumentMarker("---") {
            self.index += 3
            try self.expectLineEnd(after: "---")
            guard try self.skipToContent() else { return nil }
        }
        var root: YAMLNode? = nil
        if !self.atDocumentMarker("...") && !self.atDocumentMarker("---") {
            root = try self.blockContent(indent: self.column, parentIndent: -1)
        }
        guard try self.skipToContent() else { return root }
        if self.atDocumentMarker("...") {
            self.index += 3
            try self.expectLineEnd(after: "...")
            if try self.skipToContent() { throw self.failure("text after the end of the document (...)") }
            return root
        }
        if self.atDocumentMarker("---") { throw self.failure("a second document (a web configuration is one document)") }
        throw self.failure("unexpected text (is its indentation right?)")
    }

    // MARK: Block structure

    /// The node whose first character is under the cursor, at column `indent`, inside a parent
    /// block at `parentIndent`.
    mutating func blockContent(indent: Int, parentIndent: Int) throws(WebConfiguration.ParseError) -> YAMLNode {
        try self.enter()
        defer { self.depth -= 1 }
        if self.atSequenceEntry { return try self.blockSequence(indent: indent) }
        if self.looksLikeKey() { return try self.blockMapping(indent: indent) }
        return try self.inlineValue(parentIndent: parentIndent)
    }

    /// A value that starts on the lines after its key or `-`: more indented than the parent, or
    /// a list at a key's own indentation; else it is empty.
    mutating func blockValue(parentIndent: Int, listAtParentIndent: Bool, emptyLine: Int) throws(WebConfiguration.ParseError) -> YAMLNode {
        guard try self.skipToContent(), !self.atAnyDocumentMarker else { return .scalar("", plain: true, line: emptyLine) }
        let indent = self.column
        if indent > parentIndent || (listAtParentIndent && indent == parentIndent && self.atSequenceEntry) {
            return try self.blockContent(indent: indent, parentIndent: parentIndent)
        }
        return .scalar("", plain: true, line: emptyLine)
    }

    mutating func blockSequence(indent: Int) throws(WebConfiguration.ParseError) -> YAMLNode {
        let startLine = self.line
        var items: [YAMLNode] = []
        while true {
            let itemLine = self.line
            self.index += 1  // the "-"
            self.skipSpaces()
            if self.atLineEndOrComment {
                try self.expectLineEnd(after: "-")
                items.append(try self.blockValue(parentIndent: indent, listAtParentIndent: false, emptyLine: itemLine))
            } else {
                items.append(try self.blockContent(indent: self.column, parentIndent: indent))
            }
            guard try self.skipToContent(), !self.atAnyDocumentMarker else { break }
            let column = self.column
            if column == indent && self.atSequenceEntry { continue }
            if column <= indent { break }
            throw self.failure("unexpected indentation: a list item or less indented text was expected")
        }
        return .sequence(items, line: startLine)
    }

    mutating func blockMapping(indent: Int) throws(WebConfiguration.ParseError) -> YAMLNode {
        let startLine = self.line
        var pairs: [(key: YAMLNode, value: YAMLNode)] = []
        var seen: Set<String> = []
        while true {
            let key = try self.mappingKey()
            if case .scalar(let text, _, let line) = key, !seen.insert(text).inserted {
                throw WebConfiguration.ParseError(line: line, "duplicate key \(text)")
            }
            self.skipSpaces()
            let value: YAMLNode
            if self.atLineEndOrComment {
                try self.expectLineEnd(after: "the key")
                value = try self.blockValue(parentIndent: indent, listAtParentIndent: true, emptyLine: key.line)
            } else {
                if self.atSequenceEntry { throw self.failure("a list cannot start on its key's line (start it on the next line)") }
                value = try self.inlineValue(parentIndent: indent)
            }
            pairs.append((key, value))
            guard try self.skipToContent(), !self.atAnyDocumentMarker else { break }
            let column = self.column
            if column < indent { break }
            if column == indent {
                if self.atSequenceEntry { throw self.failure("a list item where a key was expected") }
                guard self.looksLikeKey() else {
                    try self.refuseIndicator()
                    throw self.failure("a key (key: value) was expected")
                }
                continue
            }
            throw self.failure("unexpected indentation (is the line above missing a ':'?)")
        }
        return .mapping(pairs, line: startLine)
    }

    /// A block mapping's key and its ':'.
    mutating func mappingKey() throws(WebConfiguration.ParseError) -> YAMLNode {
        let keyLine = self.line
        switch self.byte {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            let text = try self.quoted()
            self.skipSpaces()
            guard self.byte == UInt8(ascii: ":") else { throw self.failure("a ':' was expected after the key") }
            self.index += 1
            return .scalar(text, plain: false, line: keyLine)
        default:
            let start = self.index
            while !self.atLineEnd, !(self.byte == UInt8(ascii: ":") && self.isBlank(at: self.index + 1)) { self.index += 1 }
            let text = self.text(start..<self.index, trimmingTrailingBlanks: true)
            if text.isEmpty { throw self.failure("a key is missing before ':'") }
            self.index += 1  // the ":"
            return .scalar(text, plain: true, line: keyLine)
        }
    }

    /// Whether the current line, from the cursor, is `key: …` (a plain or quoted key).
    func looksLikeKey() -> Bool {
        var position = self.index
        switch self.byte {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            // Read the quoted text on a copy (the bytes are shared, not copied): a key is one
            // line, then ':'.
            var probe = self
            guard (try? probe.quoted()) != nil, probe.line == self.line else { return false }
            probe.skipSpaces()
            return probe.byte == UInt8(ascii: ":")
        case UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"), UInt8(ascii: "|"),
            UInt8(ascii: ">"), UInt8(ascii: "%"), UInt8(ascii: "@"), UInt8(ascii: "`"), UInt8(ascii: "#"):
            return false
        default:
            // `? ` starts a complex key, `: ` lacks its key, `- ` is a list item.
            let indicator = self.bytes[position]
            if indicator == UInt8(ascii: "?") || indicator == UInt8(ascii: ":") || indicator == UInt8(ascii: "-"), self.isBlank(at: position + 1) {
                return false
            }
            while position < self.bytes.count, !self.isBreak(self.bytes[position]) {
                let byte = self.bytes[position]
                if byte == UInt8(ascii: ":") && self.isBlank(at: position + 1) { return true }
                if byte == UInt8(ascii: "#") && position > self.index && self.isSpace(self.bytes[position - 1]) { return false }
                position += 1
            }
            return false
        }
    }

    /// A value that starts on the cursor's line: a block scalar, a flow collection, a quoted or a
    /// plain scalar. Leaves the cursor at the start of the line after it.
    mutating func inlineValue(parentIndent: Int) throws(WebConfiguration.ParseError) -> YAMLNode {
        let startLine = self.line
        switch self.byte {
        case UInt8(ascii: "|"), UInt8(ascii: ">"):
            return try self.blockScalar(parentIndent: parentIndent)
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            self.flowParentIndent = parentIndent
            let node = try self.flowNode()
            try self.expectLineEnd(after: "the closing bracket")
            return node
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            let text = try self.quoted()
            try self.expectLineEnd(after: "the quoted text")
            return .scalar(text, plain: false, line: startLine)
        default:
            try self.refuseIndicator()
            return try self.plainScalar(parentIndent: parentIndent)
        }
    }
}
