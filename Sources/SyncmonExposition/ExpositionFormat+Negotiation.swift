extension ExpositionFormat {
    /// Picks the format for a scrape from its `Accept` header.
    ///
    /// OpenMetrics is chosen only when the header prefers it: its weight must be above zero and higher
    /// than plain text's, or equal and listed first. Everything else — no header, `*/*`, `text/plain`,
    /// garbage — gets text 0.0.4, the format every scraper must accept.
    ///
    /// Each format's weight comes from the most specific element that covers it (RFC 9110 §12.5.1), so
    /// `application/openmetrics-text;q=0.5,*/*;q=0.9` still gives OpenMetrics 0.5 and text 0.9.
    ///
    /// - OpenMetrics matches `application/openmetrics-text` with `version=1.0.0` or no version (the
    ///   spec's default). Other versions do not match: older Prometheus releases ask for `0.0.1`
    ///   first, and we would answer with a `version=1.0.0` body they did not request.
    /// - Text matches `text/plain` with any version: our 0.0.4 output uses only legacy names, so it is
    ///   also valid text 1.0.0, and plain text is the fallback anyway.
    ///
    /// Prometheus' default header (OpenMetrics 1.0.0 at q=0.5 down to `*/*` at q=0.1) picks OpenMetrics.
    public static func negotiate(accept: String?) -> ExpositionFormat {
        guard let accept else { return .prometheusText }
        var openMetrics = Preference()
        var text = Preference()
        for (position, element) in accept.split(separator: ",").enumerated() {
            guard let range = MediaRange(parsing: element) else { continue }
            if let specificity = range.specificity(
                type: "application",
                subtype: "openmetrics-text",
                acceptsVersion: { $0 == "1.0.0" }
            ) {
                openMetrics.consider(specificity: specificity, weight: range.weight, position: position)
            }
            if let specificity = range.specificity(type: "text", subtype: "plain", acceptsVersion: { _ in true }) {
                text.consider(specificity: specificity, weight: range.weight, position: position)
            }
        }
        guard openMetrics.weight > 0 else { return .prometheusText }
        if openMetrics.weight > text.weight { return .openMetrics }
        // A tie goes to whichever the client listed first. When one `*/*` element decides both, the
        // positions are equal and text wins, as the fallback should.
        if openMetrics.weight == text.weight, openMetrics.position < text.position { return .openMetrics }
        return .prometheusText
    }
}

/// The weight one format gets from an `Accept` header, and which element decided it.
private struct Preference {
    /// Specificity of the deciding element; -1 while no element covers the format.
    var specificity = -1
    /// Weight in thousandths; 0 when nothing covers the format (RFC 9110: not acceptable).
    var weight = 0
    /// Index of the deciding element in the header, for breaking ties by order.
    var position = Int.max

    /// Takes an element covering this format if it is more specific than the one seen so far, or as
    /// specific and heavier.
    ///
    /// Equally specific elements can both cover text (`text/plain;version=1.0.0;q=0.3` and
    /// `text/plain;version=0.0.4;q=0.2`, as Prometheus sends); we serve either, so the better weight
    /// counts. On equal weight the earlier element stays, keeping header order as the tie-breaker.
    mutating func consider(specificity: Int, weight: Int, position: Int) {
        if specificity == self.specificity, weight <= self.weight { return }
        guard specificity >= self.specificity else { return }
        self.specificity = specificity
        self.weight = weight
        self.position = position
    }
}
