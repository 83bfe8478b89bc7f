/// Parses durations as operators write them on command lines and in configuration files:
/// `90s`, `5m`, `1h30m`, `1.5h`, `250ms`, `2d`, or a plain number of seconds. `0` disables a detector.
public enum DurationParser {
    public static func parse(_ text: String) -> TimeSpan? {
        let text = text.trimmingSpaces()
        guard !text.isEmpty else { return nil }
        if let seconds = Double(text), seconds.isFinite, seconds >= 0 { return .seconds(seconds) }
        var total: Double = 0
        var rest = Substring(text)
        while !rest.isEmpty {
            let number = rest.prefix { $0.isNumber || $0 == "." }
            guard !number.isEmpty, let value = Double(number) else { return nil }
            rest = rest.dropFirst(number.count)
            let unit = rest.prefix { $0.isLetter }
            rest = rest.dropFirst(unit.count)
            switch unit {
            case "ms": total += value / 1000
            case "s": total += value
            case "m": total += value * 60
            case "h": total += value * 3600
            case "d": total += value * 86_400
            default: return nil
            }
        }
        guard total.isFinite else { return nil }
        return .seconds(total)
    }

    /// Formats a span the way `parse` reads it back (`1h30m`, `90s` → `1m30s`, `0s`).
    public static func format(_ span: TimeSpan) -> String {
        var seconds = span.microseconds / 1_000_000
        let micros = span.microseconds % 1_000_000
        if seconds == 0, micros == 0 { return "0s" }
        var out = ""
        for (unit, size) in [("d", Int64(86_400)), ("h", 3600), ("m", 60)] where seconds >= size {
            out += "\(seconds / size)\(unit)"
            seconds %= size
        }
        if seconds > 0 || micros > 0 {
            if micros == 0 {
                out += "\(seconds)s"
            } else {
                // Plain decimal digits: `Double`'s description would write 10 µs as `1e-05`,
                // which `parse` does not read back.
                var fraction = String(micros)
                fraction = String(repeating: "0", count: max(0, 6 - fraction.count)) + fraction
                while fraction.hasSuffix("0") { fraction.removeLast() }
                out += "\(seconds).\(fraction)s"
            }
        }
        return out
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        String(self.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
