import SyncmonExposition
import Testing

/// Content types and `Accept` negotiation.
@Suite("ExpositionFormat")
struct ExpositionFormatTests {
    /// Prometheus' default scrape `Accept` header (2.5x/3.x), verbatim.
    static let prometheusDefault =
        "application/openmetrics-text;version=1.0.0;escaping=allow-utf-8;q=0.5,"
        + "application/openmetrics-text;version=0.0.1;q=0.4,"
        + "text/plain;version=1.0.0;escaping=allow-utf-8;q=0.3,"
        + "text/plain;version=0.0.4;q=0.2,*/*;q=0.1"

    @Test("content types are the exact strings scrapers parse")
    func contentTypes() {
        #expect(ExpositionFormat.prometheusText.contentType == "text/plain; version=0.0.4; charset=utf-8")
        #expect(
            ExpositionFormat.openMetrics.contentType == "application/openmetrics-text; version=1.0.0; charset=utf-8"
        )
    }

    /// One row of the negotiation table: an `Accept` header and the format it must yield.
    struct Case: Sendable, CustomTestStringConvertible {
        let accept: String?
        let expected: ExpositionFormat
        let why: String
        var testDescription: String { self.why }
    }

    static let cases: [Case] = [
        Case(accept: nil, expected: .prometheusText, why: "no header"),
        Case(accept: "", expected: .prometheusText, why: "empty header"),
        Case(accept: "*/*", expected: .prometheusText, why: "anything: text is the fallback"),
        Case(accept: "text/plain", expected: .prometheusText, why: "plain text"),
        Case(accept: "text/plain;version=0.0.4", expected: .prometheusText, why: "text 0.0.4"),
        Case(accept: prometheusDefault, expected: .openMetrics, why: "Prometheus' default header"),
        Case(accept: "application/openmetrics-text", expected: .openMetrics, why: "OpenMetrics without version"),
        Case(
            accept: "application/openmetrics-text; version=1.0.0; charset=utf-8",
            expected: .openMetrics,
            why: "OpenMetrics 1.0.0 with spaces"
        ),
        Case(accept: "APPLICATION/OpenMetrics-Text;Version=1.0.0", expected: .openMetrics, why: "case-insensitive"),
        Case(accept: "application/openmetrics-text;version=\"1.0.0\"", expected: .openMetrics, why: "quoted version"),
        Case(
            accept: "application/openmetrics-text;version=0.0.1,text/plain;version=0.0.4;q=0.5,*/*;q=0.1",
            expected: .prometheusText,
            why: "Prometheus 2.x header asks for OpenMetrics 0.0.1 only"
        ),
        Case(
            accept: "text/plain;q=0.5,application/openmetrics-text;q=0.5",
            expected: .prometheusText,
            why: "tie: text listed first"
        ),
        Case(
            accept: "application/openmetrics-text;q=0.5,text/plain;q=0.5",
            expected: .openMetrics,
            why: "tie: OpenMetrics listed first"
        ),
        Case(
            accept: "application/openmetrics-text;q=0.50,text/plain;q=0.5",
            expected: .openMetrics,
            why: "0.50 and 0.5 are the same weight"
        ),
        Case(
            accept: "application/openmetrics-text;q=0.3,text/plain;q=0.9",
            expected: .prometheusText,
            why: "text weighted higher"
        ),
        Case(
            accept: "text/plain;q=0.2,application/openmetrics-text;q=0.3",
            expected: .openMetrics,
            why: "OpenMetrics weighted higher, listed second"
        ),
        Case(
            accept: "application/openmetrics-text;q=0.5,*/*;q=0.9",
            expected: .prometheusText,
            why: "*/* gives text its weight"
        ),
        Case(
            accept: "*/*;q=0.9,application/openmetrics-text;q=0.5",
            expected: .prometheusText,
            why: "the specific OpenMetrics range overrides */* for OpenMetrics only"
        ),
        Case(accept: "application/*", expected: .openMetrics, why: "application/* covers OpenMetrics, not text"),
        Case(accept: "text/*,application/*;q=0.8", expected: .prometheusText, why: "text/* heavier than application/*"),
        Case(accept: "application/openmetrics-text;q=0", expected: .prometheusText, why: "q=0: not acceptable"),
        Case(
            accept: "application/openmetrics-text;q=0,*/*",
            expected: .prometheusText,
            why: "q=0 on the specific range beats */*"
        ),
        Case(accept: "application/json", expected: .prometheusText, why: "nothing we serve: last resort text"),
        Case(
            accept: "application/openmetrics-text;q=1.5,text/plain;q=0.1",
            expected: .prometheusText,
            why: "a malformed q drops its element"
        ),
        Case(
            accept: "application/openmetrics-text;q=abc,"
                + "application/openmetrics-text;version=1.0.0;q=0.4,text/plain;q=0.3",
            expected: .openMetrics,
            why: "a malformed element does not spoil the rest"
        ),
        Case(
            accept: "application/openmetrics-text;q=0.9,"
                + "application/openmetrics-text;version=1.0.0;q=0.1,text/plain;q=0.5",
            expected: .prometheusText,
            why: "the more specific OpenMetrics range decides its weight"
        ),
        Case(
            accept: "text/plain;version=1.0.0;q=0.6,application/openmetrics-text;version=1.0.0;q=0.5",
            expected: .prometheusText,
            why: "any text/plain version counts for text"
        ),
        Case(
            accept: "  text/plain ;  q=0.1 ,\tapplication/openmetrics-text ; q=0.2 ",
            expected: .openMetrics,
            why: "whitespace"
        ),
        Case(accept: ",,;", expected: .prometheusText, why: "garbage"),
    ]

    @Test("Accept negotiation", arguments: cases)
    func negotiation(_ row: Case) {
        #expect(ExpositionFormat.negotiate(accept: row.accept) == row.expected, "\(row.accept ?? "<nil>")")
    }
}
