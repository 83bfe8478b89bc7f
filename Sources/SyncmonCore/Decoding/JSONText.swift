/// Small JSON helpers for code that writes events by hand (`syncmon emit`, the client library),
/// built on the decoder's own scanner so that "valid JSON" means the same thing everywhere.
public enum JSONText {
    /// Whether `text` is exactly one JSON value (`3`, `false`, `"x"`, `{"code":"y"}`).
    public static func isValue(_ text: String) -> Bool {
        var copy = text
        return copy.withUTF8 { bytes in
            var scanner = JSONScanner(UnsafeRawBufferPointer(bytes))
            do {
                try scanner.skipValue()
            } catch {
                return false
            }
            scanner.skipWhitespace()
            return scanner.isAtEnd
        }
    }

    /// `text` as a JSON string literal.
    public static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}
