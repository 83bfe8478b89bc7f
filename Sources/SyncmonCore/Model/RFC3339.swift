/// Parses and formats RFC 3339 times (`2026-11-21T12:00:00.25+01:00`) without Foundation.
///
/// Foundation's date formatters allocate and are slow; event times are parsed on the hot path,
/// so this works on raw bytes. Civil-date arithmetic follows Howard Hinnant's
/// `days_from_civil` / `civil_from_days` algorithms.
public enum RFC3339 {
    /// Parses `bytes` as an RFC 3339 date-time; `nil` when it is not one.
    ///
    /// Accepts `T`, `t` or a space between date and time, `Z`/`z` or a `±HH:MM` offset, and any
    /// number of fractional digits (digits past the sixth are truncated). Leap seconds (`:60`)
    /// are folded into the next second.
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> Timestamp? {
        var recent = RecentMinute()
        return self.parse(bytes, recent: &recent)
    }

    /// The minute of the last time parsed, kept by a caller that parses many (the decoder):
    /// its text `YYYY-MM-DDTHH:MM` as two words, and when it starts.
    ///
    /// A stream's times share their minute for many lines in a row, so a time whose first
    /// sixteen bytes are the same is read from its seconds on: the date and the minute were
    /// checked when they were first read, and the days since 1970 counted then.
    public struct RecentMinute: Sendable {
        /// Zero until a time was read: a valid time's digits are never zero bytes.
        fileprivate var text: (UInt64, UInt64) = (0, 0)
        fileprivate var start: Int64 = 0

        public init() {}
    }

    /// `parse(_:)`, reusing `recent`'s minute when `bytes` start with it and remembering the
    /// minute of `bytes` otherwise.
    @inline(__always)
    public static func parse(_ bytes: UnsafeRawBufferPointer, recent: inout RecentMinute) -> Timestamp? {
        guard bytes.count >= 20 else { return nil }
        let text = (bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self), bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        if text != recent.text {
            guard let start = Self.minute(bytes) else { return nil }
            recent.text = text
            recent.start = start
        }
        return Self.rest(bytes, minuteStart: recent.start)
    }

