import SyncmonCore
import Testing

/// Durations as operators write them: `90s`, `5m`, `1h30m`, `1.5h`, `250ms`, `2d`, plain seconds.
@Suite("DurationParser")
struct DurationParserTests {
    static let valid: [(String, Int64)] = [
        ("0", 0),
        ("0s", 0),
        ("60", 60_000_000),
        ("0.5", 500_000),
        ("1e3", 1_000_000_000),
        ("90s", 90_000_000),
        ("5m", 300_000_000),
        ("1h", 3_600_000_000),
        ("2d", 172_800_000_000),
        ("250ms", 250_000),
        ("1h30m", 5_400_000_000),
        ("1.5h", 5_400_000_000),
        ("1d2h3m4s", 93_784_000_000),
        ("1m0.5s", 60_500_000),
        ("1h1h", 7_200_000_000),
        ("1s500ms", 1_500_000),
        (" 90s ", 90_000_000),
        ("0.000001s", 1),
        ("000015m", 900_000_000),
    ]

    @Test("valid durations parse", arguments: valid)
    func parsing(_ text: String, _ microseconds: Int64) {
        #expect(DurationParser.parse(text) == TimeSpan(microseconds: microseconds))
    }

    static let invalid: [String] = [
        "", " ", "s", "m5", "5x", "5S", "5M", "5sec", "5 m", "1h 30m", "-5", "-5s", "+5s", "1.2.3s", ".s", "soon",
        "inf", "nan", "infinity", "1e999", "5m5", "h1", "\t5s", "5s\n", "١٢s",
    ]

    @Test("invalid durations are refused", arguments: invalid)
    func refusing(_ text: String) {
        #expect(DurationParser.parse(text) == nil)
    }

    static let formats: [(Int64, String)] = [
        (0, "0s"),
        (1_000_000, "1s"),
        (59_000_000, "59s"),
        (60_000_000, "1m"),
        (90_000_000, "1m30s"),
        (3_600_000_000, "1h"),
        (5_400_000_000, "1h30m"),
        (86_400_000_000, "1d"),
        (93_784_000_000, "1d2h3m4s"),
        (90_061_500_000, "1d1h1m1.5s"),
        (250_000, "0.25s"),
        (900_000_000, "15m"),
        (1_800_000_000, "30m"),
    ]

    @Test("format writes the largest units first", arguments: formats)
    func formatting(_ microseconds: Int64, _ text: String) {
        #expect(DurationParser.format(TimeSpan(microseconds: microseconds)) == text)
    }

    static let roundTrips: [Int64] = [
        0, 1, 10, 99, 100, 1_000, 50_000, 250_000, 999_999, 1_000_000, 1_000_001, 59_999_999, 60_000_000, 61_000_010,
        3_599_000_000, 86_399_999_999, 90_061_500_000, 1_000_000_000_000,
    ]

    @Test("format is read back by parse to the same span", arguments: roundTrips)
    func roundTrip(_ microseconds: Int64) {
        let span = TimeSpan(microseconds: microseconds)
        let text = DurationParser.format(span)
        #expect(DurationParser.parse(text) == span, "\(text)")
    }

    @Test("the documented default thresholds format as an operator would write them")
    func defaultThresholds() {
        let defaults = StallThresholds.defaults
        #expect(
            [defaults.notSyncing, defaults.noProgress, defaults.pendingNotDraining, defaults.retryLoop, defaults.noRecentImport]
                .map(DurationParser.format) == ["1m", "5m", "15m", "30m", "0s"])
    }
}
