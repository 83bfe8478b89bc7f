import SyncmonCore
import Testing

/// RFC 3339 times as event lines carry them, and as status prints them.
@Suite("RFC3339")
struct RFC3339Tests {
    static let valid: [(String, Int64)] = [
        ("1970-01-01T00:00:00Z", 0),
        ("2026-11-21T12:00:00Z", 1_795_262_400_000_000),
        ("2026-11-21T12:00:00.25Z", 1_795_262_400_250_000),
        ("2026-11-21T12:00:00.000001Z", 1_795_262_400_000_001),
        ("2026-11-21T12:00:00.123456789Z", 1_795_262_400_123_456),  // digits past the sixth are truncated
        ("2026-11-21T12:00:00.999999999Z", 1_795_262_400_999_999),
        // Every length of fraction is scaled to microseconds, however many digits follow.
        ("2026-11-21T12:00:00.1Z", 1_795_262_400_100_000),
        ("2026-11-21T12:00:00.123Z", 1_795_262_400_123_000),
        ("2026-11-21T12:00:00.1234Z", 1_795_262_400_123_400),
        ("2026-11-21T12:00:00.12345Z", 1_795_262_400_123_450),
        ("2026-11-21T12:00:00.1234567Z", 1_795_262_400_123_456),
        ("2026-11-21T12:00:00.987654321098765432109876543210Z", 1_795_262_400_987_654),
        ("2026-11-21T12:00:00.000000999Z", 1_795_262_400_000_000),
        ("2026-11-21T12:00:00.5+00:00", 1_795_262_400_500_000),
        ("2026-11-21T13:00:00+01:00", 1_795_262_400_000_000),
        ("2026-11-21T07:30:00-04:30", 1_795_262_400_000_000),
        ("2026-11-22T11:59:00+23:59", 1_795_262_400_000_000),
        ("2026-11-20T12:01:00-23:59", 1_795_262_400_000_000),
        ("2026-11-21T12:00:00-00:00", 1_795_262_400_000_000),
        ("2026-11-21t12:00:00z", 1_795_262_400_000_000),
        ("2026-11-21 12:00:00Z", 1_795_262_400_000_000),
        ("2024-02-29T00:00:00Z", 1_709_164_800_000_000),  // leap day
        ("2000-02-29T23:59:59Z", 951_868_799_000_000),  // divisible by 400: leap
        ("2100-03-01T00:00:00Z", 4_107_542_400_000_000),
        ("2016-12-31T23:59:60Z", 1_483_228_800_000_000),  // a leap second folds into the next second
        ("1969-12-31T23:59:59Z", -1_000_000),
        ("1969-12-31T23:59:59.5Z", -500_000),
        ("0001-01-01T00:00:00Z", -62_135_596_800_000_000),
        ("9999-12-31T23:59:59Z", 253_402_300_799_000_000),
        ("2026-01-01T00:00:00+01:00", 1_767_222_000_000_000),  // the offset crosses a year boundary
    ]

    @Test("valid times parse to microseconds since the epoch", arguments: valid)
    func parsing(_ text: String, _ microseconds: Int64) {
        #expect(RFC3339.parse(text) == Timestamp(microseconds: microseconds))
    }

    static let invalid: [String] = [
        "", "2026", "2026-11-21", "2026-11-21T12:00Z", "2026-11-21T12:00:00", "2026-11-21T12:00:00.",
        "2026-11-21T12:00:00.Z", "2026-11-21T12:00:00.5", "2026-11-21T12:00:00ZZ", "2026-11-21T12:00:00Z ",
        " 2026-11-21T12:00:00Z", "2026-11-21X12:00:00Z", "2026/11/21T12:00:00Z", "20261121T120000Z",
        "2026-11-21T12:00:00+0100", "2026-11-21T12:00:00+01", "2026-11-21T12:00:00+01:00:00", "2026-11-21T12:00:00+24:00",
        "2026-11-21T12:00:00+01:60", "2026-11-21T12:00:00 +01:00", "2026-11-21T12:00:00UTC", "2026-11-21T12:00:00GMT",
        "2026-02-30T00:00:00Z", "2026-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-06-31T00:00:00Z",
        "2026-09-31T00:00:00Z", "2026-11-31T00:00:00Z", "2026-01-32T00:00:00Z", "2026-00-10T00:00:00Z", "2026-13-01T00:00:00Z",
        "2026-11-00T00:00:00Z", "2026-11-21T24:00:00Z", "2026-11-21T12:60:00Z", "2026-11-21T12:00:61Z", "2026-11-21T99:00:00Z",
        "-2026-11-21T12:00:00Z", "+2026-11-21T12:00:00Z", "2026-1-21T12:00:00Z", "2026-11-2T12:00:00Z", "2026-11-21T1:00:00Z",
        "2026-11-21T12:00:00,5Z", "２０２６-11-21T12:00:00Z", "2026-11-21T12:00:00.5e3Z", "2026-11-21T12:00:0aZ",
        "yesterday at noon", "2026-11-21T12:00:00-", "2026-11-21T12:00:00+",
    ]

