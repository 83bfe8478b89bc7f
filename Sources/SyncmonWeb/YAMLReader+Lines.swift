/// The cursor over the text: lines, white space, comments, document markers, and the checks
/// every part of the reader shares.
extension YAMLReader {
    /// Moves to the next character that is neither white space, a line break nor in a comment;
    /// false at the end. A tab in a content line's indentation is refused, as YAML does.
    mutating func skipToContent() throws(WebConfiguration.ParseError) -> Bool {
        self.skipWhiteSpaceAndComments()
        guard self.index < self.bytes.count else { return false }
        let indentation = self.bytes[self.lineStart..<self.index]
        if indentation.contains(UInt8(ascii: "\t")) && indentation.allSatisfy(self.isSpace) {
            throw self.failure("a tab in the indentation (YAML indents with spaces)")
        }
        return true
    }

    /// Past spaces, tabs, line breaks and comments (a `#` at a line's start or after white
    /// space), to the next other character or the end.
    mutating func skipWhiteSpaceAndComments() {
        while self.index < self.bytes.count {
            let byte = self.bytes[self.index]
            if self.isSpace(byte) {
                self.index += 1
            } else if self.isBreak(byte) {
                self.consumeBreak()
            } else if byte == UInt8(ascii: "#") && (self.index == self.lineStart || self.isSpace(self.bytes[self.index - 1])) {
                while !self.atLineEnd { self.index += 1 }
            } else {
                return
            }
        }
    }

    /// After a value: white space, perhaps a comment, then the line's end, which is consumed.
    mutating func expectLineEnd(after what: String) throws(WebConfiguration.ParseError) {
        self.skipSpaces()
        if self.byte == UInt8(ascii: "#") {
            guard self.index > self.lineStart, self.isSpace(self.bytes[self.index - 1]) else {
                throw self.failure("a comment needs a space before its #")
            }
            while !self.atLineEnd { self.index += 1 }
        }
        guard self.atLineEnd else {
            if self.byte == UInt8(ascii: ":") { throw self.failure("a ':' after \(what) (is this a key on the wrong line?)") }
            throw self.failure("unexpected text after \(what)")
        }
        if self.index < self.bytes.count { self.consumeBreak() }
    }

    func refuseControlCharacters() throws(WebConfiguration.ParseError) {
        var line = 1
        var previous: UInt8 = 0
        for byte in self.bytes {
            if byte == UInt8(ascii: "\n") {
                if previous != UInt8(ascii: "\r") { line += 1 }
            } else if byte == UInt8(ascii: "\r") {
                line += 1
            } else if byte < 0x20 && byte != UInt8(ascii: "\t") || byte == 0x7F {
                throw WebConfiguration.ParseError(
                    line: line, "not valid YAML: control character 0x\(String(byte, radix: 16, uppercase: true)) (YAML allows only tabs and line breaks)")
            }
            previous = byte
        }
    }

    mutating func enter() throws(WebConfiguration.ParseError) {
        self.depth += 1
        if self.depth > Self.maximumDepth { throw self.failure("nested more than \(Self.maximumDepth) levels deep") }
    }

    var byte: UInt8? { self.index < self.bytes.count ? self.bytes[self.index] : nil }
    var column: Int { self.index - self.lineStart }
    var atLineEnd: Bool { self.index >= self.bytes.count || self.isBreak(self.bytes[self.index]) }
    var atLineEndOrComment: Bool { self.atLineEnd || self.byte == UInt8(ascii: "#") }
    var atSequenceEntry: Bool { self.byte == UInt8(ascii: "-") && self.isBlank(at: self.index + 1) }
    var atAnyDocumentMarker: Bool { self.atAnyDocumentMarker(lineStartAt: self.index) }

    func atAnyDocumentMarker(lineStartAt start: Int) -> Bool {
        guard start == self.lineStart else { return false }
        return self.atDocumentMarker("---", at: start) || self.atDocumentMarker("...", at: start)
    }

    func atDocumentMarker(_ marker: StaticString, at start: Int? = nil) -> Bool {
        let start = start ?? self.index
        guard start == self.lineStart, start + 3 <= self.bytes.count else { return false }
        let markerBytes = UnsafeBufferPointer(start: marker.utf8Start, count: marker.utf8CodeUnitCount)
        return self.bytes[start..<(start + 3)].elementsEqual(markerBytes) && self.isBlank(at: start + 3)
    }

    func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    func isBreak(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") }

    /// White space, a line break, or the end of the text.
    func isBlank(at position: Int) -> Bool {
        position >= self.bytes.count || self.isSpace(self.bytes[position]) || self.isBreak(self.bytes[position])
    }

    func isFlowIndicator(at position: Int) -> Bool {
        guard position < self.bytes.count else { return false }
        return [UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}")].contains(self.bytes[position])
    }

    func countSpaces(from start: Int) -> Int {
        var position = start
        while position < self.bytes.count, self.bytes[position] == UInt8(ascii: " ") { position += 1 }
        return position - start
    }

    mutating func skipSpaces() {
        while self.index < self.bytes.count, self.isSpace(self.bytes[self.index]) { self.index += 1 }
    }

    /// Past one line break (CRLF counts once).
    mutating func consumeBreak() {
        if self.bytes[self.index] == UInt8(ascii: "\r"), self.index + 1 < self.bytes.count, self.bytes[self.index + 1] == UInt8(ascii: "\n") {
            self.index += 1
        }
        self.index += 1
        self.line += 1
        self.lineStart = self.index
    }

    func text(_ range: Range<Int>, trimmingTrailingBlanks trim: Bool) -> String {
        var end = range.upperBound
        if trim { while end > range.lowerBound, self.isSpace(self.bytes[end - 1]) { end -= 1 } }
        return String(decoding: self.bytes[range.lowerBound..<end], as: UTF8.self)
    }

    func failure(_ message: String) -> WebConfiguration.ParseError {
        WebConfiguration.ParseError(line: self.line, "not valid YAML: \(message)")
    }
}
