import Testing

@testable import SyncmonCore

/// `OptionalWords` holds four `Int64?` in 33 bytes for the per-pair state: each slot reads back
/// what was written, `nil` included, without touching the others, and equal contents compare
/// equal whatever was written before.
@Suite("Optional words")
struct OptionalWordsTests {
    @Test(
        "a slot reads back what was written, the others untouched",
        arguments: [
            (0, Int64(1_795_000_000_000_000)), (1, Int64(-1)), (2, Int64.min), (3, Int64.max), (0, Int64(0)), (3, Int64(0)),
        ])
    func roundTrip(slot: Int, value: Int64) {
        var words = OptionalWords()
        words[(slot + 1) % 4] = 7
        words[slot] = value
        #expect(words[slot] == value, "0 is a value, not absence")
        #expect(words[time: slot] == Timestamp(microseconds: value))
        #expect(words[(slot + 1) % 4] == 7)
        #expect(words[(slot + 2) % 4] == nil)
        words[slot] = nil
        #expect(words[slot] == nil)
        #expect(words[(slot + 1) % 4] == 7)
    }

    @Test("equal contents are equal, whatever was written and cleared before")
    func equality() {
        var written = OptionalWords()
        written[2] = 42
        written[2] = nil
        written[0] = 5
        var fresh = OptionalWords()
        fresh[0] = 5
        #expect(written == fresh)
        fresh[1] = 0
        #expect(written != fresh, "a present 0 is not an absent slot")
        #expect(MemoryLayout<OptionalWords>.size == 33)
    }
}
