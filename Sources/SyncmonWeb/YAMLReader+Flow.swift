/// Flow collections: `[a, b]` and `{a: b}`, which may span lines.
extension YAMLReader {
    /// A flow node: `[…]`, `{…}`, a quoted or a plain scalar; line breaks and comments between
    /// its parts are white space.
    mutating func flowNode() throws(WebConfiguration.ParseError) -> YAMLNode {
        try self.enter()
        defer { self.depth -= 1 }
        let startLine = self.line
        switch self.byte {
        case UInt8(ascii: "["):
            self.index += 1
            var items: [YAMLNode] = []
            while true {
                try self.skipFlowSpace(openedOn: startLine, "[")
                if self.byte == UInt8(ascii: "]") { self.index += 1; break }
                items.append(try self.flowNode())
                try self.skipFlowSpace(openedOn: startLine, "[")
                if self.byte == UInt8(ascii: ":") { throw self.failure("a key: value pair inside [ ] is not supported (use { })") }
                if self.byte == UInt8(ascii: ",") { self.index += 1; continue }
                guard self.byte == UInt8(ascii: "]") else { throw self.failure("a ',' or ']' was expected") }
            }
            return .sequence(items, line: startLine)
        case UInt8(ascii: "{"):
            self.index += 1
            var pairs: [(key: YAMLNode, value: YAMLNode)] = []
            var seen: Set<String> = []
            while true {
                try self.skipFlowSpace(openedOn: startLine, "{")
                if self.byte == UInt8(ascii: "}") { self.index += 1; break }
                if self.byte == UInt8(ascii: "[") || self.byte == UInt8(ascii: "{") {
                    throw self.failure("a mapping or list as a key is not supported")
                }
                let key = try self.flowNode()
                if case .scalar(let text, _, let line) = key, !seen.insert(text).inserted {
                    throw WebConfiguration.ParseError(line: line, "duplicate key \(text)")
                }
                try self.skipFlowSpace(openedOn: startLine, "{")
                var value = YAMLNode.scalar("", plain: true, line: key.line)
                if self.byte == UInt8(ascii: ":") {
                    self.index += 1
                    try self.skipFlowSpace(openedOn: startLine, "{")
                    if self.byte != UInt8(ascii: ",") && self.byte != UInt8(ascii: "}") { value = try self.flowNode() }
                    try self.skipFlowSpace(openedOn: startLine, "{")
                }
                pairs.append((key, value))
                if self.byte == UInt8(ascii: ",") { self.index += 1; continue }
                guard self.byte == UInt8(ascii: "}") else { throw self.failure("a ',' or '}' was expected") }
            }
            return .mapping(pairs, line: startLine)
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            return .scalar(try self.quoted(), plain: false, line: startLine)
        case UInt8(ascii: "|"), UInt8(ascii: ">"):
            throw self.failure("a block scalar (| or >) cannot be inside [ ] or { }")
        case UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ","):
            throw self.failure("unexpected '\(Character(Unicode.Scalar(self.byte ?? 0)))'")
        default:
            try self.refuseIndicator()
            return .scalar(self.flowPlainScalar(), plain: true, line: startLine)
        }
    }

    /// A plain scalar inside `[ ]` or `{ }`: it ends at `,`, a bracket, `: ` or a comment, and
    /// its lines fold into one.
    mutating func flowPlainScalar() -> String {
        var text = ""
        while true {
            let start = self.index
            while !self.atLineEnd {
                let byte = self.bytes[self.index]
                if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "{")
                    || byte == UInt8(ascii: "}")
                {
                    break
                }
                if byte == UInt8(ascii: ":") && (self.isBlank(at: self.index + 1) || self.isFlowIndicator(at: self.index + 1)) { break }
                if byte == UInt8(ascii: "#") && self.index > start && self.isSpace(self.bytes[self.index - 1]) { break }
                self.index += 1
            }
            text += self.text(start..<self.index, trimmingTrailingBlanks: true)
            guard self.atLineEnd, self.index < self.bytes.count else { return text }
            // The text may go on on the next line.
            let saved = self
            self.consumeBreak()
            var emptyLines = 0
            while true {
                self.skipSpaces()
                guard self.atLineEnd, self.index < self.bytes.count else { break }
                emptyLines += 1
                self.consumeBreak()
            }
            guard let byte = self.byte, !self.isFlowIndicator(at: self.index), byte != UInt8(ascii: "#"), byte != UInt8(ascii: ":"),
                !self.atAnyDocumentMarker, !self.startsLessIndentedLine
            else {
                self = saved
                return text
            }
            text += emptyLines == 0 ? " " : String(repeating: "\n", count: emptyLines)
        }
    }

    /// Whether the cursor is on the first character of a line that is not indented more than
    /// the block the flow collection sits in.
    var startsLessIndentedLine: Bool {
        self.column <= self.flowParentIndent && self.bytes[self.lineStart..<self.index].allSatisfy(self.isSpace)
    }

    /// Spaces, tabs, line breaks and comments inside a flow collection; a line indented no more
    /// than the collection's block means its bracket was never closed.
    mutating func skipFlowSpace(openedOn startLine: Int, _ bracket: String) throws(WebConfiguration.ParseError) {
        self.skipWhiteSpaceAndComments()
        if let byte = self.byte, !self.atAnyDocumentMarker,
            !self.startsLessIndentedLine || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}")
        {
            return
        }
        throw WebConfiguration.ParseError(line: startLine, "not valid YAML: the \(bracket) opened on this line is not closed")
    }
}
