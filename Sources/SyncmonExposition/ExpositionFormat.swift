/// The wire formats `/metrics` can answer in.
///
/// Prometheus text 0.0.4 is the default and the last resort: Prometheus 3.x rejects a scrape whose
/// `Content-Type` is missing or unparsable, so every response carries one of the exact strings in
/// ``contentType``. OpenMetrics is served only when the scraper's `Accept` header prefers it (see
/// ``negotiate(accept:)``).
public enum ExpositionFormat: Sendable, Hashable, CaseIterable {
    /// Prometheus text exposition format 0.0.4.
    case prometheusText
    /// OpenMetrics 1.0.0 text format: different counter `TYPE` names, `UNIT` lines, a closing `# EOF`.
    case openMetrics

    /// The `Content-Type` header value for a response in this format.
    ///
    /// Semicolons, not commas, separate the parameters: a comma makes Prometheus' parser reject the
    /// header and, from 3.x on, fail the scrape.
    public var contentType: String {
        switch self {
        case .prometheusText: "text/plain; version=0.0.4; charset=utf-8"
        case .openMetrics: "application/openmetrics-text; version=1.0.0; charset=utf-8"
        }
    }
}