    /// The seconds and the rest after the minute: `:SS`, a fraction, the zone. `nil` when they
    /// are not valid.
    ///
    /// Every timed line comes through here, so it reads the bytes straight: digits as bytes
    /// less `0` compared as unsigned, the fraction's first six digits read as a number and
    /// scaled once (the seventh digit on is truncated). Inlined into the decoder, with the rare
    /// numeric offset out of line (``offsetSeconds(_:at:)``); helpers returning optionals and
    /// a call for every time cost more than the rest of the time's parse.
    @inline(__always)
    private static func rest(_ bytes: UnsafeRawBufferPointer, minuteStart: Int64) -> Timestamp? {
        let count = bytes.count
        guard bytes[16] == UInt8(ascii: ":"), let second = Self.twoDigits(bytes, at: 17), second <= 60 else { return nil }
        var index = 19
        var micros: Int64 = 0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let digitsStart = index
            // The first six digits as a number, then scaled to microseconds by the ones missing:
            // a multiply-add a digit, where a running scale cost a division by 10 each.
            var kept = 0
            while index < count, case let digit = bytes[index] &- UInt8(ascii: "0"), digit <= 9 {
                if kept < 6 {
                    micros = micros &* 10 &+ Int64(digit)
                    kept += 1
                }
                index += 1
            }
            guard index > digitsStart else { return nil }
            switch kept {
            case 1: micros &*= 100_000
            case 2: micros &*= 10_000
            case 3: micros &*= 1_000
            case 4: micros &*= 100
            case 5: micros &*= 10
            default: break
            }
        }
        guard index < count else { return nil }
        let offset: Int64
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == count else { return nil }
            offset = 0
        default:
            guard let numeric = Self.offsetSeconds(bytes, at: index) else { return nil }
            offset = numeric
        }
        return Timestamp(microseconds: (minuteStart + second - offset) * 1_000_000 + micros)
    }

    /// The seconds east of UTC of the zone `±HH:MM` that ends `bytes` at `index`; `nil` when it
    /// is not one.
    @inline(never)
    private static func offsetSeconds(_ bytes: UnsafeRawBufferPointer, at index: Int) -> Int64? {
        let sign = bytes[index]
        guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"), index + 6 == bytes.count, let hour = Self.twoDigits(bytes, at: index + 1),
            bytes[index + 3] == UInt8(ascii: ":"), let minute = Self.twoDigits(bytes, at: index + 4), hour <= 23, minute <= 59
        else { return nil }
        return (hour * 3600 + minute * 60) * (sign == UInt8(ascii: "+") ? 1 : -1)
    }

    /// The two decimal digits at `index`, `nil` when either is not one.
    @inline(__always)
    private static func twoDigits(_ bytes: UnsafeRawBufferPointer, at index: Int) -> Int64? {
        let tens = bytes[index] &- UInt8(ascii: "0")
        let ones = bytes[index + 1] &- UInt8(ascii: "0")
        guard tens <= 9, ones <= 9 else { return nil }
        return Int64(tens) * 10 + Int64(ones)
    }

    /// When the minute of the fixed head `YYYY-MM-DDTHH:MM` (`T`, `t` or a space between date and
    /// time) of `bytes`, at least 20 bytes long, starts, in seconds since 1970 as if it were UTC;
    /// `nil` when a digit or separator is wrong, or the date or time does not exist.
    ///
    /// The head is read as two words: the separators are checked and replaced with `0`, and all
    /// sixteen places checked for digits at once (each byte's high nibble is 3, and adding 6
    /// keeps it so only for 0–9).
    private static func minute(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        let date = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self))  // YYYY-MM-
        let time = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))  // DDTHH:MM
        func byte(_ word: UInt64, _ index: UInt64) -> UInt64 { word >> (8 * index) & 0xFF }
        let separator = byte(time, 2)
        guard byte(date, 4) == UInt64(UInt8(ascii: "-")), byte(date, 7) == UInt64(UInt8(ascii: "-")),
            separator == UInt64(UInt8(ascii: "T")) || separator == UInt64(UInt8(ascii: "t")) || separator == UInt64(UInt8(ascii: " ")),
            byte(time, 5) == UInt64(UInt8(ascii: ":"))
        else { return nil }
        let zeros: UInt64 = 0x3030_3030_3030_3030
        func digits(_ word: UInt64, separators: UInt64) -> UInt64? {
            let word = word & ~separators | zeros & separators
            guard word & 0xF0F0_F0F0_F0F0_F0F0 == zeros, (word &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0 == zeros else { return nil }
            return word &- zeros
        }
        guard let dateDigits = digits(date, separators: 0xFF00_00FF_0000_0000),
            let timeDigits = digits(time, separators: 0x0000_FF00_00FF_0000)
        else { return nil }
        func value(_ word: UInt64, _ index: UInt64) -> Int64 { Int64(byte(word, index)) }
        let year = value(dateDigits, 0) * 1000 + value(dateDigits, 1) * 100 + value(dateDigits, 2) * 10 + value(dateDigits, 3)
        let month = value(dateDigits, 5) * 10 + value(dateDigits, 6)
        let day = value(timeDigits, 0) * 10 + value(timeDigits, 1)
        let hour = value(timeDigits, 3) * 10 + value(timeDigits, 4)
        let minute = value(timeDigits, 6) * 10 + value(timeDigits, 7)
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month), hour <= 23, minute <= 59 else { return nil }
        return daysFromCivil(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60
    }

    /// Parses a Swift string (tests and command-line values).
    public static func parse(_ string: String) -> Timestamp? {
        var copy = string
        return copy.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    /// Formats as UTC with `Z`: whole seconds without a fraction, otherwise the shortest
    /// fraction of up to six digits (`2026-11-21T12:00:00.25Z`).
    public static func format(_ time: Timestamp) -> String {
        // RFC 3339 has four-digit years: absurd inputs (a retryAfter of 1e300 s) saturate at the ends.
        let time = Timestamp(microseconds: min(max(time.microseconds, Self.earliest), Self.latest))
        var seconds = time.microseconds / 1_000_000
        var micros = time.microseconds % 1_000_000
        if micros < 0 {
            micros += 1_000_000
            seconds -= 1
        }
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let (year, month, day) = civilFromDays(days)
        var out = ""
        out.reserveCapacity(27)
        func append(_ value: Int64, width: Int) {
            var digits = String(value)
            while digits.count < width { digits = "0" + digits }
            out += digits
        }
        append(year, width: 4)
        out += "-"
        append(month, width: 2)
        out += "-"
        append(day, width: 2)
        out += "T"
        append(secondOfDay / 3600, width: 2)
        out += ":"
        append(secondOfDay / 60 % 60, width: 2)
        out += ":"
        append(secondOfDay % 60, width: 2)
        if micros != 0 {
            var fraction = micros
            var width = 6
            while fraction % 10 == 0 {
                fraction /= 10
                width -= 1
            }
            out += "."
            append(fraction, width: width)
        }
        out += "Z"
        return out
    }

    /// 0000-01-01T00:00:00Z and 9999-12-31T23:59:59.999999Z.
    static let earliest: Int64 = -62_167_219_200_000_000
    static let latest: Int64 = 253_402_300_799_999_999

    private static func isLeapYear(_ year: Int64) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    private static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01.
    static func civilFromDays(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
