import Foundation
import SyncmonCore
import Testing

/// Random byte mutations of valid lines: the decoder must never trap, must answer
/// deterministically with an event, a blank line or a bounded rejection, and must only accept
/// what is a JSON object carrying the envelope it reports (checked against Foundation).
@Suite("EventDecoder: fuzzing")
struct EventDecoderFuzzTests {
    static let seeds: [String] = [
        #"{"v":1,"engine":"notes","type":"heartbeat"}"#,
        #"{"v":1,"engine":"notes","database":"shared","type":"willFetchChanges","reason":"scheduled","time":"2026-11-21T12:00:00.123Z","seq":17}"#,
        #"{"v":1,"engine":"photos.app","type":"fetchedRecordZoneChanges","zone":"caf\u00e9","modifications":12,"deletions":0}"#,
        #"{"v":1,"engine":"n","type":"didFetchRecordZoneChanges","zone":"Z","error":{"code":"zoneBusy","retryAfter":2.5,"message":"\ud83d\ude00"}}"#,
        #"{"v":1,"engine":"notes","type":"sentRecordZoneChanges","savedRecords":3,"deletedRecords":1,"failedRecordSaves":[{"code":"serverRecordChanged","recordName":"r1"},{"code":"quotaExceeded"}],"failedRecordDeletes":[]}"#,
        #"{"v":1,"engine":"notes","type":"sentDatabaseChanges","savedZones":1,"deletedZones":0,"failedZoneSaves":[],"failedZoneDeletes":[{"code":"zoneNotFound","zone":"Z"}]}"#,
        #"{"v":1,"engine":"notes","type":"stateUpdate","pendingRecordZoneChanges":3,"pendingDatabaseChanges":null}"#,
        #"{"v":1,"engine":"notes","type":"accountChange","changeType":"switchAccounts"}"#,
        #"{"v":1,"engine":"core-data","type":"containerEvent","kind":"export","id":"E-1","started":"2026-11-21T12:00:00Z","ended":"2026-11-21T12:00:03+00:00","succeeded":false,"error":{"code":"networkFailure"}}"#,
        #"{"v":1,"engine":"notes","type":"accountStatus","status":"temporarilyUnavailable"}"#,
        #"{"v":1,"engine":"notes","type":"networkStatus","available":true,"extra":[1,-2.5e3,{"a":null,"b":[true,false]}]}"#,
        #"{"v":1,"engine":"notes","type":"engineStarted","heartbeatSeconds":30,"version":"1.0"}"#,
        #"{"v":1,"engine":"notes","type":"error","phase":"export","error":{"code":"requestRateLimited","retryAfter":60}}"#,
        "  {\"v\" : 1 , \"engine\" : \"notes\" , \"type\" : \"engineStopped\" }  \r",
    ]

    static let interestingBytes: [UInt8] = Array("\"\\{}[],:0-.e \t".utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xBF, 0xC0, 0xC3, 0xE0, 0xED, 0xF0, 0xF4, 0xFF]
    static let tokens: [String] = [
        #"\uD800"#, #"\uDC00"#, #"\u0000"#, #"\ud83d\ude00"#, "null", "true", "-0", "01", "1.", "9223372036854775808",
        #"""#, #"\"#, "{", "}", "[", "]", ",", ":", #"{"a":"#, "[[[[[[[[", #""v":2,"#, #""type":"bogus","#, "é", "😀",
    ]

