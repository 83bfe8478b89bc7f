import SyncmonCore

/// Durations as Go programs (rclone, restic) print them: `1h2m3.5s`, `552.330144ms`, `1m0s`.
enum GoDuration {
    /// Parses one duration; `nil` for anything else.
    static func parse<Text: StringProtocol>(_ text: Text) -> TimeSpan? {
        var microseconds = 0.0
        var rest = Substring(text)
        guard !rest.isEmpty else { return nil }
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard !number.isEmpty, let value = Double(number) else { return nil }
            rest = rest.dropFirst(number.count)
            let unit = rest.prefix { !($0.isASCII && ($0.isNumber || $0 == ".")) }
            rest = rest.dropFirst(unit.count)
            switch unit {
            case "h": microseconds += value * 3_600_000_000
            case "m": microseconds += value * 60_000_000
            case "s": microseconds += value * 1_000_000
            case "ms": microseconds += value * 1_000
            case "us", "µs", "μs": microseconds += value
            case "ns": microseconds += value / 1_000
            default: return nil
            }
        }
        guard microseconds.isFinite, microseconds < 9e15 else { return nil }
        return TimeSpan(microseconds: Int64(microseconds.rounded()))
    }
}
