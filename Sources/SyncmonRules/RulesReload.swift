/// What a reload (SIGHUP) makes of a rules file (docs/systemd-units.md#journal-rules): the new text parsed and checked
/// as at start; the running rules replaced only when it has no problem, and kept otherwise.
public enum RulesReload: Sendable, Equatable {
    /// The file is as it was: nothing to do.
    case unchanged
    /// The file changed and is valid: its rules apply from now on.
    case replaced(RulePack, text: String)
    /// The file changed and has a problem (`file:line: problem`): the running rules stay.
    case kept(RulesFile.Problem)

    /// The outcome of reloading `file`, whose running rules came from `runningText`, now reading `text`.
    public static func of(file: String, runningText: String, text: String) -> RulesReload {
        guard text != runningText else { return .unchanged }
        do {
            return .replaced(try RulesFile.parse(text, file: file), text: text)
        } catch {
            return .kept(error)
        }
    }

    public static func == (lhs: RulesReload, rhs: RulesReload) -> Bool {
        switch (lhs, rhs) {
        case (.unchanged, .unchanged): true
        case (.replaced(let left, let leftText), .replaced(let right, let rightText)): left.origin == right.origin && leftText == rightText
        case (.kept(let left), .kept(let right)): left == right
        default: false
        }
    }
}
