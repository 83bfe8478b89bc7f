import Logging

/// Renders a log statement as one logfmt line: `time=… level=… msg=… key=value …` for
/// `--log-format logfmt`, or `LEVEL message key=value …` where journald fails and an entry falls
/// back to stderr.
///
/// Without journald, stderr is what an operator reads or a log shipper parses, so every entry must stay on one line:
/// control characters are escaped in the message and in values, and values are quoted when they contain a space,
/// `=` or `"` (the quoting rules of go-logfmt, which most logfmt parsers follow).
public enum LogfmtFormatter {
    /// The line for one statement, without the trailing newline.
    ///
    /// - Parameters:
    ///   - level: Printed upper-case, first.
    ///   - message: Printed as it is, with control characters escaped.
    ///   - metadata: Printed as `key=value` pairs in key order.
    public static func line(level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
        var line = Self.levelName(level)
        line += " "
        line += Self.escapingControlCharacters(message)
        Self.appendFields(metadata, to: &line)
        return line
    }

    /// The machine form of `--log-format logfmt`, without the trailing newline: `time=… level=…
    /// msg=…` and then every field, in key order, each quoted and escaped as logfmt wants.
    public static func line(time: LogTime, level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
        var line = "time=" + time.rfc3339
        line += " level="
        line += level.rawValue
        line += " msg="
        line += Self.value(message)
        Self.appendFields(metadata, to: &line)
        return line
    }

    /// Appends every field of `metadata` as ` key=value`, in key order, quoted and escaped as
    /// logfmt wants.
    static func appendFields(_ metadata: Logger.Metadata, to line: inout String) {
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            line += " "
            line += Self.key(key)
            line += "="
            line += Self.value(value.journalValue)
        }
    }

    /// The upper-case name of a level: `TRACE`, `DEBUG`, `INFO`, `NOTICE`, `WARNING`, `ERROR`, `CRITICAL`.
    public static func levelName(_ level: Logger.Level) -> String {
        switch level {
        case .trace: "TRACE"
        case .debug: "DEBUG"
        case .info: "INFO"
        case .notice: "NOTICE"
        case .warning: "WARNING"
        case .error: "ERROR"
        case .critical: "CRITICAL"
        }
    }

    /// A key as logfmt allows it: characters that would end or split the key become `_`.
    static func key(_ key: String) -> String {
        guard !key.isEmpty else { return "_" }
        var result = ""
        result.unicodeScalars.reserveCapacity(key.unicodeScalars.count)
        for scalar in key.unicodeScalars {
            result.unicodeScalars.append(Self.needsQuoting(scalar) ? "_" : scalar)
        }
        return result
    }

    /// A value, quoted and escaped when it would otherwise not read back as one value.
    static func value(_ value: String) -> String {
        guard value.isEmpty || value.unicodeScalars.contains(where: Self.needsQuoting) else { return value }
        var result = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            default: Self.appendEscapingControl(scalar, to: &result)
            }
        }
        result += "\""
        return result
    }

    /// Text with newlines, tabs and other control characters written as escapes, so it stays on one line.
    static func escapingControlCharacters(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: Self.isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            Self.appendEscapingControl(scalar, to: &result)
        }
        return result
    }

    /// Appends `scalar`, or its escape when it is a control character.
    private static func appendEscapingControl(_ scalar: Unicode.Scalar, to result: inout String) {
        switch scalar {
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        case _ where Self.isControl(scalar):
            let hex = String(scalar.value, radix: 16)
            result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        default: result.unicodeScalars.append(scalar)
        }
    }

    /// Whether a character in a value forces quoting: spaces and controls, `=` and `"`.
    private static func needsQuoting(_ scalar: Unicode.Scalar) -> Bool {
        // ASCII first: nearly every key and value is ASCII, and the Unicode property lookup
        // below costs more than the rest of the line (it showed at the top of a profile of a
        // daemon logging thousands of state changes a second).
        if scalar.isASCII {
            return scalar.value <= 0x20 || scalar == "=" || scalar == "\"" || scalar.value == 0x7F
        }
        return Self.isControl(scalar) || scalar.properties.isWhitespace
    }

    /// Whether the character is a C0 or C1 control character or DEL, or a line or paragraph separator.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
}
