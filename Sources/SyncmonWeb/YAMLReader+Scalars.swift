/// Scalars: plain and block scalars (`|`, `>`) in block context, quoted scalars anywhere, and the
/// indicators a value may not start with.
extension YAMLReader {
    /// A plain scalar in block context: its first line and any more indented lines after it,
    /// folded into one line (an empty line keeps a line break).
    mutating func plainScalar(parentIndent: Int) throws(WebConfiguration.ParseError) -> YAMLNode {
        let startLine = self.line
        var (text, endedByComment) = try self.plainLine()
        try self.expectLineEnd(after: "the value")
        while !endedByComment {
            // Look ahead: empty lines, then a line more indented than the parent continues the text.
            let saved = self
            var emptyLines = 0
            var continues = false
            while self.index < self.bytes.count {
                let start = self.index
                while self.index < self.bytes.count, self.isSpace(self.bytes[self.index]) { self.index += 1 }
                if self.atLineEnd {
                    if self.index == self.bytes.count { break }
                    emptyLines += 1
                    self.consumeBreak()
                    continue
                }
                let indent = self.countSpaces(from: start)
                continues = indent > parentIndent && self.byte != UInt8(ascii: "#") && !self.atAnyDocumentMarker(lineStartAt: start)
                break
            }
            guard continues else {
                self = saved
                break
            }
            let next = try self.plainLine()
            text += (emptyLines == 0 ? " " : String(repeating: "\n", count: emptyLines)) + next.text
            endedByComment = next.endedByComment
            try self.expectLineEnd(after: "the value")
        }
        return .scalar(text, plain: true, line: startLine)
    }

    /// One line of a plain scalar, up to a comment or the line's end.
    mutating func plainLine() throws(WebConfiguration.ParseError) -> (text: String, endedByComment: Bool) {
        let start = self.index
        while !self.atLineEnd {
            let byte = self.bytes[self.index]
            if byte == UInt8(ascii: ":") && self.isBlank(at: self.index + 1) {
                throw self.failure("a ': ' inside a value (quote the value, or is this a key on the wrong line?)")
            }
            if byte == UInt8(ascii: "#") && self.index > start && self.isSpace(self.bytes[self.index - 1]) {
                return (self.text(start..<self.index, trimmingTrailingBlanks: true), true)
            }
            self.index += 1
        }
        return (self.text(start..<self.index, trimmingTrailingBlanks: true), false)
    }

    /// A literal (`|`) or folded (`>`) block scalar; the cursor is on its indicator.
    mutating func blockScalar(parentIndent: Int) throws(WebConfiguration.ParseError) -> YAMLNode {
        let startLine = self.line
        let literal = self.byte == UInt8(ascii: "|")
        self.index += 1
        var chomping = UInt8(ascii: " ")
        var explicitIndent: Int? = nil
        while let byte = self.byte, !self.isBlank(at: self.index) {
            if (byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")) && chomping == UInt8(ascii: " ") {
                chomping = byte
            } else if byte >= UInt8(ascii: "1") && byte <= UInt8(ascii: "9") && explicitIndent == nil {
                explicitIndent = Int(byte - UInt8(ascii: "0"))
            } else {
                throw self.failure("a block scalar's header is | or > with at most a chomping (+ or -) and an indentation (1-9) indicator")
            }
            self.index += 1
        }
        try self.expectLineEnd(after: "the block scalar's header")

        let base = max(parentIndent, 0)
        var contentIndent = explicitIndent.map { base + $0 }
        var lines: [String] = []
        var widestLeadingEmptyLine = 0
        while self.index < self.bytes.count {
            let start = self.index
            let spaces = self.countSpaces(from: start)
            var end = start
            while end < self.bytes.count, !self.isBreak(self.bytes[end]) { end += 1 }
            let blank = self.bytes[start..<end].allSatisfy { $0 == UInt8(ascii: " ") }
            if contentIndent == nil, !blank {
                // The first line of text sets the indentation.
                guard spaces > parentIndent else { break }
                guard widestLeadingEmptyLine <= spaces else {
                    throw self.failure("a leading empty line of a block scalar is more indented than its text")
                }
                contentIndent = spaces
            }
            if blank {
                // An empty line; past the indentation its spaces are text (in a literal scalar).
                if let indent = contentIndent {
                    lines.append(String(repeating: " ", count: max(spaces - indent, 0)))
                } else {
                    widestLeadingEmptyLine = max(widestLeadingEmptyLine, spaces)
                    lines.append("")
                }
            } else {
                guard let indent = contentIndent, spaces >= indent, !self.atAnyDocumentMarker(lineStartAt: start) else { break }
                lines.append(self.text((start + indent)..<end, trimmingTrailingBlanks: false))
            }
            self.index = end
            if self.index < self.bytes.count { self.consumeBreak() }
        }
        let trailingEmpty = lines.reversed().prefix { $0.isEmpty }.count
        let body = Array(lines.dropLast(trailingEmpty))
        var text = literal ? body.joined(separator: "\n") : Self.fold(body)
        switch chomping {
        case UInt8(ascii: "-"): break
        case UInt8(ascii: "+"): text += String(repeating: "\n", count: (body.isEmpty ? 0 : 1) + trailingEmpty)
        default: if !body.isEmpty { text += "\n" }
        }
        return .scalar(text, plain: false, line: startLine)
    }

