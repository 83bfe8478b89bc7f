/// Small JSON helpers for code that writes JSON by hand (`syncmon emit`, the client library,
/// the status document, the state file): one escaper, and a check built on the decoder's own
/// scanner so that "valid JSON" means the same thing everywhere.
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
        var bytes: [UInt8] = []
        Self.appendQuoted(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text` as a JSON string literal, by its UTF-8 bytes (below).
    public static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { Self.appendQuoted(UnsafeRawBufferPointer($0), to: &bytes) }
    }

    /// Appends UTF-8 text as a JSON string literal, escaped as `JSONEncoder` escapes it: the
    /// quote, the backslash and the control characters (`\b`, `\f`, `\n`, `\r`, `\t`, else
    /// `\u00XX`); nothing else, not even `/`. The one escaper of everything syncmon writes as
    /// JSON by hand (the status document, the state file, `syncmon emit`).
    public static func appendQuoted(_ utf8: UnsafeRawBufferPointer, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var plainFrom = 0
        for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: utf8[plainFrom..<index]))
            plainFrom = index + 1
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
            case 0x08: bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(UInt8(ascii: "f"))
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            default:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            }
        }
        bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: utf8[plainFrom...]))
        bytes.append(UInt8(ascii: "\""))
    }
}
