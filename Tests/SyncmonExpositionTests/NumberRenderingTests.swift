import SyncmonExposition
import Testing

/// Spelling of sample values and of canonical `le` bounds.
@Suite("Number rendering")
struct NumberRenderingTests {
    @Test(
        "sample values: integers without a point, other values shortest round-trip",
        arguments: [
            (0.0, "0"), (-0.0, "0"), (1.0, "1"), (-3.0, "-3"), (42.0, "42"),
            (1_717_171_717.0, "1717171717"), (1_717_171_717.123, "1717171717.123"),
            (0.1, "0.1"), (0.25, "0.25"), (1e-05, "1e-05"), (2.5e-7, "2.5e-07"),
            (9_007_199_254_740_993.0, "9007199254740992"), (-9.2e18, "-9200000000000000000"),
            (1e19, "1e+19"), (1.5e300, "1.5e+300"), (.greatestFiniteMagnitude, "1.7976931348623157e+308"),
            (Double.nan, "NaN"), (Double.infinity, "+Inf"), (-Double.infinity, "-Inf"),
        ]
    )
    func sampleValues(_ value: Double, _ expected: String) {
        #expect(NumberRendering.sampleValue(value) == expected)
    }

    /// The examples the OpenMetrics spec lists under "Canonical Numbers", plus Go `%g` edge cases.
    @Test(
        "le bounds use Go's %g with .0 appended, as OpenMetrics' canonical numbers",
        arguments: [
            (0.0, "0.0"), (-0.0, "0.0"), (0.001, "0.001"), (0.002, "0.002"), (0.01, "0.01"), (0.1, "0.1"),
            (0.9, "0.9"), (0.95, "0.95"), (0.99, "0.99"), (0.999, "0.999"), (1.0, "1.0"), (1.7, "1.7"),
            (10.0, "10.0"),
            (1e-10, "1e-10"), (1e-09, "1e-09"), (1e-05, "1e-05"), (0.0001, "0.0001"), (100_000.0, "100000.0"),
            (1e+06, "1e+06"), (1e+10, "1e+10"),
            (0.005, "0.005"), (0.025, "0.025"), (2.5, "2.5"), (7.5, "7.5"), (300.0, "300.0"), (3600.0, "3600.0"),
            (86_400.0, "86400.0"), (123_456.0, "123456.0"), (1_234_567.0, "1.234567e+06"), (0.00011, "0.00011"),
            (1.1e-05, "1.1e-05"), (1e+100, "1e+100"), (Double.leastNonzeroMagnitude, "5e-324"), (-2.5, "-2.5"),
            (-1e+06, "-1e+06"),
            (Double.infinity, "+Inf"), (-Double.infinity, "-Inf"), (Double.nan, "NaN"),
        ]
    )
    func canonical(_ value: Double, _ expected: String) {
        #expect(NumberRendering.canonical(value) == expected)
    }

    @Test("canonical renderings parse back to the same value")
    func canonicalRoundTrips() {
        var value = 1e-12
        while value < 1e12 {
            for mantissa in [1.0, 1.5, 2.5, 3.3333333333333335, 7.0] {
                let bound = value * mantissa
                let text = NumberRendering.canonical(bound)
                #expect(Double(text) == bound, "\(bound) -> \(text)")
                #expect(text.contains(".") || text.contains("e"), "\(text) must read as a float")
            }
            value *= 10
        }
    }
}
