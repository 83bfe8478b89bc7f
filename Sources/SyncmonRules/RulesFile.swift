import SyncmonCore

/// The rules file of docs/systemd-units.md#journal-rules: the configuration file's syntax (`# comments`, `key = value`),
/// `[rule NAME]` sections tried in order, each with one `match`, an optional `priority` and one or
/// more `emit` lines.
///
/// ```
/// [rule cycle-failed]
/// match = ^Synchronization incomplete at .*\((?<failed>[0-9]+) failed\)
/// emit = error phase=import error.code=syncIncomplete error.message=${MESSAGE}
/// ```
///
/// Everything is checked before a pack is used: the syntax, every expression (compiled), every
/// `${name}` (a capture of its rule), and every `emit` (rendered with sample captures and run
/// through the daemon's event decoder), so a mistake stops the start naming the file and line
/// instead of silently emitting nothing later.
public enum RulesFile {
    /// A problem in a rules file: where, and what.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var file: String
        public var line: Int
        public var message: String

        public init(file: String, line: Int, message: String) {
            self.file = file
            self.line = line
            self.message = message
        }

        /// `file:line: problem`; a problem with the file as a whole (it cannot be read) has no line.
        public var description: String { self.line > 0 ? "\(self.file):\(self.line): \(self.message)" : "\(self.file): \(self.message)" }
    }

    /// A section being read: its values and the lines they came from.
    private struct Draft {
        var name: String
        var line: Int
        var match: (text: String, line: Int)? = nil
        var priority: RulePriority? = nil
        var emits: [(text: String, line: Int)] = []
    }

    /// Parses and checks `text`, read from `file` (named in every problem).
    public static func parse(_ text: String, file: String) throws(Problem) -> RulePack {
        var drafts: [Draft] = []
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (index, raw) in lines.enumerated() {
            let number = index + 1
            func problem(_ message: String) -> Problem { Problem(file: file, line: number, message: message) }
            let line = raw.trimmingBlanks()
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                drafts.append(try Self.header(line, problem: problem, existing: drafts, number: number))
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { throw problem("expected key = value") }
            let key = line[..<equals].trimmingBlanks()
            let value = line[line.index(after: equals)...].trimmingBlanks()
            guard !drafts.isEmpty else { throw problem("\(key) outside a [rule NAME] section") }
            switch key {
            case "match":
                guard drafts[drafts.count - 1].match == nil else { throw problem("a second match in rule \(drafts[drafts.count - 1].name)") }
                guard !value.isEmpty else { throw problem("match is empty") }
                drafts[drafts.count - 1].match = (value, number)
            case "priority":
                guard let priority = RulePriority(parsing: value) else {
                    throw problem("priority: expected emerg, alert, crit, err, warning, notice, info, debug or 0-7, got \(value)")
                }
                drafts[drafts.count - 1].priority = priority
            case "emit":
                drafts[drafts.count - 1].emits.append((value, number))
            default:
                throw problem("unknown key \(key) (a rule has match, priority and emit)")
            }
        }
        guard !drafts.isEmpty else { throw Problem(file: file, line: 1, message: "no [rule NAME] section") }
        var rules: [Rule] = []
        for draft in drafts { rules.append(try Self.rule(draft, file: file)) }
        return RulePack(origin: file, rules: rules)
    }

    private static func header(
        _ line: String,
        problem: (String) -> Problem,
        existing: [Draft],
        number: Int
    ) throws(Problem) -> Draft {
        guard line.hasSuffix("]") else { throw problem("unterminated section header") }
        let words = line.dropFirst().dropLast().split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.count == 2, words[0] == "rule" else { throw problem("sections are written [rule NAME]") }
        let name = String(words[1])
        guard EngineName.parse(name) != nil else {
            throw problem("invalid rule name \(name) (1-64 of A-Z a-z 0-9 . _ -)")
        }
        if let earlier = existing.first(where: { $0.name == name }) {
            throw problem("rule \(name) is already defined on line \(earlier.line)")
        }
        return Draft(name: name, line: number)
    }

    /// A checked rule: the expression compiles, every capture it refers to exists, every emit decodes.
    private static func rule(_ draft: Draft, file: String) throws(Problem) -> Rule {
        guard let match = draft.match else {
            throw Problem(file: file, line: draft.line, message: "rule \(draft.name) has no match")
        }
        guard !draft.emits.isEmpty else {
            throw Problem(file: file, line: draft.line, message: "rule \(draft.name) has no emit")
        }
        let pattern: RegexPattern
        do {
            pattern = try RegexPattern(match.text)
        } catch {
            throw Problem(file: file, line: match.line, message: "match: \(error) in \(match.text)")
        }
        var templates: [EmitTemplate] = []
        for emit in draft.emits {
            func problem(_ message: String) -> Problem { Problem(file: file, line: emit.line, message: "emit: \(message)") }
            let template: EmitTemplate
            do {
                template = try EmitTemplate(parsing: emit.text)
            } catch {
                throw problem(error.description)
            }
            for name in template.captureNames where pattern.group(named: name) == nil {
                let known = pattern.names.map(\.name)
                throw problem("${\(name)} is not a capture of match (\(known.isEmpty ? "it has none" : "it has " + known.joined(separator: ", ")))")
            }
            if let rejection = Self.rejection(of: template) {
                throw problem("the event decoder would reject this event: \(rejection)")
            }
            templates.append(template)
        }
        return Rule(name: draft.name, line: draft.line, pattern: pattern, priority: draft.priority, emits: templates)
    }

    /// Renders `template` with sample captures (a number, then a word) and decodes the result: the
    /// rule is good when either decodes, since a capture may fill a count or a code.
    static func rejection(of template: EmitTemplate) -> Rejection? {
        var first: Rejection? = nil
        for sample in ["1", "sample"] {
            let line = template.render(engine: "rules-check", database: "default", time: Timestamp(seconds: 1_790_000_000)) { name in
                name == nil ? "a sample message" : sample
            }
            switch EventDecoder().decode(Array(line.utf8)) {
            case .rejected(let rejection): first = first ?? rejection
            default: return nil
            }
        }
        return first
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces, tabs and `\r`.
    fileprivate func trimmingBlanks() -> String {
        let scalars = self.unicodeScalars
        guard let start = scalars.firstIndex(where: { $0 != " " && $0 != "\t" && $0 != "\r" }) else { return "" }
        let end = scalars.lastIndex(where: { $0 != " " && $0 != "\t" && $0 != "\r" })!
        return String(String.UnicodeScalarView(scalars[start...end]))
    }
}
