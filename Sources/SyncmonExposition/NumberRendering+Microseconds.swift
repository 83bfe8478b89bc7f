extension NumberRendering {
    /// Writes a time of `microseconds` as its seconds, `Double(microseconds) / 1e6`, would be
    /// written by ``writeSampleValue(_:to:)``, without going through `Double.description`.
    ///
    /// Every event time has a fraction of a second, and spelling it through `description` (a
    /// `String` per value) was the slowest part of the timestamp families. The digits are the
    /// same: from 1 s to 2^33 s a `Double` is exact to under half a microsecond, so the quotient
    /// (correctly rounded) is closer to `whole.fraction` than to any other decimal of at most six
    /// places, and that decimal, trailing zeros dropped, is its shortest round-trip spelling.
    /// Other times go through the `Double`.
    @inline(__always)
    static func writeMicroseconds(_ microseconds: Int64, to cursor: inout ByteCursor) {
        let (whole, fraction) = microseconds.quotientAndRemainder(dividingBy: 1_000_000)
        if fraction == 0 {
            self.writeInteger(whole, to: &cursor)
            return
        }
        guard whole >= 1, whole < 1 << 33 else {
            self.writeSampleValue(Double(microseconds) / 1_000_000, to: &cursor)
            return
        }
        cursor.putDecimal(UInt64(whole))
        cursor.put(UInt8(ascii: "."))
        var digits = 6
        var remaining = UInt64(fraction)
        while remaining % 10 == 0 {
            remaining /= 10
            digits -= 1
        }
        // The fraction's digits, leading zeros kept: `.000123`.
        cursor.putDigits(remaining, count: digits)
    }
}
