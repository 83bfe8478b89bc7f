import SyncmonCore
import Testing

/// The decoder reads plain ASCII strings and an event time's fixed head a word at a time; these
/// put the byte that must stop or refuse the fast path at every offset of the first words, so a
/// mask that misses a byte or flags the wrong one fails here.
@Suite("Word-at-a-time scanning: strings and time heads")
struct WordAtATimeScanTests {
    static let decoder = EventDecoder()

    static func decode(_ line: String) -> DecodeResult {
        Self.decoder.decode(Array(line.utf8))
    }

    static func isMalformed(_ result: DecodeResult) -> Bool {
        guard case .rejected(let rejection) = result else { return false }
        return rejection.reason == .malformed
    }

    static func engine(of line: String) -> String? {
        guard case .event(let event) = Self.decode(line) else { return nil }
        return event.engine.description
    }

    /// An engine name of `length` letters whose byte at `offset` is `replacement`.
    static func name(length: Int, replacing offset: Int, with replacement: String) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN").prefix(length).map(String.init)
        return letters.enumerated().map { $0.offset == offset ? replacement : $0.element }.joined()
    }

    @Test("a string of any length up to 40 ends at its quote, read as keys and values", arguments: 1...40)
    func plainLengths(_ length: Int) {
        let name = Self.name(length: length, replacing: -1, with: "")
        #expect(Self.engine(of: #"{"v":1,"engine":"\#(name)","type":"heartbeat","note":"\#(name)"}"#) == name)
    }

    @Test("an escape at any offset of a string is decoded, not taken as the end", arguments: 0..<24)
    func escapeAtEveryOffset(_ offset: Int) {
        let escaped = Self.name(length: 24, replacing: offset, with: #"\u0041"#)
        let plain = Self.name(length: 24, replacing: offset, with: "A")
        #expect(Self.engine(of: #"{"v":1,"engine":"\#(escaped)","type":"heartbeat"}"#) == plain)
        // A skipped value with the escape still validates and ends at its own quote.
        #expect(Self.engine(of: #"{"v":1,"engine":"e","type":"heartbeat","note":"\#(escaped)"}"#) == "e")
        #expect(Self.engine(of: #"{"v":1,"engine":"e","type":"heartbeat","note":"\#(Self.name(length: 24, replacing: offset, with: #"\""#))"}"#) == "e")
    }

    @Test("a control byte at any offset of a string makes the line malformed", arguments: 0..<24)
    func controlAtEveryOffset(_ offset: Int) {
        for control in ["\u{01}", "\u{1F}", "\t"] {
            let name = Self.name(length: 24, replacing: offset, with: control)
            #expect(Self.isMalformed(Self.decode(#"{"v":1,"engine":"\#(name)","type":"heartbeat"}"#)))
            #expect(Self.isMalformed(Self.decode(#"{"v":1,"engine":"e","type":"heartbeat","note":"\#(name)"}"#)))
        }
    }

    @Test("non-ASCII at any offset is validated: UTF-8 passes a skipped value, a broken sequence does not", arguments: 0..<24)
    func nonASCIIAtEveryOffset(_ offset: Int) {
        let valid = Self.name(length: 24, replacing: offset, with: "é")
        #expect(Self.engine(of: #"{"v":1,"engine":"e","type":"heartbeat","note":"\#(valid)"}"#) == "e")
        var broken = Array(#"{"v":1,"engine":"e","type":"heartbeat","note":""#.utf8)
        broken += Array(Self.name(length: 24, replacing: offset, with: "#").utf8).map { $0 == UInt8(ascii: "#") ? 0xC3 : $0 }
        broken += Array(#""}"#.utf8)
        #expect(Self.isMalformed(Self.decoder.decode(broken)))
    }

    static let head = Array("2026-11-21T12:34:56Z".utf8)

    @Test("a time whose head has a wrong byte at any place is refused; digits and the three date-time separators are the only bytes kept")
    func everyByteOfTheHead() {
        let separators: [Int: Set<UInt8>] = [
            4: [UInt8(ascii: "-")], 7: [UInt8(ascii: "-")], 10: Set("Tt ".utf8), 13: [UInt8(ascii: ":")], 16: [UInt8(ascii: ":")],
        ]
        let reference = RFC3339.parse("2026-11-21T12:34:56Z")
        #expect(reference != nil)
        var refusedWrongly: [String] = []
        var acceptedWrongly: [String] = []
        for place in 0..<19 {
            for byte in UInt8.min...UInt8.max {
                var text = Self.head
                text[place] = byte
                let parsed = text.withUnsafeBytes { RFC3339.parse($0) }
                if let allowed = separators[place] {
                    if allowed.contains(byte) {
                        if parsed != reference { refusedWrongly.append("\(place):\(byte)") }
                    } else if parsed != nil {
                        acceptedWrongly.append("\(place):\(byte)")
                    }
                } else if !(0x30...0x39).contains(byte), parsed != nil {
                    acceptedWrongly.append("\(place):\(byte)")
                }
            }
        }
        #expect(refusedWrongly.isEmpty)
        #expect(acceptedWrongly.isEmpty)
    }

    @Test("each digit of the head counts at its own place")
    func digitPlaces() {
        #expect(RFC3339.parse("2026-11-21T12:34:56Z") == RFC3339.parse("2026-11-21T12:34:56+00:00"))
        let base = RFC3339.parse("2026-11-21T12:34:56Z")!.microseconds
        let seconds: [(String, Int64)] = [
            ("2026-11-21T12:34:57Z", 1), ("2026-11-21T12:35:56Z", 60), ("2026-11-21T13:34:56Z", 3600),
            ("2026-11-22T12:34:56Z", 86_400), ("2026-11-21T22:34:56Z", 36_000), ("2026-11-21T12:44:56Z", 600),
            ("2026-11-21T12:34:46Z", -10),
        ]
        for (text, delta) in seconds {
            #expect(RFC3339.parse(text).map { ($0.microseconds - base) / 1_000_000 } == delta, "\(text)")
        }
        #expect(RFC3339.parse("2027-11-21T12:34:56Z").map { ($0.microseconds - base) / 86_400_000_000 } == 365)
        #expect(RFC3339.parse("2026-12-21T12:34:56Z").map { ($0.microseconds - base) / 86_400_000_000 } == 30)
        #expect(RFC3339.parse("3026-11-21T12:34:56Z") != nil)
        #expect(RFC3339.parse("2126-11-21T12:34:56Z") != nil)
    }

    /// An engine name is checked eight bytes at a time; every byte value at every offset of the
    /// word, and of a name that ends in a partial word, must be judged as the byte rule judges it.
    @Test("an engine name's word check agrees with the byte rule for every byte at every offset", arguments: 0..<8)
    func engineNameWords(_ offset: Int) {
        for value in 0...255 {
            let byte = UInt8(value)
            for filler in Array("aZ09._-".utf8) {
                var word = [UInt8](repeating: filler, count: 8)
                word[offset] = byte
                let expected = EngineName.isAllowed(byte)
                let fromWord = word.withUnsafeBytes { EngineName.allAllowed($0.loadUnaligned(as: UInt64.self)) }
                #expect(fromWord == expected, "byte \(value) at \(offset) among \(filler)")
                // The whole check on names of 8 to 15 bytes, the byte in the word and then in the
                // partial word after it, against the byte rule's check of the same bytes.
                var name = word + [UInt8](repeating: filler, count: offset)
                #expect(name.withUnsafeBytes { EngineName.isValid($0) } == EngineName.isValid(name), "byte \(value) at \(offset)")
                name[offset] = filler
                name[name.count - 1] = byte
                #expect(name.withUnsafeBytes { EngineName.isValid($0) } == EngineName.isValid(name), "byte \(value) last of \(name.count)")
            }
        }
    }
}
