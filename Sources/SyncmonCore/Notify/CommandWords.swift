/// A route's `command` line split into words the way systemd splits a unit's `ExecStart=`
/// (docs/notifications.md): blanks separate words, `"…"` and `'…'` quote blanks, a backslash
/// escapes the next character. Nothing is expanded: no `$VAR`, no globs, no shell.
public enum CommandWords {
    /// The words of `text`; `nil` when a quote is left open or a backslash ends the line.
    public static func split(_ text: String) -> [String]? {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in text {
            if escaped {
                word.append(character)
                escaped = false
                continue
            }
            switch (character, quote) {
            case ("\\", .some("'")):
                word.append(character)
            case ("\\", _):
                escaped = true
                inWord = true
            case (let c, nil) where c == "\"" || c == "'":
                quote = c
                inWord = true
            case (let c, let open?) where c == open:
                quote = nil
            case (" ", nil), ("\t", nil):
                if inWord { words.append(word) }
                word = ""
                inWord = false
            default:
                word.append(character)
                inWord = true
            }
        }
        guard quote == nil, !escaped else { return nil }
        if inWord { words.append(word) }
        return words
    }

    /// `words` written back so that ``split(_:)`` gives them again.
    public static func join(_ words: [String]) -> String {
        words.map { word in
            guard word.isEmpty || word.contains(where: { " \t\"'\\".contains($0) }) else { return word }
            return "\"" + word.replacingAll(["\\": "\\\\", "\"": "\\\""]) + "\""
        }.joined(separator: " ")
    }
}

extension String {
    /// Each character that is a key of `replacements` replaced by its value.
    fileprivate func replacingAll(_ replacements: [Character: String]) -> String {
        var result = ""
        for character in self { result += replacements[character] ?? String(character) }
        return result
    }
}
