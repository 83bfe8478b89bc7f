/// How numbers are spelled in an exposition.
///
/// Sample values are free-form in both formats, so we pick the cheapest correct spelling: integers
/// (counters, 0/1 states, whole Unix seconds — most of what syncmon exports) are written digit by digit
/// without going through `String`; anything else uses Swift's shortest round-trip `description`, which
/// Go's `ParseFloat` reads back exactly. Infinities and NaN are spelled `+Inf`, `-Inf` and `NaN`, which
/// both formats define (Swift would say `inf` and `nan`).
///
/// Histogram `le` values are label values, compared as strings by every query, so they use one
/// canonical spelling in both formats: the one OpenMetrics asks for, Go's `%g` with `.0` appended when
/// there is neither a point nor an exponent (`1.0`, `0.25`, `100000.0`, `1e+06`, `1e-05`, `+Inf`).
/// It matches what Prometheus' own client libraries print, so `le` series stay continuous if the
/// format negotiated for a target ever changes.
public enum NumberRendering {
    /// The spelling of a sample value, as ``ExpositionWriter`` writes it.
    public static func sampleValue(_ value: Double) -> String {
        String(unsafeUninitializedCapacity: self.maximumSampleValueLength) { buffer in
            var cursor = ByteCursor(buffer.baseAddress!)
            self.writeSampleValue(value, to: &cursor)
            return cursor.position - buffer.baseAddress!
        }
    }

    /// The canonical spelling of a histogram bound (`le`), identical in both formats.
    public static func canonical(_ value: Double) -> String {
        var bytes: [UInt8] = []
        self.appendCanonical(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The most bytes ``writeSampleValue(_:to:)`` can write: `-1.7976931348623157e+308` is 24, and
    /// `Int64.min` 20.
    static let maximumSampleValueLength = 32

    /// Writes a sample value: integers by hand, other finite values via `description`.
    @inline(__always)
    static func writeSampleValue(_ value: Double, to cursor: inout ByteCursor) {
        // In range of Int64 (NaN fails both comparisons), truncate and check nothing was lost. This
        // is two instructions; `Int64(exactly:)` would do the same through libm's `trunc`, which a
        // module importing nothing but the standard library does not link on Linux. -0.0 becomes 0,
        // which is what a scraper should see anyway.
        if value >= -0x1p63, value < 0x1p63 {
            let integer = Int64(value)
            if Double(integer) == value {
                self.writeInteger(integer, to: &cursor)
                return
            }
        }
        self.writeNonIntegral(value, to: &cursor)
    }

    /// Writes the decimal digits of a signed integer.
    @inline(__always)
    static func writeInteger(_ value: Int64, to cursor: inout ByteCursor) {
        if value < 0 {
            cursor.put(UInt8(ascii: "-"))
        }
        cursor.putDecimal(value.magnitude)
    }

    /// The slow path: NaN, infinities, fractions and integers too large for `Int64`.
    private static func writeNonIntegral(_ value: Double, to cursor: inout ByteCursor) {
        if value.isNaN {
            cursor.put("NaN")
        } else if value.isInfinite {
            cursor.put(value < 0 ? "-Inf" : "+Inf")
        } else {
            // Shortest round-trip digits; at most 24 bytes, so it is a small string: no allocation.
            for byte in value.description.utf8 {
                cursor.put(byte)
            }
        }
    }

    /// Appends Go's `strconv.FormatFloat(value, 'g', -1, 64)`, plus `.0` when it has no `.` or `e`.
    static func appendCanonical(_ value: Double, to buffer: inout [UInt8]) {
        if value.isNaN {
            buffer.append(contentsOf: "NaN".utf8)
            return
        }
        if value.isInfinite {
            buffer.append(contentsOf: (value < 0 ? "-Inf" : "+Inf").utf8)
            return
        }
        if value == 0 {
            // Covers -0.0 too, as Prometheus' client libraries do: a bound of "-0.0" would be a
            // different label value for the same bucket.
            buffer.append(contentsOf: "0.0".utf8)
            return
        }
        if value < 0 {
            buffer.append(UInt8(ascii: "-"))
        }
        let (digits, pointPosition) = self.shortestDigits(of: value.magnitude)
        let exponent = pointPosition - 1
        // Go's rule for the shortest 'g' form: exponent notation below 1e-4 or from 1e6 (precision 6).
        if exponent < -4 || exponent >= 6 {
            buffer.append(digits[0])
            if digits.count > 1 {
                buffer.append(UInt8(ascii: "."))
                buffer.append(contentsOf: digits[1...])
            }
            buffer.append(UInt8(ascii: "e"))
            buffer.append(exponent < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            // Go always writes at least two exponent digits: 1e-05, 1e+06.
            if exponent.magnitude < 10 {
                buffer.append(UInt8(ascii: "0"))
            }
            buffer.append(contentsOf: String(exponent.magnitude).utf8)
            return
        }
        // Fixed notation: integer part (or "0"), then the remaining digits after the point.
        if pointPosition <= 0 {
            buffer.append(UInt8(ascii: "0"))
        } else {
            for index in 0..<pointPosition {
                buffer.append(index < digits.count ? digits[index] : UInt8(ascii: "0"))
            }
        }
        if digits.count > pointPosition {
            buffer.append(UInt8(ascii: "."))
            for index in pointPosition..<digits.count {
                buffer.append(index < 0 ? UInt8(ascii: "0") : digits[index])
            }
        } else {
            buffer.append(contentsOf: ".0".utf8)
        }
    }

    /// The shortest round-trip significant digits of a finite positive value, and where the decimal
    /// point goes: the value is `0.d1d2d3… × 10^pointPosition`.
    ///
    /// Swift's `description` already finds the shortest digits (the hard part); this only re-reads
    /// them from whichever layout it chose (`0.001`, `1234.5`, `1e-05`, `1.5e+20`).
    private static func shortestDigits(of value: Double) -> (digits: [UInt8], pointPosition: Int) {
        var digits: [UInt8] = []
        var pointPosition: Int? = nil
        var exponent = 0
        var exponentSign = 1
        var inExponent = false
        for byte in value.description.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9") where inExponent:
                exponent = exponent * 10 + Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits.append(byte)
            case UInt8(ascii: "."):
                pointPosition = digits.count
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                inExponent = true
            case UInt8(ascii: "-") where inExponent:
                exponentSign = -1
            default:
                continue
            }
        }
        var position = (pointPosition ?? digits.count) + exponentSign * exponent
        // Leading zeros ("0.001") move the point; trailing zeros ("1.0", "1500.0") are not significant.
        let leadingZeros = digits.prefix { $0 == UInt8(ascii: "0") }.count
        digits.removeFirst(leadingZeros)
        position -= leadingZeros
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
        }
        return (digits, position)
    }
}
