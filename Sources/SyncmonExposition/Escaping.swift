/// Escaping of label values and help text, appended straight into a byte buffer.
///
/// Both are done once per label set or family, never per sample, so clarity wins over speed here;
/// the only concession is a fast path that copies a string with nothing to escape in one go.
enum Escaping {
    /// Appends a label value with `\`, `"` and newline escaped, as both formats require.
    static func appendLabelValue(_ value: String, to buffer: inout [UInt8]) {
        self.append(value.utf8, escapingQuote: true, to: &buffer)
    }

    /// Appends a label value given as bytes (UTF-8), escaped as above.
    static func appendLabelValue(_ value: UnsafeRawBufferPointer, to buffer: inout [UInt8]) {
        self.append(value, escapingQuote: true, to: &buffer)
    }

    /// Appends help text escaped for `format`: `\` and newline in text 0.0.4, plus `"` in OpenMetrics.
    ///
    /// Text 0.0.4 must not escape `"` in help: its parser (and so `promtool check metrics`) rejects
    /// `\"` there as an invalid escape sequence and fails the whole scrape.
    static func appendHelp(_ help: String, format: ExpositionFormat, to buffer: inout [UInt8]) {
        self.append(help.utf8, escapingQuote: format == .openMetrics, to: &buffer)
    }

    private static func append<Bytes: Collection<UInt8>>(_ utf8: Bytes, escapingQuote: Bool, to buffer: inout [UInt8]) {
        let needsEscaping = utf8.contains { byte in
            byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\n") || (escapingQuote && byte == UInt8(ascii: "\""))
        }
        guard needsEscaping else {
            buffer.append(contentsOf: utf8)
            return
        }
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\\"):
                buffer.append(UInt8(ascii: "\\"))
                buffer.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "\n"):
                buffer.append(UInt8(ascii: "\\"))
                buffer.append(UInt8(ascii: "n"))
            case UInt8(ascii: "\"") where escapingQuote:
                buffer.append(UInt8(ascii: "\\"))
                buffer.append(UInt8(ascii: "\""))
            default:
                buffer.append(byte)
            }
        }
    }
}
