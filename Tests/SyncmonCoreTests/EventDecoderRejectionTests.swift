import SyncmonCore
import Testing

/// Every bad line is rejected with its bounded reason and, where one key is at fault, that key
/// (docs/protocol.md, docs/configuration.md#limits, docs/protocol.md#validation).
@Suite("EventDecoder: rejected lines")
struct EventDecoderRejectionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        var bytes: [UInt8]
        var reason: RejectionReason
        var field: String?
        var testDescription: String { "\(self.label) → \(self.reason)\(self.field.map { " (\($0))" } ?? "")" }

        init(_ label: String, _ line: String, _ reason: RejectionReason, _ field: String? = nil) {
            self.label = label
            self.bytes = Array(line.utf8)
            self.reason = reason
            self.field = field
        }

        init(_ label: String, bytes: [UInt8], _ reason: RejectionReason, _ field: String? = nil) {
            self.label = label
            self.bytes = bytes
            self.reason = reason
            self.field = field
        }
    }

    static func check(_ testCase: Case) {
        let result = decode(bytes: testCase.bytes)
        guard let rejection = result.rejection else {
            Issue.record("expected a rejection, got \(result.summary)")
            return
        }
        #expect(rejection.reason == testCase.reason)
        #expect(rejection.field?.description == testCase.field)
    }

    /// A heartbeat line with `raw` bytes spliced into a string value of an unknown key.
    static func withRawString(_ raw: [UInt8]) -> [UInt8] {
        Array(#"{"v":1,"engine":"notes","type":"heartbeat","note":""#.utf8) + raw + Array(#""}"#.utf8)
    }

    /// A heartbeat line with `escape` (JSON source text) as an unknown key's string.
    static func withEscape(_ escape: String) -> String {
        #"{"v":1,"engine":"notes","type":"heartbeat","note":""# + escape + #""}"#
    }

    // MARK: malformed

    static let malformed: [Case] = [
        Case("truncated object", #"{"v":1,"engine":"notes","type":"heartbeat""#, .malformed),
        Case("truncated inside a string", #"{"v":1,"engine":"no"#, .malformed),
        Case("truncated after a key", #"{"v":1,"engine""#, .malformed),
        Case("truncated after a colon", #"{"v":"#, .malformed),
        Case("only an opening brace", "{", .malformed),
        Case("trailing garbage", #"{"v":1,"engine":"notes","type":"heartbeat"} x"#, .malformed),
        Case("two objects on one line", #"{"v":1,"engine":"notes","type":"heartbeat"}{}"#, .malformed),
        Case("trailing comma after the object", #"{"v":1,"engine":"notes","type":"heartbeat"},"#, .malformed),
        Case("array instead of object", #"[{"v":1,"engine":"notes","type":"heartbeat"}]"#, .malformed),
        Case("empty array", "[]", .malformed),
        Case("a string", #""heartbeat""#, .malformed),
        Case("a number", "1", .malformed),
        Case("null", "null", .malformed),
        Case("true", "true", .malformed),
        Case("plain text", "not json at all", .malformed),
        Case("trailing comma in the object", #"{"v":1,"engine":"notes","type":"heartbeat",}"#, .malformed),
        Case("missing comma", #"{"v":1 "engine":"notes","type":"heartbeat"}"#, .malformed),
        Case("missing colon", #"{"v" 1,"engine":"notes","type":"heartbeat"}"#, .malformed),
        Case("single quotes", #"{'v':1,'engine':'notes','type':'heartbeat'}"#, .malformed),
        Case("unquoted key", #"{v:1,"engine":"notes","type":"heartbeat"}"#, .malformed),
        Case("a lone comma", #"{,}"#, .malformed),
        Case("unclosed nested array", #"{"v":1,"engine":"notes","type":"heartbeat","x":[1,2}"#, .malformed),
        Case("mismatched brackets", #"{"v":1,"engine":"notes","type":"heartbeat","x":{"a":1]}"#, .malformed),
        // Numbers
        Case("leading zero in v", #"{"v":01,"engine":"notes","type":"heartbeat"}"#, .malformed),
        Case("leading zeros in a count", #"{"v":1,"engine":"notes","type":"fetchedDatabaseChanges","modifications":007,"deletions":0}"#, .malformed),
        Case("negative leading zero", #"{"v":1,"engine":"notes","type":"heartbeat","x":-01}"#, .malformed),
        Case("fraction without digits", #"{"v":1,"engine":"notes","type":"heartbeat","x":1.}"#, .malformed),
        Case("fraction without integer part", #"{"v":1,"engine":"notes","type":"heartbeat","x":.5}"#, .malformed),
        Case("lone minus", #"{"v":1,"engine":"notes","type":"heartbeat","x":-}"#, .malformed),
        Case("exponent without digits", #"{"v":1,"engine":"notes","type":"heartbeat","x":1e}"#, .malformed),
        Case("explicit plus sign", #"{"v":+1,"engine":"notes","type":"heartbeat"}"#, .malformed),
        Case("hexadecimal number", #"{"v":1,"engine":"notes","type":"heartbeat","x":0x10}"#, .malformed),
        Case("NaN", #"{"v":1,"engine":"notes","type":"heartbeat","x":NaN}"#, .malformed),
        Case("Infinity", #"{"v":1,"engine":"notes","type":"heartbeat","x":Infinity}"#, .malformed),
        // Literals
        Case("truncated true", #"{"v":1,"engine":"notes","type":"networkStatus","available":tru}"#, .malformed),
        Case("capitalised True", #"{"v":1,"engine":"notes","type":"networkStatus","available":True}"#, .malformed),
        Case("truncated null", #"{"v":1,"engine":"notes","type":"heartbeat","time":nul}"#, .malformed),
        // Escapes
        Case("lone high surrogate escape", withEscape(#"\uD800"#), .malformed),
        Case("high surrogate escape then text", withEscape(#"\uD800x"#), .malformed),
        Case("high surrogate escape then non-surrogate escape", withEscape(#"\uD800\u0041"#), .malformed),
        Case("two high surrogate escapes", withEscape(#"\uD800\uD800"#), .malformed),
        Case("lone low surrogate escape", withEscape(#"\uDC00"#), .malformed),
        Case("reversed surrogate pair", withEscape(#"\uDE00\uD83D"#), .malformed),
        Case("lone surrogate in the engine name", #"{"v":1,"engine":"a\uD800","type":"heartbeat"}"#, .malformed),
        Case("lone surrogate in a key", #"{"\uDBFF":1,"v":1,"engine":"notes","type":"heartbeat"}"#, .malformed),
        Case("short \\u escape", withEscape(#"\u12"#), .malformed),
        Case("non-hex \\u escape", withEscape(#"\uZZZZ"#), .malformed),
        Case("unknown escape", withEscape(#"\x41"#), .malformed),
        Case("escaped single quote", withEscape(#"\'"#), .malformed),
        Case("backslash at the end of the line", #"{"v":1,"engine":"notes","type":"heartbeat","note":"\"#, .malformed),
        // Raw control characters inside strings
        Case("raw NUL in a string", bytes: withRawString([0x00]), .malformed),
        Case("raw 0x01 in a string", bytes: withRawString([0x01]), .malformed),
        Case("raw tab in a string", bytes: withRawString([0x09]), .malformed),
        Case("raw newline in a string", bytes: withRawString([0x0A]), .malformed),
        Case("raw 0x1F in a string", bytes: withRawString([0x1F]), .malformed),
        Case(
            "raw control character in the engine name", bytes: Array(#"{"v":1,"engine":"no"#.utf8) + [0x07] + Array(#"tes","type":"heartbeat"}"#.utf8),
            .malformed),
        // Invalid UTF-8 (RFC 3629)
        Case("byte 0xFF", bytes: withRawString([0xFF]), .malformed),
        Case("byte 0xFE", bytes: withRawString([0xFE]), .malformed),
        Case("lone continuation byte", bytes: withRawString([0x80]), .malformed),
        Case("overlong NUL C0 80", bytes: withRawString([0xC0, 0x80]), .malformed),
        Case("overlong C1 BF", bytes: withRawString([0xC1, 0xBF]), .malformed),
        Case("overlong slash E0 80 AF", bytes: withRawString([0xE0, 0x80, 0xAF]), .malformed),
        Case("overlong E0 9F BF", bytes: withRawString([0xE0, 0x9F, 0xBF]), .malformed),
        Case("overlong F0 80 80 AF", bytes: withRawString([0xF0, 0x80, 0x80, 0xAF]), .malformed),
        Case("overlong F0 8F BF BF", bytes: withRawString([0xF0, 0x8F, 0xBF, 0xBF]), .malformed),
        Case("encoded surrogate D800 (ED A0 80)", bytes: withRawString([0xED, 0xA0, 0x80]), .malformed),
        Case("encoded surrogate DFFF (ED BF BF)", bytes: withRawString([0xED, 0xBF, 0xBF]), .malformed),
        Case("encoded surrogate pair (CESU-8)", bytes: withRawString([0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80]), .malformed),
        Case("beyond U+10FFFF (F4 90 80 80)", bytes: withRawString([0xF4, 0x90, 0x80, 0x80]), .malformed),
        Case("lead byte F5", bytes: withRawString([0xF5, 0x80, 0x80, 0x80]), .malformed),
        Case("five-byte form F8", bytes: withRawString([0xF8, 0x88, 0x80, 0x80, 0x80]), .malformed),
        Case("truncated two-byte sequence", bytes: withRawString([0xC3]), .malformed),
        Case("truncated three-byte sequence", bytes: withRawString([0xE2, 0x82]), .malformed),
        Case("truncated four-byte sequence", bytes: withRawString([0xF0, 0x9F, 0x98]), .malformed),
        Case("bad third byte", bytes: withRawString([0xE2, 0x82, 0x41]), .malformed),
        Case("bad fourth byte", bytes: withRawString([0xF0, 0x9F, 0x98, 0x20]), .malformed),
        Case(
            "truncated sequence at the end of the line", bytes: Array(#"{"v":1,"engine":"notes","type":"heartbeat","note":""#.utf8) + [0xE2, 0x82], .malformed),
        Case("invalid UTF-8 in the engine name", bytes: Array(#"{"v":1,"engine":"n"#.utf8) + [0xC0, 0xAF] + Array(#"","type":"heartbeat"}"#.utf8), .malformed),
        Case("invalid UTF-8 in a key", bytes: Array(#"{"v":1,""#.utf8) + [0xFF] + Array(#"":1,"engine":"notes","type":"heartbeat"}"#.utf8), .malformed),
        Case("non-ASCII outside strings", bytes: Array(#"{"v":1,"engine":"notes","type":"heartbeat"}"#.utf8.dropLast()) + [0xC3, 0xA9, 0x7D], .malformed),
        Case("byte-order mark", bytes: [0xEF, 0xBB, 0xBF] + Array(#"{"v":1,"engine":"notes","type":"heartbeat"}"#.utf8), .malformed),
        // Malformed JSON in values syncmon does not otherwise read
        Case("bad JSON inside an unknown key", #"{"v":1,"engine":"notes","type":"heartbeat","x":{"a":}}"#, .malformed),
        Case("bad JSON inside an error object", #"{"v":1,"engine":"notes","type":"error","error":{"code":"x","extra":[1,]}}"#, .malformed),
        Case(
            "bad JSON inside a failure list",
            #"{"v":1,"engine":"notes","type":"sentDatabaseChanges","savedZones":0,"deletedZones":0,"failedZoneSaves":[{"code":"x"},],"failedZoneDeletes":[]}"#,
            .malformed),
        // Malformed beats every other reason: the line is not read any further.
        Case("malformed line that also has v 2", #"{"v":2,"engine":"notes","type":"heartbeat""#, .malformed),
    ]

    @Test("malformed lines", arguments: malformed)
    func malformedLines(_ testCase: Case) {
        Self.check(testCase)
    }

    /// `{"v":1,...,"x": <depth nested arrays> }`: the top-level object is one level.
    static func nested(arrays depth: Int) -> String {
        #"{"v":1,"engine":"notes","type":"heartbeat","x":"# + String(repeating: "[", count: depth)
            + String(repeating: "]", count: depth) + "}"
    }

    @Test("nesting is limited to 64 levels: 64 are accepted, 65 are malformed")
    func nestingLimit() {
        #expect(decode(Self.nested(arrays: 63)).event?.payload == .heartbeat)
        #expect(decode(Self.nested(arrays: 64)).rejection == Rejection(.malformed))
        #expect(decode(Self.nested(arrays: 10_000)).rejection == Rejection(.malformed))
        let objects =
            #"{"v":1,"engine":"notes","type":"heartbeat","x":"# + String(repeating: #"{"a":"#, count: 64) + "1"
            + String(repeating: "}", count: 64) + "}"
        #expect(decode(objects).rejection == Rejection(.malformed))
        // The limit also holds inside the values syncmon reads late (error objects, failure lists).
        func insideError(_ depth: Int) -> String {
            #"{"v":1,"engine":"notes","type":"error","error":{"code":"x","extra":"# + String(repeating: "[", count: depth)
                + String(repeating: "]", count: depth) + "}}"
        }
        #expect(decode(insideError(62)).event != nil)
        #expect(decode(insideError(63)).rejection == Rejection(.malformed))
        func insideFailure(_ depth: Int) -> String {
            #"{"v":1,"engine":"notes","type":"sentDatabaseChanges","savedZones":0,"deletedZones":0,"failedZoneDeletes":[],"failedZoneSaves":[{"code":"x","extra":"#
                + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}]}"
        }
        #expect(decode(insideFailure(61)).event != nil)
        #expect(decode(insideFailure(62)).rejection == Rejection(.malformed))
    }

    // MARK: too_large

    /// A valid heartbeat line of exactly `length` bytes (padding in an unknown key).
    static func line(ofLength length: Int) -> [UInt8] {
        let head = Array(#"{"v":1,"engine":"notes","type":"heartbeat","pad":""#.utf8)
        let tail = Array(#""}"#.utf8)
        return head + [UInt8](repeating: UInt8(ascii: "a"), count: length - head.count - tail.count) + tail
    }

    @Test("a line of exactly 65,536 bytes is accepted; 65,537 bytes is too_large")
    func lineLimit() {
        #expect(Self.line(ofLength: 65_536).count == 65_536)
        #expect(decode(bytes: Self.line(ofLength: 65_536)).event?.payload == .heartbeat)
        #expect(decode(bytes: Self.line(ofLength: 65_537)).rejection == Rejection(.tooLarge))
        #expect(decode(bytes: Self.line(ofLength: 200_000)).rejection == Rejection(.tooLarge))
    }

    @Test("a trailing \\r does not count toward the limit")
    func carriageReturnNotCounted() {
        let cr = UInt8(ascii: "\r")
        #expect(decode(bytes: Self.line(ofLength: 65_536) + [cr]).event?.payload == .heartbeat)
        #expect(decode(bytes: Self.line(ofLength: 65_537) + [cr]).rejection == Rejection(.tooLarge))
    }

    @Test("the limit is checked before anything else: oversized blank or garbage lines are too_large")
    func limitFirst() {
        #expect(decode(bytes: [UInt8](repeating: 0x20, count: 65_537)).rejection == Rejection(.tooLarge))
        #expect(decode(bytes: [UInt8](repeating: 0xFF, count: 65_537)).rejection == Rejection(.tooLarge))
        #expect(decode(bytes: [UInt8](repeating: 0x20, count: 65_536)).isBlank)
    }

    @Test("a configured maximum line length applies")
    func customLimit() {
        let line = #"{"v":1,"engine":"notes","type":"heartbeat"}"#
        #expect(decode(line, maximumLineLength: line.utf8.count).event != nil)
        #expect(decode(line, maximumLineLength: line.utf8.count - 1).rejection == Rejection(.tooLarge))
    }

    // MARK: unsupported_version and envelope fields

    static let envelope: [Case] = [
        Case("v 2", #"{"v":2,"engine":"notes","type":"heartbeat"}"#, .unsupportedVersion, "v"),
        Case("v 0", #"{"v":0,"engine":"notes","type":"heartbeat"}"#, .unsupportedVersion, "v"),
        Case("v -1", #"{"v":-1,"engine":"notes","type":"heartbeat"}"#, .unsupportedVersion, "v"),
        Case("v Int64.max", #"{"v":9223372036854775807,"engine":"notes","type":"heartbeat"}"#, .unsupportedVersion, "v"),
        Case("v 2 wins over an unknown type", #"{"v":2,"engine":"notes","type":"bogus"}"#, .unsupportedVersion, "v"),
        Case("v 2 wins over a bad engine", #"{"v":2,"engine":"","type":"heartbeat"}"#, .unsupportedVersion, "v"),
        Case("v missing", #"{"engine":"notes","type":"heartbeat"}"#, .invalidField, "v"),
        Case("empty object", "{}", .invalidField, "v"),
        Case("v null", #"{"v":null,"engine":"notes","type":"heartbeat"}"#, .invalidField, "v"),
        Case("v a string", #"{"v":"1","engine":"notes","type":"heartbeat"}"#, .invalidField, "v"),
        Case("v a fraction", #"{"v":1.0,"engine":"notes","type":"heartbeat"}"#, .invalidField, "v"),
        Case("v an exponent", #"{"v":1e0,"engine":"notes","type":"heartbeat"}"#, .invalidField, "v"),
        Case("v a boolean", #"{"v":true,"engine":"notes","type":"heartbeat"}"#, .invalidField, "v"),
        Case("v beyond Int64", #"{"v":18446744073709551617,"engine":"notes","type":"heartbeat"}"#, .invalidField, "v"),
        Case("v an object", #"{"v":{"major":1},"engine":"notes","type":"heartbeat"}"#, .invalidField, "v"),
        Case("type missing", #"{"v":1,"engine":"notes"}"#, .invalidField, "type"),
        Case("type null", #"{"v":1,"engine":"notes","type":null}"#, .invalidField, "type"),
        Case("type a number", #"{"v":1,"engine":"notes","type":5}"#, .invalidField, "type"),
        Case("type an array", #"{"v":1,"engine":"notes","type":["heartbeat"]}"#, .invalidField, "type"),
        Case("type unknown", #"{"v":1,"engine":"notes","type":"bogus"}"#, .unknownType, "type"),
        Case("type empty", #"{"v":1,"engine":"notes","type":""}"#, .unknownType, "type"),
        Case("type in the wrong case", #"{"v":1,"engine":"notes","type":"Heartbeat"}"#, .unknownType, "type"),
        Case("type with trailing space", #"{"v":1,"engine":"notes","type":"heartbeat "}"#, .unknownType, "type"),
        Case("type of another protocol", #"{"v":1,"engine":"notes","type":"didFetchRecordZoneChangesAndMore"}"#, .unknownType, "type"),
        Case(
            "type longer than 64 bytes with escapes", #"{"v":1,"engine":"notes","type":"\u0061"# + String(repeating: "b", count: 80) + #""}"#, .unknownType,
            "type"),
        Case("unknown type wins over a missing engine", #"{"v":1,"type":"bogus"}"#, .unknownType, "type"),
        Case("unknown type wins over payload checks", #"{"v":1,"engine":"notes","type":"bogus","modifications":-1}"#, .unknownType, "type"),
        Case("engine missing", #"{"v":1,"type":"heartbeat"}"#, .invalidField, "engine"),
        Case("engine null", #"{"v":1,"engine":null,"type":"heartbeat"}"#, .invalidField, "engine"),
        Case("engine a number", #"{"v":1,"engine":42,"type":"heartbeat"}"#, .invalidField, "engine"),
        Case("engine an object", #"{"v":1,"engine":{"name":"notes"},"type":"heartbeat"}"#, .invalidField, "engine"),
        Case("engine empty", #"{"v":1,"engine":"","type":"heartbeat"}"#, .invalidField, "engine"),
        Case("engine of 65 characters", #"{"v":1,"engine":""# + String(repeating: "x", count: 65) + #"","type":"heartbeat"}"#, .invalidField, "engine"),
        Case(
            "engine of 65 characters written with an escape", #"{"v":1,"engine":"\u0078"# + String(repeating: "x", count: 64) + #"","type":"heartbeat"}"#,
            .invalidField, "engine"),
        Case("engine with a space", #"{"v":1,"engine":"my notes","type":"heartbeat"}"#, .invalidField, "engine"),
        Case("engine with a slash", #"{"v":1,"engine":"a/b","type":"heartbeat"}"#, .invalidField, "engine"),
        Case("engine with a colon", #"{"v":1,"engine":"a:b","type":"heartbeat"}"#, .invalidField, "engine"),
        Case("engine with raw UTF-8 é", #"{"v":1,"engine":"café","type":"heartbeat"}"#, .invalidField, "engine"),
        Case("engine with an escaped é", #"{"v":1,"engine":"caf\u00e9","type":"heartbeat"}"#, .invalidField, "engine"),
        Case("engine with an escaped surrogate pair", #"{"v":1,"engine":"x\ud83d\ude00","type":"heartbeat"}"#, .invalidField, "engine"),
        Case("engine with an escaped newline", #"{"v":1,"engine":"no\ntes","type":"heartbeat"}"#, .invalidField, "engine"),
        Case("engine with an escaped NUL", #"{"v":1,"engine":"notes\u0000","type":"heartbeat"}"#, .invalidField, "engine"),
        Case("database with a space", #"{"v":1,"engine":"notes","database":"my store","type":"heartbeat"}"#, .invalidField, "database"),
        Case("database empty", #"{"v":1,"engine":"notes","database":"","type":"heartbeat"}"#, .invalidField, "database"),
        Case(
            "database of 65 characters",
            #"{"v":1,"engine":"notes","database":""# + String(repeating: "d", count: 65) + #"","type":"heartbeat"}"#,
            .invalidField,
            "database"
        ),
        Case("database with a slash", #"{"v":1,"engine":"notes","database":"a/b","type":"heartbeat"}"#, .invalidField, "database"),
        Case("database a number", #"{"v":1,"engine":"notes","database":1,"type":"heartbeat"}"#, .invalidField, "database"),
        Case("time not RFC 3339", #"{"v":1,"engine":"notes","type":"heartbeat","time":"yesterday"}"#, .invalidField, "time"),
        Case("time a number", #"{"v":1,"engine":"notes","type":"heartbeat","time":1795262400}"#, .invalidField, "time"),
        Case("time on February 30", #"{"v":1,"engine":"notes","type":"heartbeat","time":"2026-02-30T12:00:00Z"}"#, .invalidField, "time"),
        Case("time on February 29 of a common year", #"{"v":1,"engine":"notes","type":"heartbeat","time":"2026-02-29T12:00:00Z"}"#, .invalidField, "time"),
        Case("time at hour 24", #"{"v":1,"engine":"notes","type":"heartbeat","time":"2026-11-21T24:00:00Z"}"#, .invalidField, "time"),
        Case("time without a zone", #"{"v":1,"engine":"notes","type":"heartbeat","time":"2026-11-21T12:00:00"}"#, .invalidField, "time"),
        Case("time a date only", #"{"v":1,"engine":"notes","type":"heartbeat","time":"2026-11-21"}"#, .invalidField, "time"),
        Case("seq negative", #"{"v":1,"engine":"notes","type":"heartbeat","seq":-1}"#, .invalidField, "seq"),
        Case("seq a fraction", #"{"v":1,"engine":"notes","type":"heartbeat","seq":1.5}"#, .invalidField, "seq"),
        Case("seq with an exponent", #"{"v":1,"engine":"notes","type":"heartbeat","seq":1e3}"#, .invalidField, "seq"),
        Case("seq with a capital exponent", #"{"v":1,"engine":"notes","type":"heartbeat","seq":25E1}"#, .invalidField, "seq"),
        Case("seq 3.0", #"{"v":1,"engine":"notes","type":"heartbeat","seq":3.0}"#, .invalidField, "seq"),
        Case("seq a string", #"{"v":1,"engine":"notes","type":"heartbeat","seq":"1"}"#, .invalidField, "seq"),
        Case("seq 2^63", #"{"v":1,"engine":"notes","type":"heartbeat","seq":9223372036854775808}"#, .invalidField, "seq"),
        Case("id a number", #"{"v":1,"engine":"notes","type":"heartbeat","id":5}"#, .invalidField, "id"),
        Case("id an object", #"{"v":1,"engine":"notes","type":"heartbeat","id":{"x":1}}"#, .invalidField, "id"),
        Case(
            "id a boolean on a containerEvent", #"{"v":1,"engine":"notes","type":"containerEvent","kind":"import","id":true,"started":"2026-11-21T12:00:00Z"}"#,
            .invalidField, "id"),
    ]

    @Test("envelope: version, type, engine, database, time, seq and id", arguments: envelope)
    func envelopeRejections(_ testCase: Case) {
        Self.check(testCase)
    }

    /// The envelope in the order writers use (`v`, `engine`, `database`, `time`, `seq`, `type`),
    /// which the decoder reads straight through before its general loop: each value is judged
    /// there as anywhere else.
    static let envelopeInWritersOrder: [Case] = [
        Case("v 10", #"{"v":10,"engine":"notes","type":"heartbeat"}"#, .unsupportedVersion, "v"),
        Case("v 1.5", #"{"v":1.5,"engine":"notes","type":"heartbeat"}"#, .invalidField, "v"),
        Case("engine with a space", Self.writersOrder(engine: #""my notes""#), .invalidField, "engine"),
        Case("engine a number", Self.writersOrder(engine: "7"), .invalidField, "engine"),
        Case("engine spaced, then empty", #"{"v":1,"engine": "","type":"heartbeat"}"#, .invalidField, "engine"),
        Case("database unknown", Self.writersOrder(database: #""a/b""#), .invalidField, "database"),
        Case("time on February 30", Self.writersOrder(time: #""2026-02-30T12:00:00Z""#), .invalidField, "time"),
        Case("time with 61 seconds", Self.writersOrder(time: #""2026-11-21T12:00:61.5Z""#), .invalidField, "time"),
        Case("time with an empty fraction", Self.writersOrder(time: #""2026-11-21T12:00:00.Z""#), .invalidField, "time"),
        Case("time with a letter in the fraction", Self.writersOrder(time: #""2026-11-21T12:00:00.1aZ""#), .invalidField, "time"),
        Case("seq negative", Self.writersOrder(seq: "-1"), .invalidField, "seq"),
        Case("type unknown", Self.writersOrder(type: #""bogus""#), .unknownType, "type"),
        Case("type last, payload missing", Self.writersOrder(type: #""fetchedDatabaseChanges""#), .invalidField, "modifications"),
        Case("a second time after type is judged too", Self.writersOrder(rest: #","time":"noon""#), .invalidField, "time"),
        Case("malformed after the envelope", Self.writersOrder(rest: ","), .malformed),
        Case("malformed inside the envelope", Self.writersOrder(seq: "01"), .malformed),
    ]

    /// A line in writers' order with these JSON values (a heartbeat, valid, by default).
    static func writersOrder(
        engine: String = #""notes""#, database: String = #""private""#, time: String = #""2026-11-21T12:00:00Z""#, seq: String = "1",
        type: String = #""heartbeat""#, rest: String = ""
    ) -> String {
        #"{"v":1,"engine":"# + engine + #","database":"# + database + #","time":"# + time + #","seq":"# + seq + #","type":"# + type + rest + "}"
    }

    @Test("the envelope in writers' order is judged as anywhere else", arguments: envelopeInWritersOrder)
    func envelopeInWritersOrderRejections(_ testCase: Case) {
        Self.check(testCase)
    }

    /// A space after the opening brace sends a line through the general loop instead of the
    /// straight read of the envelope: every rejection must come out the same either way.
    @Test("every rejection is the same with the envelope read by the general loop", arguments: envelope + envelopeInWritersOrder + values)
    func sameRejectionThroughTheGeneralLoop(_ testCase: Case) {
        guard testCase.bytes.first == UInt8(ascii: "{") else { return }
        let spaced = [UInt8(ascii: "{"), UInt8(ascii: " ")] + testCase.bytes.dropFirst()
        #expect(decode(bytes: spaced).summary == decode(bytes: testCase.bytes).summary)
    }

    // MARK: invalid_field for each required payload key

    /// A valid line of each type with required payload keys, in order: (type, [(key, valid JSON value, wrong-type JSON value)]).
    static let requiredKeys: [(type: String, keys: [(key: String, valid: String, wrongType: String)])] = [
        ("fetchedDatabaseChanges", [("modifications", "3", #""3""#), ("deletions", "1", "true")]),
        ("willFetchRecordZoneChanges", [("zone", #""Z""#, "5")]),
        ("fetchedRecordZoneChanges", [("modifications", "3", "[3]"), ("deletions", "1", #"{"n":1}"#)]),
        ("didFetchRecordZoneChanges", [("zone", #""Z""#, "false")]),
        (
            "sentDatabaseChanges",
            [
                ("savedZones", "1", #""1""#), ("deletedZones", "0", "[]"),
                ("failedZoneSaves", "[]", "{}"), ("failedZoneDeletes", "[]", #""none""#),
            ]
        ),
        (
            "sentRecordZoneChanges",
            [
                ("savedRecords", "1", "1.5"), ("deletedRecords", "0", "false"),
                ("failedRecordSaves", "[]", #"{"code":"x"}"#), ("failedRecordDeletes", "[]", "0"),
            ]
        ),
        ("accountChange", [("changeType", #""signIn""#, "true")]),
        ("containerEvent", [("kind", #""import""#, "1"), ("id", #""A""#, "5"), ("started", #""2026-11-21T12:00:00Z""#, "1795262400")]),
        ("accountStatus", [("status", #""available""#, "true")]),
        ("networkStatus", [("available", "true", #""true""#)]),
        ("error", [("error", #"{"code":"quotaExceeded"}"#, #""quotaExceeded""#)]),
    ]

    static func line(type: String, keys: [(String, String)]) -> String {
        #"{"v":1,"engine":"notes","type":""# + type + "\"" + keys.map { #","\#($0.0)":\#($0.1)"# }.joined() + "}"
    }

    static var requiredKeyCases: [Case] {
        var cases: [Case] = []
        for (type, keys) in requiredKeys {
            let valid = keys.map { ($0.key, $0.valid) }
            cases.append(Case("\(type) complete", line(type: type, keys: valid), .invalidField, "<accepted>"))
            for (index, key) in keys.enumerated() {
                var missing = valid
                missing.remove(at: index)
                cases.append(Case("\(type) without \(key.key)", line(type: type, keys: missing), .invalidField, key.key))
                var null = valid
                null[index].1 = "null"
                cases.append(Case("\(type) with \(key.key) null", line(type: type, keys: null), .invalidField, key.key))
                var wrong = valid
                wrong[index].1 = key.wrongType
                cases.append(Case("\(type) with \(key.key) \(key.wrongType)", line(type: type, keys: wrong), .invalidField, key.key))
            }
        }
        return cases
    }

    @Test("each required payload key missing, null or of the wrong type is invalid_field naming it", arguments: requiredKeyCases)
    func requiredKeysRejected(_ testCase: Case) {
        if testCase.field == "<accepted>" {
            // The control line with every key present must be accepted.
            #expect(decode(bytes: testCase.bytes).event != nil, "\(decode(bytes: testCase.bytes).summary)")
        } else {
            Self.check(testCase)
        }
    }

    // MARK: invalid_field for values

    static let values: [Case] = [
        // Counts: JSON integers 0 … 2^63−1
        Case("count 3.0", #"{"v":1,"engine":"notes","type":"fetchedDatabaseChanges","modifications":3.0,"deletions":0}"#, .invalidField, "modifications"),
        Case("count 3e0", #"{"v":1,"engine":"notes","type":"fetchedDatabaseChanges","modifications":3e0,"deletions":0}"#, .invalidField, "modifications"),
        Case("count negative", #"{"v":1,"engine":"notes","type":"fetchedDatabaseChanges","modifications":1,"deletions":-1}"#, .invalidField, "deletions"),
        Case(
            "count 2^63", #"{"v":1,"engine":"notes","type":"fetchedRecordZoneChanges","modifications":9223372036854775808,"deletions":0}"#, .invalidField,
            "modifications"),
        Case(
            "count -2^63", #"{"v":1,"engine":"notes","type":"fetchedRecordZoneChanges","modifications":-9223372036854775808,"deletions":0}"#, .invalidField,
            "modifications"),
        Case(
            "count 2^64+1", #"{"v":1,"engine":"notes","type":"fetchedRecordZoneChanges","modifications":0,"deletions":18446744073709551617}"#, .invalidField,
            "deletions"),
        Case(
            "count with 30 digits",
            #"{"v":1,"engine":"notes","type":"sentRecordZoneChanges","savedRecords":123456789012345678901234567890,"deletedRecords":0,"failedRecordSaves":[],"failedRecordDeletes":[]}"#,
            .invalidField, "savedRecords"),
        Case(
            "negative savedZones",
            #"{"v":1,"engine":"notes","type":"sentDatabaseChanges","savedZones":-5,"deletedZones":0,"failedZoneSaves":[],"failedZoneDeletes":[]}"#,
            .invalidField, "savedZones"),
        Case(
            "negative deletedRecords",
            #"{"v":1,"engine":"notes","type":"sentRecordZoneChanges","savedRecords":0,"deletedRecords":-1,"failedRecordSaves":[],"failedRecordDeletes":[]}"#,
            .invalidField, "deletedRecords"),
        Case(
            "pendingRecordZoneChanges negative", #"{"v":1,"engine":"notes","type":"stateUpdate","pendingRecordZoneChanges":-1}"#, .invalidField,
            "pendingRecordZoneChanges"),
        Case(
            "pendingDatabaseChanges 2.0", #"{"v":1,"engine":"notes","type":"stateUpdate","pendingDatabaseChanges":2.0}"#, .invalidField,
            "pendingDatabaseChanges"),
        Case(
            "pendingDatabaseChanges a string", #"{"v":1,"engine":"notes","type":"stateUpdate","pendingDatabaseChanges":"2"}"#, .invalidField,
            "pendingDatabaseChanges"),
        // heartbeatSeconds > 0
        Case("heartbeatSeconds 0", #"{"v":1,"engine":"notes","type":"engineStarted","heartbeatSeconds":0}"#, .invalidField, "heartbeatSeconds"),
        Case("heartbeatSeconds 0.0", #"{"v":1,"engine":"notes","type":"engineStarted","heartbeatSeconds":0.0}"#, .invalidField, "heartbeatSeconds"),
        Case("heartbeatSeconds -0", #"{"v":1,"engine":"notes","type":"engineStarted","heartbeatSeconds":-0}"#, .invalidField, "heartbeatSeconds"),
        Case("heartbeatSeconds negative", #"{"v":1,"engine":"notes","type":"engineStarted","heartbeatSeconds":-30}"#, .invalidField, "heartbeatSeconds"),
        Case("heartbeatSeconds a string", #"{"v":1,"engine":"notes","type":"engineStarted","heartbeatSeconds":"30"}"#, .invalidField, "heartbeatSeconds"),
        Case("heartbeatSeconds a boolean", #"{"v":1,"engine":"notes","type":"engineStarted","heartbeatSeconds":true}"#, .invalidField, "heartbeatSeconds"),
        Case("heartbeatSeconds not finite", #"{"v":1,"engine":"notes","type":"engineStarted","heartbeatSeconds":1e999}"#, .invalidField, "heartbeatSeconds"),
        Case("runStarted heartbeatSeconds 0", #"{"v":1,"engine":"notes","type":"runStarted","heartbeatSeconds":0}"#, .invalidField, "heartbeatSeconds"),
        Case(
            "runStarted heartbeatSeconds a string", #"{"v":1,"engine":"notes","type":"runStarted","heartbeatSeconds":"10"}"#, .invalidField, "heartbeatSeconds"),
        // Error objects
        Case("retryAfter negative", #"{"v":1,"engine":"notes","type":"error","error":{"code":"zoneBusy","retryAfter":-1}}"#, .invalidField, "error"),
        Case("retryAfter a string", #"{"v":1,"engine":"notes","type":"error","error":{"code":"zoneBusy","retryAfter":"5"}}"#, .invalidField, "error"),
        Case("retryAfter not finite", #"{"v":1,"engine":"notes","type":"error","error":{"code":"zoneBusy","retryAfter":-1e999}}"#, .invalidField, "error"),
        Case("error.code empty", #"{"v":1,"engine":"notes","type":"error","error":{"code":""}}"#, .invalidField, "error"),
        Case("error.code missing", #"{"v":1,"engine":"notes","type":"error","error":{"message":"no code"}}"#, .invalidField, "error"),
        Case("error.code null", #"{"v":1,"engine":"notes","type":"error","error":{"code":null}}"#, .invalidField, "error"),
        Case("error.code a number", #"{"v":1,"engine":"notes","type":"error","error":{"code":3}}"#, .invalidField, "error"),
        Case("error empty object", #"{"v":1,"engine":"notes","type":"error","error":{}}"#, .invalidField, "error"),
        Case("error.message a number", #"{"v":1,"engine":"notes","type":"error","error":{"code":"x","message":5}}"#, .invalidField, "error"),
        Case(
            "optional error of the wrong type", #"{"v":1,"engine":"notes","type":"didFetchRecordZoneChanges","zone":"Z","error":"boom"}"#, .invalidField,
            "error"),
        Case(
            "optional error with an empty code", #"{"v":1,"engine":"notes","type":"didFetchRecordZoneChanges","zone":"Z","error":{"code":""}}"#, .invalidField,
            "error"),
        Case(
            "containerEvent error with negative retryAfter",
            #"{"v":1,"engine":"notes","type":"containerEvent","kind":"import","id":"A","started":"2026-11-21T12:00:00Z","ended":"2026-11-21T12:00:01Z","error":{"code":"x","retryAfter":-2}}"#,
            .invalidField, "error"),
        // Failure lists
        Case(
            "failure with empty code",
            #"{"v":1,"engine":"notes","type":"sentRecordZoneChanges","savedRecords":0,"deletedRecords":0,"failedRecordSaves":[{"code":""}],"failedRecordDeletes":[]}"#,
            .invalidField, "failedRecordSaves"),
        Case(
            "failure that is a number",
            #"{"v":1,"engine":"notes","type":"sentRecordZoneChanges","savedRecords":0,"deletedRecords":0,"failedRecordSaves":[],"failedRecordDeletes":[5]}"#,
            .invalidField, "failedRecordDeletes"),
        Case(
            "failure that is null",
            #"{"v":1,"engine":"notes","type":"sentDatabaseChanges","savedZones":0,"deletedZones":0,"failedZoneSaves":[null],"failedZoneDeletes":[]}"#,
            .invalidField, "failedZoneSaves"),
        Case(
            "failure with a numeric recordName",
            #"{"v":1,"engine":"notes","type":"sentRecordZoneChanges","savedRecords":0,"deletedRecords":0,"failedRecordSaves":[{"code":"x","recordName":5}],"failedRecordDeletes":[]}"#,
            .invalidField, "failedRecordSaves"),
        Case(
            "failure with a numeric zone",
            #"{"v":1,"engine":"notes","type":"sentDatabaseChanges","savedZones":0,"deletedZones":0,"failedZoneSaves":[],"failedZoneDeletes":[{"code":"x","zone":[]}]}"#,
            .invalidField, "failedZoneDeletes"),
        Case(
            "failure with negative retryAfter after a good one",
            #"{"v":1,"engine":"notes","type":"sentDatabaseChanges","savedZones":0,"deletedZones":0,"failedZoneSaves":[{"code":"a"},{"code":"b","retryAfter":-1}],"failedZoneDeletes":[]}"#,
            .invalidField, "failedZoneSaves"),
        // Enumerations
        Case("reason unknown", #"{"v":1,"engine":"notes","type":"willFetchChanges","reason":"automatic"}"#, .invalidField, "reason"),
        Case("reason a number", #"{"v":1,"engine":"notes","type":"didSendChanges","reason":1}"#, .invalidField, "reason"),
        Case("reason unknown on didFetchChanges", #"{"v":1,"engine":"notes","type":"didFetchChanges","reason":"Scheduled"}"#, .invalidField, "reason"),
        Case("reason unknown on willSendChanges", #"{"v":1,"engine":"notes","type":"willSendChanges","reason":""}"#, .invalidField, "reason"),
        Case("changeType unknown", #"{"v":1,"engine":"notes","type":"accountChange","changeType":"logout"}"#, .invalidField, "changeType"),
        Case(
            "kind unknown", #"{"v":1,"engine":"notes","type":"containerEvent","kind":"sync","id":"A","started":"2026-11-21T12:00:00Z"}"#, .invalidField, "kind"),
        Case("status unknown", #"{"v":1,"engine":"notes","type":"accountStatus","status":"online"}"#, .invalidField, "status"),
        Case("status in label spelling", #"{"v":1,"engine":"notes","type":"accountStatus","status":"no_account"}"#, .invalidField, "status"),
        Case("phase unknown", #"{"v":1,"engine":"notes","type":"error","phase":"fetch","error":{"code":"x"}}"#, .invalidField, "phase"),
        Case("phase a number", #"{"v":1,"engine":"notes","type":"error","phase":0,"error":{"code":"x"}}"#, .invalidField, "phase"),
        Case("available a number", #"{"v":1,"engine":"notes","type":"networkStatus","available":1}"#, .invalidField, "available"),
        Case(
            "succeeded a string",
            #"{"v":1,"engine":"notes","type":"containerEvent","kind":"import","id":"A","started":"2026-11-21T12:00:00Z","ended":"2026-11-21T12:00:01Z","succeeded":"yes"}"#,
            .invalidField, "succeeded"),
        Case(
            "zone a number on fetchedRecordZoneChanges",
            #"{"v":1,"engine":"notes","type":"fetchedRecordZoneChanges","zone":5,"modifications":0,"deletions":0}"#, .invalidField, "zone"),
        // Times in payloads
        Case(
            "started on February 30", #"{"v":1,"engine":"notes","type":"containerEvent","kind":"import","id":"A","started":"2026-02-30T00:00:00Z"}"#,
            .invalidField, "started"),
        Case(
            "started at hour 24", #"{"v":1,"engine":"notes","type":"containerEvent","kind":"import","id":"A","started":"2026-11-21T24:00:00Z"}"#, .invalidField,
            "started"),
        Case(
            "ended at minute 60",
            #"{"v":1,"engine":"notes","type":"containerEvent","kind":"import","id":"A","started":"2026-11-21T12:00:00Z","ended":"2026-11-21T12:60:00Z"}"#,
            .invalidField, "ended"),
        Case(
            "ended a number", #"{"v":1,"engine":"notes","type":"containerEvent","kind":"import","id":"A","started":"2026-11-21T12:00:00Z","ended":5}"#,
            .invalidField, "ended"),
        Case(
            "ended before started",
            #"{"v":1,"engine":"notes","type":"containerEvent","kind":"import","id":"A","started":"2026-11-21T12:00:01Z","ended":"2026-11-21T12:00:00Z"}"#,
            .invalidField, "ended"),
    ]

    @Test("values out of range, of the wrong type or not in the enumeration are invalid_field", arguments: values)
    func valueRejections(_ testCase: Case) {
        Self.check(testCase)
    }

    @Test("rejections carry a readable description with the key at fault")
    func descriptions() {
        #expect(Rejection(.invalidField, field: "seq").description == "invalid_field (seq)")
        #expect(Rejection(.malformed).description == "malformed")
        #expect(
            RejectionReason.allCases.map(\.description) == [
                "malformed", "too_large", "unsupported_version", "invalid_field", "unknown_type", "engine_limit", "forbidden",
            ])
    }
}