    /// A folded scalar's lines: a break between two lines of text becomes a space, an empty line
    /// a break, and lines that start with white space (more indented) keep their breaks.
    static func fold(_ lines: [String]) -> String {
        var result = ""
        var previousWasText = false
        var pendingBreaks = 0
        var first = true
        for line in lines {
            if line.isEmpty {
                pendingBreaks += 1
                continue
            }
            let moreIndented = line.first == " " || line.first == "\t"
            if first {
                result += String(repeating: "\n", count: pendingBreaks)
            } else if previousWasText && !moreIndented {
                result += pendingBreaks == 0 ? " " : String(repeating: "\n", count: pendingBreaks)
            } else {
                result += String(repeating: "\n", count: pendingBreaks + 1)
            }
            result += line
            previousWasText = !moreIndented
            pendingBreaks = 0
            first = false
        }
        return result
    }

    /// A single- or double-quoted scalar, which may span lines; the cursor is on its quote.
    mutating func quoted() throws(WebConfiguration.ParseError) -> String {
        let startLine = self.line
        let quote = self.bytes[self.index]
        let double = quote == UInt8(ascii: "\"")
        self.index += 1
        var output: [UInt8] = []
        while true {
            guard self.index < self.bytes.count else {
                throw WebConfiguration.ParseError(line: startLine, "not valid YAML: the quoted text opened on this line is not closed")
            }
            let byte = self.bytes[self.index]
            if byte == quote {
                if !double, self.index + 1 < self.bytes.count, self.bytes[self.index + 1] == quote {
                    output.append(quote)
                    self.index += 2
                    continue
                }
                self.index += 1
                return String(decoding: output, as: UTF8.self)
            }
            if double && byte == UInt8(ascii: "\\") {
                try self.escape(into: &output)
                continue
            }
            if self.isBreak(byte) {
                // Line folding: trailing blanks go, one break becomes a space, empty lines breaks.
                while let last = output.last, self.isSpace(last) { output.removeLast() }
                self.consumeBreak()
                var emptyLines = 0
                while true {
                    while self.index < self.bytes.count, self.isSpace(self.bytes[self.index]) { self.index += 1 }
                    guard self.index < self.bytes.count, self.isBreak(self.bytes[self.index]) else { break }
                    emptyLines += 1
                    self.consumeBreak()
                }
                if emptyLines == 0 { output.append(UInt8(ascii: " ")) } else { output += Array(repeating: UInt8(ascii: "\n"), count: emptyLines) }
                continue
            }
            output.append(byte)
            self.index += 1
        }
    }

    /// YAML's one-character escapes (`\t` also as a backslash before a real tab).
    static let simpleEscapes: [UInt8: UInt32] = [
        UInt8(ascii: "0"): 0, UInt8(ascii: "a"): 7, UInt8(ascii: "b"): 8, UInt8(ascii: "t"): 9, 9: 9, UInt8(ascii: "n"): 10,
        UInt8(ascii: "v"): 11, UInt8(ascii: "f"): 12, UInt8(ascii: "r"): 13, UInt8(ascii: "e"): 27, UInt8(ascii: " "): 32,
        UInt8(ascii: "\""): 34, UInt8(ascii: "/"): 47, UInt8(ascii: "\\"): 92, UInt8(ascii: "N"): 0x85, UInt8(ascii: "_"): 0xA0,
        UInt8(ascii: "L"): 0x2028, UInt8(ascii: "P"): 0x2029,
    ]

    /// One escape of a double-quoted scalar; the cursor is on its backslash.
    mutating func escape(into output: inout [UInt8]) throws(WebConfiguration.ParseError) {
        self.index += 1
        guard let code = self.byte else { throw self.failure("the quoted text ends in a backslash") }
        if self.isBreak(code) {
            // An escaped line break joins the lines with nothing between them.
            self.consumeBreak()
            self.skipSpaces()
            return
        }
        self.index += 1
        let value: UInt32
        if let known = Self.simpleEscapes[code] {
            value = known
        } else {
            let digits: Int
            switch code {
            case UInt8(ascii: "x"): digits = 2
            case UInt8(ascii: "u"): digits = 4
            case UInt8(ascii: "U"): digits = 8
            default: throw self.failure("unknown escape \\\(Character(Unicode.Scalar(code))) in a double-quoted text")
            }
            guard self.index + digits <= self.bytes.count,
                let parsed = UInt32(String(decoding: self.bytes[self.index..<(self.index + digits)], as: UTF8.self), radix: 16)
            else { throw self.failure("\\\(Character(Unicode.Scalar(code))) needs \(digits) hexadecimal digits") }
            value = parsed
            self.index += digits
        }
        guard let scalar = Unicode.Scalar(value) else { throw self.failure("an escape names no Unicode character") }
        output += Array(String(Character(scalar)).utf8)
    }

    /// Anchors, aliases, tags and reserved indicators: named, since a generic error would not
    /// say what to change.
    func refuseIndicator() throws(WebConfiguration.ParseError) {
        switch self.byte {
        case UInt8(ascii: "&"): throw self.failure("anchors (&) are not supported")
        case UInt8(ascii: "*"): throw self.failure("aliases (*) are not supported")
        case UInt8(ascii: "!"): throw self.failure("tags (!) are not supported")
        case UInt8(ascii: "%"), UInt8(ascii: "@"), UInt8(ascii: "`"): throw self.failure("a value cannot start with a reserved character (quote it)")
        case UInt8(ascii: "?") where self.isBlank(at: self.index + 1):
            throw self.failure("complex keys (?) are not supported")
        case UInt8(ascii: ":") where self.isBlank(at: self.index + 1):
            throw self.failure("a ':' with no key before it")
        case UInt8(ascii: "-") where self.isBlank(at: self.index + 1):
            throw self.failure("a list item cannot start here")
        default: return
        }
    }
}
