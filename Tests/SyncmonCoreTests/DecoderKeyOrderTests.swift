import SyncmonCore
import Testing

/// The decoder tries each key as one of those that usually follow the last (two word
/// compares) before reading it in full: whatever the order and spacing of the keys, a line
/// decodes to the same event, so guessing right or wrong only changes the speed.
@Suite("EventDecoder: key order and spacing")
struct DecoderKeyOrderTests {
    static let time = #""time":"2026-11-27T04:05:06.789Z""#

    /// The same envelope and payload in the orders writers use, reversed, and spaced out.
    static func variants(of body: String) -> [String] {
        let envelope = [#""v":1"#, #""engine":"notes""#, #""database":"shared""#, Self.time, #""seq":7"#]
        let bodyKeys = Self.topLevelMembers(of: body)
        return [
            // Recordings and the benchmark: the envelope, then the type and payload.
            "{" + (envelope + bodyKeys).joined(separator: ",") + "}",
            // The client library: v, engine, database, type, time, seq, then the payload.
            "{" + (envelope.prefix(3) + bodyKeys.prefix(1) + envelope.suffix(2) + bodyKeys.dropFirst()).joined(separator: ",") + "}",
            // Everything backwards.
            "{" + (envelope + bodyKeys).reversed().joined(separator: ",") + "}",
            // Spaces around every colon and comma: no guess can match.
            "{ " + (envelope + bodyKeys).map { $0.replacingFirstColon(with: " : ") }.joined(separator: " , ") + " }",
        ]
    }

    /// `"a":1,"b":{"c":2}` → [`"a":1`, `"b":{"c":2}`]: commas outside strings and brackets.
    static func topLevelMembers(of body: String) -> [String] {
        var members: [String] = []
        var current = ""
        var depth = 0
        var inString = false
        var escaped = false
        for character in body {
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == "{" || character == "[" {
                depth += 1
            } else if character == "}" || character == "]" {
                depth -= 1
            } else if character == ",", depth == 0 {
                members.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        members.append(current)
        return members
    }

    @Test("every accepted line decodes the same in any key order", arguments: EventDecoderTests.cases)
    func sameEventInAnyOrder(_ testCase: EventDecoderTests.Case) {
        let body = String(testCase.line.dropFirst(#"{"v":1,"engine":"notes","#.count).dropLast())
        let decoded = Self.variants(of: body).map { line -> String in
            guard let event = decode(line).event else { return "rejected: \(line)" }
            return "\(event.engine) \(event.database) \(String(describing: event.time)) \(String(describing: event.sequence)) "
                + "\(EventDecoderTests.normalised(event.payload))"
        }
        #expect(!decoded[0].hasPrefix("rejected"), "\(decoded[0])")
        for other in decoded.dropFirst() { #expect(other == decoded[0]) }
    }
}

extension String {
    fileprivate func replacingFirstColon(with replacement: String) -> String {
        guard let colon = self.firstIndex(of: ":") else { return self }
        return String(self[..<colon]) + replacement + String(self[self.index(after: colon)...])
    }
}
