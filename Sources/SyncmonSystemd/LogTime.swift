import Glibc

/// When a log entry was made: microseconds since the Unix epoch, written in UTC with
/// milliseconds (`2026-11-25T16:02:21.123Z`). The handler reads the clock; the formatters take
/// the time, so tests pass a fixed one.
public struct LogTime: Sendable, Hashable {
    public var microsecondsSinceEpoch: Int64

    public init(microsecondsSinceEpoch: Int64) {
        self.microsecondsSinceEpoch = microsecondsSinceEpoch
    }

    /// The wall clock now.
    public static func now() -> LogTime {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return LogTime(microsecondsSinceEpoch: Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000)
    }

    /// RFC 3339 in UTC with milliseconds: `2026-11-25T16:02:21.123Z`.
    public var rfc3339: String {
        let milliseconds = self.microsecondsSinceEpoch.dividingFloor(by: 1000)
        let seconds = milliseconds.dividingFloor(by: 1000)
        let days = seconds.dividingFloor(by: 86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = Self.civil(fromDays: days)
        return "\(Self.digits(year, 4))-\(Self.digits(month, 2))-\(Self.digits(day, 2))T"
            + "\(Self.digits(secondOfDay / 3600, 2)):\(Self.digits(secondOfDay / 60 % 60, 2)):\(Self.digits(secondOfDay % 60, 2))."
            + "\(Self.digits(milliseconds - seconds * 1000, 3))Z"
    }

    /// The proleptic Gregorian date of a day number since 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`), so that no locale or time zone setting can change a log line.
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = shifted.dividingFloor(by: 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func digits(_ value: Int64, _ count: Int) -> String {
        let text = String(value)
        return text.count >= count ? text : String(repeating: "0", count: count - text.count) + text
    }
}

extension Int64 {
    /// Division rounding towards negative infinity (times before 1970 stay on the right day).
    fileprivate func dividingFloor(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