    static func mutate(_ line: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        var bytes = line
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<7, using: &random) {
            case 0 where !bytes.isEmpty:
                bytes[position] = UInt8.random(in: 0...255, using: &random)
            case 1 where !bytes.isEmpty:
                bytes[position] = interestingBytes.randomElement(using: &random)!
            case 2:
                bytes.insert(UInt8.random(in: 0...255, using: &random), at: position)
            case 3 where !bytes.isEmpty:
                bytes.remove(at: position)
            case 4:
                bytes.removeSubrange(position...)
            case 5 where !bytes.isEmpty:
                let end = Int.random(in: position...bytes.count, using: &random)
                bytes.insert(contentsOf: bytes[position..<end], at: end)
            default:
                bytes.insert(contentsOf: Array(tokens.randomElement(using: &random)!.utf8), at: position)
            }
        }
        return bytes
    }

    /// What Foundation makes of the line: the top-level object, or nil.
    static func foundationObject(_ bytes: [UInt8]) -> [String: Any]? {
        var trimmed = bytes
        if trimmed.last == UInt8(ascii: "\r") { trimmed.removeLast() }
        return (try? JSONSerialization.jsonObject(with: Data(trimmed), options: [])) as? [String: Any]
    }

    static func isValidEngineName(_ name: InlineName) -> Bool {
        let text = name.description
        return (1...64).contains(text.utf8.count)
            && text.utf8.allSatisfy { byte in
                (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                    || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            }
    }

    @Test("the seed lines are all accepted")
    func seedsAreValid() {
        for seed in Self.seeds + [Self.envelopeInWritersOrder] {
            #expect(decode(seed).event != nil, "\(seed): \(decode(seed).summary)")
        }
    }

    @Test("5,000 seeded mutations never trap and give a consistent, bounded answer", arguments: [0x5EED_0001 as UInt64, 0xC0FF_EE42, 0xDEAD_BEEF])
    func mutations(seed: UInt64) {
        let outcomes = Self.fuzz(Self.seeds, seed: seed)
        // The mutations reach every decoder path, not just the first check.
        #expect(outcomes["event", default: 0] > 100)
        #expect(outcomes["malformed", default: 0] > 1_000)
        #expect(outcomes["invalid_field", default: 0] > 50)
        #expect(outcomes["unknown_type", default: 0] > 10)
        #expect(outcomes["unsupported_version", default: 0] > 0)
    }

    /// The envelope as writers write it (`v`, `engine`, `database`, `time`, `seq`, `type`),
    /// which the decoder reads straight through before its general loop.
    static let envelopeInWritersOrder =
        #"{"v":1,"engine":"notes","database":"private","time":"2026-11-21T12:00:00.25Z","seq":3,"type":"fetchedDatabaseChanges","modifications":2,"deletions":0}"#

    @Test("5,000 mutations of the envelope in writers' order are judged as Foundation reads them", arguments: [0x5EED_0002 as UInt64, 0xFACE_B00C])
    func envelopeMutations(seed: UInt64) {
        let outcomes = Self.fuzz([Self.envelopeInWritersOrder], seed: seed)
        #expect(outcomes["event", default: 0] > 100)
        #expect(outcomes["malformed", default: 0] > 1_000)
        #expect(outcomes["invalid_field", default: 0] > 50)
    }

    /// Decodes 5,000 mutations of `seeds`, each twice, recording an issue for any answer that is
    /// not deterministic, not bounded, or not what Foundation reads; the count of each outcome.
    static func fuzz(_ seeds: [String], seed: UInt64) -> [String: Int] {
        var random = SeededGenerator(seed: seed)
        let decoder = EventDecoder()
        var outcomes: [String: Int] = [:]
        var reportedIssues = 0
        for iteration in 0..<5_000 {
            let seedLine = Array(seeds[iteration % seeds.count].utf8)
            let bytes = Self.mutate(seedLine, &random)
            let first = decoder.decode(bytes)
            let second = bytes.withUnsafeBytes { decoder.decode($0) }
            func fail(_ message: String) {
                reportedIssues += 1
                if reportedIssues <= 10 {
                    Issue.record("\(message): \(String(decoding: bytes, as: UTF8.self).debugDescription) bytes=\(bytes)")
                }
            }
            if first.summary != second.summary { fail("not deterministic (\(first.summary) vs \(second.summary))") }
            switch first {
            case .event(let event):
                outcomes["event", default: 0] += 1
                if !Self.isValidEngineName(event.engine) { fail("accepted engine name \(event.engine)") }
                guard let object = Self.foundationObject(bytes) else {
                    fail("accepted a line Foundation does not read as a JSON object")
                    continue
                }
                if (object["v"] as? NSNumber)?.int64Value != 1 { fail("accepted v = \(String(describing: object["v"]))") }
                if object["engine"] as? String != event.engine.description { fail("engine differs from Foundation's reading") }
                if object["type"] as? String != event.payload.type.description { fail("type differs from Foundation's reading") }
            case .blank:
                outcomes["blank", default: 0] += 1
                let whitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
                if !bytes.allSatisfy(whitespace.contains) { fail("non-blank line reported blank") }
            case .rejected(let rejection):
                outcomes[rejection.reason.description, default: 0] += 1
                if rejection.reason == .tooLarge || rejection.reason == .engineLimit { fail("impossible reason \(rejection.reason)") }
                if rejection.reason == .malformed, rejection.field != nil { fail("malformed with a field") }
                if rejection.reason != .malformed, rejection.field == nil { fail("\(rejection.reason) without the key at fault") }
                if rejection.reason != .malformed, Self.foundationObject(bytes) == nil {
                    fail("\(rejection.reason) for a line Foundation does not read as a JSON object")
                }
            }
        }
        #expect(reportedIssues == 0)
        return outcomes
    }

    @Test("every prefix of every seed line is rejected as malformed, or blank when empty")
    func truncations() {
        for seed in Self.seeds + [Self.envelopeInWritersOrder] {
            let bytes = Array(seed.utf8)
            let end = bytes.lastIndex(of: UInt8(ascii: "}"))!
            for length in 0..<end {
                let result = decode(bytes: Array(bytes[..<length]))
                let prefix = bytes[..<length]
                if prefix.allSatisfy({ $0 == 0x20 }) {
                    #expect(result.isBlank)
                } else {
                    #expect(result.rejection == Rejection(.malformed), "\(String(decoding: prefix, as: UTF8.self))")
                }
            }
        }
    }
}
