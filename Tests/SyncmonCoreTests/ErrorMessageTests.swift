import Foundation
import SyncmonCore
import Testing

/// Failure messages (docs/protocol.md#phases): kept cut to 256 bytes between
/// characters, control characters escaped, invalid UTF-8 replaced; shown on the outstanding
/// failure and in status JSON.
@Suite("Error messages")
struct ErrorMessageTests {
    @Test(
        "a message is cut and escaped so that it never breaks a line",
        arguments: [
            ("over quota", "over quota"),
            ("  padded\\n", "padded"),
            ("two\\nlines\\tand\\rreturn", #"two\nlines\tand\rreturn"#),
            ("bell\\u0007 escape\\u001b[31m del\\u007f", #"bell\u0007 escape\u001b[31m del\u007f"#),
            ("c1 \\u009b csi", #"c1 \u009b csi"#),
            ("é café 日本 🎉", "é café 日本 🎉"),
            ("   ", nil),
        ] as [(String, String?)])
    func decoded(json: String, expected: String?) throws {
        let line = #"{"v":1,"engine":"e","type":"error","error":{"code":"quotaExceeded","message":"\#(json)"}}"#
        let event = try #require(decode(line).event)
        guard case .error(_, let error) = event.payload else {
            Issue.record("not an error event")
            return
        }
        #expect(error.message == expected)
    }

    @Test("a 64 KiB message is cut to 256 bytes at a character boundary", arguments: [0, 1, 2, 3])
    func longMessage(offset: Int) throws {
        // Four-byte characters after `offset` ASCII bytes: 256 falls inside one unless aligned.
        let text = String(repeating: "a", count: offset) + String(repeating: "🎉", count: 16_000)
        let line = #"{"v":1,"engine":"e","type":"error","error":{"code":"x","message":"\#(text)"}}"#
        let event = try #require(decode(line).event)
        guard case .error(_, let error) = event.payload, let message = error.message else {
            Issue.record("no message")
            return
        }
        #expect(message.utf8.count <= ErrorMessage.maximumBytes)
        #expect(message.utf8.count > ErrorMessage.maximumBytes - 4)
        #expect(message.unicodeScalars.allSatisfy { $0 == "a" || $0 == "🎉" })
        #expect(ErrorMessage.clean(text) == message)
    }

    @Test("escapes are never cut in half at the limit")
    func escapeAtLimit() {
        let text = String(repeating: "a", count: 253) + "\u{1b}tail"
        let cleaned = ErrorMessage.clean(text)
        #expect(cleaned == String(repeating: "a", count: 253))
    }

    @Test("invalid UTF-8 is replaced, not refused")
    func invalidUTF8() {
        let cleaned = ErrorMessage.clean(bytes: Array("bad ".utf8) + [0xFF, 0xC3] + Array(" end".utf8))
        #expect(cleaned == "bad \u{FFFD}\u{FFFD} end")
    }

    @Test("the outstanding failure keeps the latest failure's message; a success clears it")
    func outstandingFailureKeepsMessage() throws {
        var monitor = Monitor()
        func apply(_ payload: EventPayload, _ seconds: Int64) { monitor.apply(Event(engine: notes, payload: payload), at: at(seconds)) }
        apply(.willSendChanges, 0)
        apply(.error(phase: .export, error: SyncError(code: ErrorCode(.quotaExceeded), message: "first")), 1)
        apply(.didSendChanges, 2)
        apply(.willSendChanges, 3)
        apply(.error(phase: .export, error: SyncError(code: ErrorCode(.quotaExceeded), message: "second")), 4)
        apply(.didSendChanges, 5)
        let row = try #require(monitor.rows(at: at(6)).first)
        #expect(row.failing(.export)?.error.message == "second")
        #expect(row.failing(.export)?.since == at(2))
        let json = String(decoding: StatusDocument(now: at(6), engines: [row]).json(pretty: false), as: UTF8.self)
        #expect(json.contains(#""message":"second""#))
        let decoded = try JSONDecoder().decode(StatusDocument.self, from: Data(json.utf8))
        #expect(decoded.engines.first?.failing(Phase.export)?.error.message == "second")
        apply(.willSendChanges, 7)
        apply(.didSendChanges, 8)
        #expect(monitor.rows(at: at(9)).first?.failing(.export) == nil)
    }

    @Test("a containerEvent's failure keeps its message, and it survives the state file")
    func containerEventMessage() throws {
        let line =
            #"{"v":1,"engine":"job","type":"containerEvent","kind":"export","id":"r","started":"2026-11-21T12:00:00Z","ended":"2026-11-21T12:00:05Z","succeeded":false,"error":{"code":"exit23","message":"rsync: change_dir \"/srv/photos\" failed: No such file or directory (2)"}}"#
        let event = try #require(decode(line).event)
        var monitor = Monitor()
        monitor.apply(event, at: at(5))
        let state = try #require(monitor.pairs[PairKey(engine: name("job"), database: .private)])
        let expected = #"rsync: change_dir "/srv/photos" failed: No such file or directory (2)"#
        #expect(state.outstandingFailure?.error.message == expected)
        let restored = try JSONDecoder().decode(PairState.self, from: JSONEncoder().encode(state))
        #expect(restored.outstandingFailure?.error.message == expected)
    }
}