    @Test("invalid times are refused", arguments: invalid)
    func refusing(_ text: String) {
        #expect(RFC3339.parse(text) == nil)
    }

    /// The decoder parses through one `RecentMinute`: every valid and invalid time, read after
    /// each valid one has left its minute behind (so that times sharing the first sixteen bytes
    /// take the short way), must parse as it does alone.
    @Test("a remembered minute changes no result")
    func recentMinuteChangesNothing() {
        let sameMinute = [
            "2026-11-21T12:00:61Z", "2026-11-21T12:00:0aZ", "2026-11-21T12:00", "2026-11-21T12:00:",
            "2026-11-21T12:00:59.999Z", "2026-11-21T12:00:60Z", "2026-11-21T12:00:00+01:00", "2026-11-21T12:00:00.5",
            "2026-11-21T12:00:07-23:59", "2026-11-21T12:00:00Z ",
        ]
        let texts = Self.valid.map(\.0) + Self.invalid + sameMinute
        for earlier in Self.valid.map(\.0) + ["2026-11-21T12:00:00Z"] {
            for text in texts {
                var recent = RFC3339.RecentMinute()
                var earlierBytes = earlier
                _ = earlierBytes.withUTF8 { RFC3339.parse(UnsafeRawBufferPointer($0), recent: &recent) }
                var bytes = text
                let parsed = bytes.withUTF8 { RFC3339.parse(UnsafeRawBufferPointer($0), recent: &recent) }
                #expect(parsed == RFC3339.parse(text), "\(text) after \(earlier)")
            }
        }
    }

    static let formats: [(Int64, String)] = [
        (0, "1970-01-01T00:00:00Z"),
        (1_795_262_400_000_000, "2026-11-21T12:00:00Z"),
        (1_795_262_400_250_000, "2026-11-21T12:00:00.25Z"),
        (1_795_262_400_100_000, "2026-11-21T12:00:00.1Z"),
        (1_795_262_400_000_001, "2026-11-21T12:00:00.000001Z"),
        (1_795_262_400_123_456, "2026-11-21T12:00:00.123456Z"),
        (1_709_164_800_000_000, "2024-02-29T00:00:00Z"),
        (-1, "1969-12-31T23:59:59.999999Z"),
        (-500_000, "1969-12-31T23:59:59.5Z"),
        (-1_000_000, "1969-12-31T23:59:59Z"),
        (-62_135_596_800_000_000, "0001-01-01T00:00:00Z"),
        (253_402_300_799_999_999, "9999-12-31T23:59:59.999999Z"),
    ]

    @Test("format writes UTC with Z and the shortest fraction", arguments: formats)
    func formatting(_ microseconds: Int64, _ text: String) {
        #expect(RFC3339.format(Timestamp(microseconds: microseconds)) == text)
    }

    @Test("format normalises offsets to Z")
    func normalisesOffsets() {
        let parsed = RFC3339.parse("2026-11-21T07:30:00.5-04:30")
        #expect(parsed.map(RFC3339.format) == "2026-11-21T12:00:00.5Z")
    }

    @Test("parse(format(t)) == t for 5,000 random instants from year 1 to 9999")
    func roundTrip() {
        var random = SeededGenerator(seed: 3339)
        let lower: Int64 = -62_135_596_800_000_000
        let upper: Int64 = 253_402_300_799_999_999
        for _ in 0..<5_000 {
            let time = Timestamp(microseconds: Int64.random(in: lower...upper, using: &random))
            let text = RFC3339.format(time)
            #expect(RFC3339.parse(text) == time, "\(text)")
        }
    }

    @Test("every day of a leap year and a common year round-trips through midnight")
    func everyDay() {
        for (year, days) in [(2024 as Int64, 366), (2026, 365), (2100, 365), (2000, 366)] {
            guard let first = RFC3339.parse("\(year)-01-01T00:00:00Z") else {
                Issue.record("\(year)-01-01 does not parse")
                continue
            }
            var seen = 0
            for day in 0..<days + 1 {
                let time = first.adding(.seconds(Int64(day) * 86_400))
                let text = RFC3339.format(time)
                #expect(text.hasSuffix("T00:00:00Z"))
                #expect(RFC3339.parse(text) == time)
                if text.hasPrefix("\(year)-") { seen += 1 }
            }
            #expect(seen == days, "\(year)")
            #expect(RFC3339.format(first.adding(.seconds(Int64(days) * 86_400))) == "\(year + 1)-01-01T00:00:00Z")
        }
    }
}
