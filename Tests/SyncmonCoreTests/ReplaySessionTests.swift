import SyncmonCore
import Testing

/// The replay clock of docs/protocol.md#time, fed chunk by chunk (the recorded fixtures run end to end in
/// SyncmonCLITests; these pin the rules one by one).
@Suite("ReplaySession")
struct ReplaySessionTests {
    static func line(_ type: String, time: Int64? = nil, _ extra: String = "") -> String {
        let timeKey = time.map { #","time":"\#(RFC3339.format(at($0)))""# } ?? ""
        return #"{"v":1,"engine":"notes","type":"\#(type)""# + timeKey + extra + "}\n"
    }

    static func replay(_ text: String, chunk: Int = 7, fallback: Timestamp = at(1_000)) -> ReplaySession {
        var session = ReplaySession()
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + chunk, bytes.count)
            bytes[offset..<end].withUnsafeBytes { session.feed($0) }
            offset = end
        }
        session.finish(fallbackTime: fallback)
        return session
    }

    @Test("the clock is the latest event time and never goes backwards")
    func clock() {
        let session = Self.replay(
            Self.line("willFetchChanges", time: 10) + Self.line("heartbeat", time: 5) + Self.line("didFetchChanges", time: 20)
                + Self.line("heartbeat", time: 15))
        #expect(session.clock == at(20))
        #expect(session.monitor.pairs[notesKey]?.importPhase.state == .succeeded(started: at(10), ended: at(20)))
        #expect(session.monitor.pairs[notesKey]?.lastEvent == at(20))
        #expect(session.now(advancedBy: span(90), fallbackTime: at(0)) == at(110))
    }

    @Test("an event without time happens at the current clock")
    func untimedAfterTimed() {
        let session = Self.replay(Self.line("heartbeat", time: 10) + Self.line("willFetchChanges"))
        #expect(session.monitor.pairs[notesKey]?.importPhase.state == .inProgress(since: at(10)))
    }

    @Test("untimed events before the first timed one wait for it")
    func untimedPreamble() {
        let session = Self.replay(Self.line("willFetchChanges") + Self.line("heartbeat", time: 30))
        #expect(session.monitor.pairs[notesKey]?.importPhase.state == .inProgress(since: at(30)))
        #expect(session.monitor.pairs[notesKey]?.firstEvent == at(30))
    }

    @Test("a stream without any time runs at the fallback time")
    func noTimeAtAll() {
        let session = Self.replay(Self.line("willFetchChanges") + Self.line("didFetchChanges"), fallback: at(500))
        #expect(session.clock == at(500))
        #expect(session.monitor.pairs[notesKey]?.importPhase.state == .succeeded(started: at(500), ended: at(500)))
        #expect(session.now(advancedBy: .zero, fallbackTime: at(0)) == at(500))
    }

    @Test("a containerEvent without time happens at the end (or start) it reports")
    func containerTime() {
        let start = Self.line("containerEvent", #","kind":"import","id":"I","started":"\#(RFC3339.format(at(40)))""#)
        let end = Self.line("containerEvent", #","kind":"import","id":"I","started":"\#(RFC3339.format(at(40)))","ended":"\#(RFC3339.format(at(45)))""#)
        let session = Self.replay(start + end)
        #expect(session.clock == at(45))
        #expect(session.monitor.pairs[notesKey]?.importPhase.state == .succeeded(started: at(40), ended: at(45)))
    }

    @Test("bad lines are counted by reason, blank lines are not, and every line is counted")
    func rejections() {
        let text =
            Self.line("heartbeat", time: 1) + "\n" + "not json\n" + #"{"v":2,"engine":"notes","type":"heartbeat"}"# + "\n"
            + String(repeating: "x", count: 70_000) + "\n" + Self.line("bogus") + "  \r\n" + Self.line("heartbeat", time: 2).dropLast()
        let session = Self.replay(text, chunk: 4096)
        #expect(session.lines == 8)
        #expect(session.monitor.rejectedCount(.malformed) == 1)
        #expect(session.monitor.rejectedCount(.unsupportedVersion) == 1)
        #expect(session.monitor.rejectedCount(.tooLarge) == 1)
        #expect(session.monitor.rejectedCount(.unknownType) == 1)
        #expect(session.monitor.accepted == 2)
        #expect(session.clock == at(2))
    }

    @Test("duplicate seq lines are dropped, not rejected")
    func duplicates() {
        let text =
            Self.line("willFetchChanges", time: 1, #","seq":1"#) + Self.line("didFetchChanges", time: 2, #","seq":2"#)
            + Self.line("willFetchChanges", time: 3, #","seq":2"#)
        let session = Self.replay(text)
        #expect(session.monitor.duplicates == 1)
        #expect(RejectionReason.allCases.allSatisfy { session.monitor.rejectedCount($0) == 0 })
        #expect(session.monitor.pairs[notesKey]?.importPhase.state == .succeeded(started: at(1), ended: at(2)))
    }
}
