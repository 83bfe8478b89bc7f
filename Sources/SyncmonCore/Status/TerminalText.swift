/// Text made safe and measured for a terminal: what engines, tools and the network supply (error
/// messages, codes, names) goes through here before it reaches a table cell, so a newline, an
/// escape sequence or a bidirectional override can never break, recolour or reorder the table.
public enum TerminalText {
    /// `text` with every control character made visible and harmless: line breaks and tabs become
    /// a space (a message is one line in a cell), anything else that a terminal would act on (C0
    /// and C1 controls, DEL, line and paragraph separators, bidirectional overrides) becomes `�`.
    /// Invalid UTF-8 was already replaced by `�` when the bytes became a `String`.
    public static func sanitized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { self.isUnsafe($0) }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n", "\r", "\t": result.append(" ")
            case _ where self.isUnsafe(scalar): result.append("\u{FFFD}")
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// How many terminal columns `text` takes: 2 for East Asian wide and emoji characters, 0 for
    /// combining marks and zero-width characters, 1 otherwise (what `wcwidth` says for the common
    /// cases, without its dependence on the locale).
    public static func width(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + self.width(of: $1) }
    }

    /// `text` cut to at most `columns` columns, ending in `…` when it was cut. Sanitized first.
    public static func cut(_ text: String, to columns: Int) -> String {
        let text = self.sanitized(text)
        guard self.width(text) > columns else { return text }
        guard columns > 0 else { return "" }
        var result = String.UnicodeScalarView()
        var used = 0
        for scalar in text.unicodeScalars {
            let next = self.width(of: scalar)
            // Room for the ellipsis (one column) is kept.
            guard used + next <= columns - 1 else { break }
            result.append(scalar)
            used += next
        }
        result.append("…")
        return String(result)
    }

    /// `text` padded with spaces to `columns` columns (never cut).
    public static func padded(_ text: String, to columns: Int) -> String {
        let missing = columns - self.width(text)
        return missing > 0 ? text + String(repeating: " ", count: missing) : text
    }

    /// Whether a terminal would act on the scalar rather than print it.
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F: true
        case 0x2028, 0x2029: true
        // Bidirectional embeddings, overrides and isolates: they reorder what follows them.
        case 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// The columns one (sanitized) scalar takes.
    static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}
