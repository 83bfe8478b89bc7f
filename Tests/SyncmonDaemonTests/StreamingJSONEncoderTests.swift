import Foundation
import SyncmonContract
import SyncmonCore
import Testing

/// `StreamingJSONEncoder`: the state files' encoder writes the document `JSONEncoder` writes
/// (the same keys and values; an object's keys in the order they are encoded), for every shape
/// the `Codable` conformances produce, and it reads back into the same value.
@Suite("Streaming JSON encoder")
struct StreamingJSONEncoderTests {
    /// A value, encoded both ways and compared as parsed JSON (keys sorted); an `Equatable`
    /// one is decoded back as well. (`PairState` is not `Equatable`; `StateFileTests` loads it
    /// back and compares its status.)
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let check: @Sendable (StreamingJSONEncoder) throws -> Void
        var testDescription: String { self.name }

        init<Value: Encodable & Sendable>(_ name: String, _ value: Value) {
            self.name = name
            self.check = { encoder in
                let streamed = Data(try encoder.encode(value))
                #expect(try StreamingJSONEncoderTests.parsed(streamed) == StreamingJSONEncoderTests.parsed(JSONEncoder().encode(value)), "\(name)")
            }
        }

        init<Value: Codable & Equatable & Sendable>(_ name: String, _ value: Value) {
            self.name = name
            self.check = { encoder in
                let streamed = Data(try encoder.encode(value))
                #expect(try StreamingJSONEncoderTests.parsed(streamed) == StreamingJSONEncoderTests.parsed(JSONEncoder().encode(value)), "\(name)")
                #expect(try JSONDecoder().decode(Value.self, from: streamed) == value, "\(name)")
            }
        }
    }

    /// Parsed and written again with sorted keys: the document, whatever order its keys came in.
    static func parsed(_ data: Data) throws -> Data {
        let object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
    }

    /// Keyed, unkeyed and single values nested in each other, optionals present, absent and
    /// written as `null`, and an enum with associated values (a nested object per case).
    struct Shapes: Codable, Equatable, Sendable {
        enum Choice: Codable, Hashable, Sendable {
            case none
            case one(Int64)
            case two(first: String, second: [UInt8])
        }

        var integers: [Int64] = [0, -1, 1, .min, .max]
        var unsigned: [UInt64] = [0, .max]
        var small: [Int8] = [.min, .max]
        var flags = [true, false]
        var nested: [[Int]] = [[], [1], [2, 3]]
        var choices: [Choice] = [.none, .one(-5), .two(first: "x", second: [1, 2])]
        var named: [String: Int] = ["a": 1, "b": 2]
        var absent: Int? = nil
        var present: Int? = 7
        var nothing = Empty()
        var emptyArray: [Int] = []
        var emptyNamed: [String: Int] = [:]

        struct Empty: Codable, Equatable, Sendable {}

        enum CodingKeys: String, CodingKey {
            case integers, unsigned, small, flags, nested, choices, named, absent, present, nothing, emptyArray, emptyNamed
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(self.integers, forKey: .integers)
            try container.encode(self.unsigned, forKey: .unsigned)
            try container.encode(self.small, forKey: .small)
            try container.encode(self.flags, forKey: .flags)
            try container.encode(self.nested, forKey: .nested)
            try container.encode(self.choices, forKey: .choices)
            try container.encode(self.named, forKey: .named)
            // `null` written, as `PhaseTracker` writes `failing`.
            try container.encode(self.absent, forKey: .absent)
            try container.encodeIfPresent(self.present, forKey: .present)
            try container.encode(self.nothing, forKey: .nothing)
            try container.encode(self.emptyArray, forKey: .emptyArray)
            try container.encode(self.emptyNamed, forKey: .emptyNamed)
        }
    }

    /// A value whose `encode(to:)` asks for no container: `JSONEncoder` writes `{}`.
    struct Silent: Encodable, Sendable {
        func encode(to encoder: any Encoder) throws {}
    }

    static let cases: [Case] = [
        Case("an integer alone", Int64(-42)),
        Case("strings that need escapes", ["plain", "quote \" and backslash \\", "new\nline\ttab\r", "\u{01}\u{1F}", "é 😀 /slash", ""]),
        Case("doubles", [1.5, -0.25, 1e-05, 3.0, 1e300]),
        Case("nested shapes", Shapes()),
        Case("a dictionary with non-string keys (an array of key, value, ...)", [Shapes.Choice.one(1): 1, .two(first: "k", second: []): 2]),
        Case("a pair's state after failures, errors and cycles", makeMonitor(realisticSteps).pairs.values.first!),
        Case("every pair's state", Array(makeMonitor(realisticSteps).pairs.values)),
        Case("a value that encodes nothing, in an object and an array", ["one": [Silent(), Silent()]]),
        Case("timestamps and spans", [Timestamp(microseconds: -1), Timestamp(microseconds: 1_795_000_000_123_456)]),
    ]

    @Test("writes the document JSONEncoder writes, and it reads back the same", arguments: Self.cases)
    func sameDocument(_ testCase: Case) throws {
        try testCase.check(StreamingJSONEncoder())
    }

    @Test("one encoder reused: each document stands alone")
    func reused() throws {
        let encoder = StreamingJSONEncoder()
        for testCase in Self.cases { try testCase.check(encoder) }
        #expect(try encoder.encode([1, 2]) == Array("[1,2]".utf8))
    }

    @Test("infinity and NaN are refused, as JSON has neither")
    func nonFinite() {
        #expect(throws: EncodingError.self) { try StreamingJSONEncoder().encode([Double.infinity]) }
        #expect(throws: EncodingError.self) { try StreamingJSONEncoder().encode(Double.nan) }
    }
}
