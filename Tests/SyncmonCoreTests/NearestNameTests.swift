import SyncmonCore
import Testing

/// The one "did you mean" of every suggestion syncmon makes (``NearestName``): a likely typo
/// finds its name, an unrelated word none.
@Suite("Nearest name")
struct NearestNameTests {
    static let commands = ["daemon", "status", "emit", "wrap", "forget", "replay", "simulate", "rules", "help"]
    static let statusFlags = ["engine", "format", "json", "wide", "watch", "wait", "timeout", "url", "ca-file", "cert-file", "key-file", "user"]

    @Test(
        "a typo suggests the name; an unrelated word nothing",
        arguments: [
            ("stauts", commands, "status"),
            ("stat", commands, "status"),
            ("replya", commands, "replay"),
            ("frobnicate", commands, nil),
            ("foo", statusFlags, nil),
            ("jsn", statusFlags, "json"),
            ("wathc", statusFlags, "watch"),
            ("cert-fi", statusFlags, "cert-file"),
            ("cert", statusFlags, nil),
            ("basic_auth_user", ["tls_server_config", "http_server_config", "basic_auth_users"], "basic_auth_users"),
            ("heartbaet", EventType.allCases.map(\.description), "heartbeat"),
            ("EngineStarted", EventType.allCases.map(\.description), "engineStarted"),
            ("x", statusFlags, nil),
        ] as [(String, [String], String?)])
    func nearest(typed: String, names: [String], expected: String?) {
        #expect(NearestName.nearest(to: typed, in: names) == expected)
    }

    @Test(
        "a replayed line's type is read back for its suggestion",
        arguments: [
            (#"{"v":1,"engine":"notes","type":"heartbaet"}"#, "heartbaet"),
            (#"{ "type" : "x\u0041" , "v":1}"#, "xA"),
            (#"{"v":1,"engine":{"type":"inner"},"type":"outer"}"#, "outer"),
            (#"{"v":1,"type":3}"#, nil),
            ("not json", nil),
            ("{}", nil),
        ] as [(String, String?)])
    func typeName(line: String, expected: String?) {
        var line = line
        let typed = line.withUTF8 { EventType.typeName(of: UnsafeRawBufferPointer($0)) }
        #expect(typed == expected)
    }

    @Test("a replayed unknown type names what it asked for and suggests the type meant")
    func replayedUnknownType() {
        let near = RejectedLine(number: 2, rejection: Rejection(.unknownType, field: "type"), excerpt: "…", typeName: "heartbaet")
        #expect(near.description == #"line 2: unknown_type (unknown event type "heartbaet" in the field type; did you mean heartbeat?): …"#)
        let far = RejectedLine(number: 3, rejection: Rejection(.unknownType, field: "type"), excerpt: "…", typeName: "frobnicate")
        #expect(far.description == #"line 3: unknown_type (unknown event type "frobnicate" in the field type): …"#)
    }
}
