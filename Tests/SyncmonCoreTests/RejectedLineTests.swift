import Testing

@testable import SyncmonCore

/// How `syncmon replay` shows a rejected line's start: control bytes as a person reads them
/// (`\x08`, `\t`), never Swift's `\u{8}`.
@Suite("Rejected line excerpts")
struct RejectedLineTests {
    @Test(
        "control bytes escaped as C writes them",
        arguments: [
            ([UInt8](#"{"v":1}"#.utf8), #"{"v":1}"#),
            ([0x08, 0x41], #"\x08A"#),
            ([0x00, 0x1B, 0x7F], #"\x00\x1B\x7F"#),
            ([0x41, 0x09, 0x42, 0x0D], #"A\tB\r"#),
            ([0xFF, 0x41], "\u{FFFD}A"),
        ])
    func excerpt(bytes: [UInt8], expected: String) {
        let excerpt = bytes.withUnsafeBytes { RejectedLine.excerpt(of: $0) }
        #expect(excerpt == expected)
        #expect(!excerpt.contains("\\u{"))
    }

    @Test("cut at 80 characters, with an ellipsis")
    func cut() {
        let excerpt = [UInt8](repeating: 0x61, count: 100).withUnsafeBytes { RejectedLine.excerpt(of: $0) }
        #expect(excerpt == String(repeating: "a", count: 80) + "…")
    }
}
