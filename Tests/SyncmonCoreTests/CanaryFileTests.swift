import SyncmonCore
import Testing

/// The canary file's JSON form (docs/canary.md), read strictly: anything but the exact shape
/// is refused, never half-read.
@Suite("Canary file")
struct CanaryFileTests {
    static let good = #"{"v":1,"host":"desk","seq":42,"written":"2026-11-26T12:00:00Z","seen":{"laptop":7,"nas.lan":0}}"#

    @Test("a well-formed file is read whole")
    func readsGoodFile() throws {
        let file = try #require(CanaryFile.parse(Array(Self.good.utf8)))
        #expect(file.host == CanaryHost("desk"))
        #expect(file.seq == 42)
        #expect(file.written == RFC3339.parse("2026-11-26T12:00:00Z"))
        #expect(file.seen == [CanaryHost("laptop")!: 7, CanaryHost("nas.lan")!: 0])
    }

    @Test("what this host writes reads back as the same file")
    func roundTrips() throws {
        let file = CanaryFile(host: CanaryHost("a-1")!, seq: 9, written: at(5), seen: [CanaryHost("b")!: 3, CanaryHost("c")!: 1])
        #expect(file.encoded.hasPrefix(#"{"v":1,"host":"a-1","seq":9,"written":""#))
        #expect(file.encoded.hasSuffix(#""seen":{"b":3,"c":1}}"# + "\n"))
        #expect(CanaryFile.parse(Array(file.encoded.utf8)) == file)
    }

    static let refused: [(String, String)] = [
        ("not JSON", "hello"),
        ("empty", ""),
        ("an array", "[1]"),
        ("v 2", #"{"v":2,"host":"desk","seq":1,"written":"2026-11-26T12:00:00Z","seen":{}}"#),
        ("v as a string", #"{"v":"1","host":"desk","seq":1,"written":"2026-11-26T12:00:00Z","seen":{}}"#),
        ("no v", #"{"host":"desk","seq":1,"written":"2026-11-26T12:00:00Z","seen":{}}"#),
        ("no seen", #"{"v":1,"host":"desk","seq":1,"written":"2026-11-26T12:00:00Z"}"#),
        ("an unknown key", #"{"v":1,"host":"desk","seq":1,"written":"2026-11-26T12:00:00Z","seen":{},"x":1}"#),
        ("a repeated key", #"{"v":1,"host":"desk","host":"desk","seq":1,"written":"2026-11-26T12:00:00Z","seen":{}}"#),
        ("a host with a slash", #"{"v":1,"host":"../etc","seq":1,"written":"2026-11-26T12:00:00Z","seen":{}}"#),
        ("an empty host", #"{"v":1,"host":"","seq":1,"written":"2026-11-26T12:00:00Z","seen":{}}"#),
        ("a host of 65 bytes", #"{"v":1,"host":""# + String(repeating: "h", count: 65) + #"","seq":1,"written":"2026-11-26T12:00:00Z","seen":{}}"#),
        ("a negative seq", #"{"v":1,"host":"desk","seq":-1,"written":"2026-11-26T12:00:00Z","seen":{}}"#),
        ("a fractional seq", #"{"v":1,"host":"desk","seq":1.5,"written":"2026-11-26T12:00:00Z","seen":{}}"#),
        ("a seq past Int64", #"{"v":1,"host":"desk","seq":99999999999999999999,"written":"2026-11-26T12:00:00Z","seen":{}}"#),
        ("a bad time", #"{"v":1,"host":"desk","seq":1,"written":"yesterday","seen":{}}"#),
        ("a bad peer name", #"{"v":1,"host":"desk","seq":1,"written":"2026-11-26T12:00:00Z","seen":{"a b":1}}"#),
        ("a peer twice", #"{"v":1,"host":"desk","seq":1,"written":"2026-11-26T12:00:00Z","seen":{"a":1,"a":2}}"#),
        ("trailing bytes", good + "x"),
    ]

    @Test("anything but the exact shape is refused", arguments: refused)
    func refuses(_ reason: String, _ text: String) {
        #expect(CanaryFile.parse(Array(text.utf8)) == nil, "\(reason)")
    }

    @Test("a file over 64 KiB is refused however valid its JSON")
    func refusesLarge() {
        let padding = String(repeating: " ", count: CanaryFile.maximumSize)
        #expect(CanaryFile.parse(Array((Self.good + padding).utf8)) == nil)
        #expect(CanaryFile.parse(Array(Self.good.utf8) + [UInt8](repeating: 0x20, count: 100)) != nil)
    }

    @Test("host names: 1–64 of [A-Za-z0-9._-], and only canary-HOST.json names a peer")
    func hostNames() {
        #expect(CanaryHost("a.B_c-9") != nil)
        #expect(CanaryHost(String(repeating: "x", count: 64)) != nil)
        #expect(CanaryHost(String(repeating: "x", count: 65)) == nil)
        #expect(CanaryHost("é") == nil)
        #expect(CanaryHost(fileName: "canary-desk.json") == CanaryHost("desk"))
        #expect(CanaryHost(fileName: "canary-.json") == nil)
        #expect(CanaryHost(fileName: ".canary-desk.json.tmp") == nil)
        #expect(CanaryHost(fileName: "canary-a b.json") == nil)
    }
}
