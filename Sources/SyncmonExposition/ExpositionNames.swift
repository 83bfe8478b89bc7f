/// Validation of metric and label names.
///
/// The grammar is the legacy Prometheus one, which both text 0.0.4 and OpenMetrics 1.0 accept without
/// quoting or escaping. We are stricter in two places, because these names are ours to choose:
/// a leading underscore is refused (reserved by OpenMetrics, and `__` by Prometheus), and so is a colon
/// in metric names (reserved for recording rules; `promtool check metrics` flags it).
public enum ExpositionNames {
    /// Whether `name` is usable as a metric or family name: `[a-zA-Z][a-zA-Z0-9_]*`.
    public static func isValidMetricName(_ name: String) -> Bool {
        self.isValidIdentifier(name)
    }

    /// Whether `name` is usable as a label name: `[a-zA-Z][a-zA-Z0-9_]*`, and not `le` or `quantile`,
    /// which the writer adds itself and which must not appear on histogram or summary series otherwise.
    public static func isValidLabelName(_ name: String) -> Bool {
        self.isValidIdentifier(name) && name != "le" && name != "quantile"
    }

    /// `[a-zA-Z][a-zA-Z0-9_]*`, checked on UTF-8 bytes so that no Unicode lookalike slips through.
    private static func isValidIdentifier(_ name: String) -> Bool {
        var isFirst = true
        for byte in name.utf8 {
            let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            if isFirst {
                guard isLetter else { return false }
                isFirst = false
            } else {
                guard isLetter || isDigit || byte == UInt8(ascii: "_") else { return false }
            }
        }
        return !isFirst
    }
}
