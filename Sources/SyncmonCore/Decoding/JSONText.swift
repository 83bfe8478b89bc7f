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
        var output = ""
        JSONWriter.appendString(text, to: &output)
        return output
    }
}
