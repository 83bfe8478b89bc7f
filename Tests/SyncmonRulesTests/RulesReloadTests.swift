import SyncmonCore
import Testing

@testable import SyncmonRules

/// SIGHUP and a rules file (docs/systemd-units.md#journal-rules): the new text checked as at start, swapped in when
/// valid, the running rules kept (with `file:line`) when not.
@Suite("Rules files: reload")
struct RulesReloadTests {
    static let running = "[rule tick]\nmatch = ^tick\nemit = heartbeat\n"

    @Test(
        "a changed valid file replaces the rules; a bad one is kept with its file and line; an unchanged one does nothing",
        arguments: [
            ("unchanged", running, "-", 0, ""),
            ("a new rule", "[rule tock]\nmatch = ^tock\nemit = heartbeat\n", "tock", 0, ""),
            ("an unknown emit type", "[rule tock]\nmatch = ^tock\nemit = notAType\n", "", 3, "unknown_type"),
            ("a bad expression", "[rule tock]\nmatch = ^(tock\nemit = heartbeat\n", "", 2, "match"),
            ("no emit", "[rule tock]\nmatch = ^tock\n", "", 1, "emit"),
        ]
    )
    func reload(_ name: String, text: String, rule: String, problemLine: Int, problemWords: String) {
        let outcome = RulesReload.of(file: "/etc/t.rules", runningText: Self.running, text: text)
        switch outcome {
        case .unchanged:
            #expect(rule == "-", "\(name)")
        case .replaced(let pack, let newText):
            #expect(pack.rules.map(\.name) == [rule], "\(name)")
            #expect(newText == text && pack.origin == "/etc/t.rules", "\(name)")
        case .kept(let problem):
            #expect(rule.isEmpty, "\(name): \(problem)")
            #expect(problem.file == "/etc/t.rules" && problem.line == problemLine, "\(name): \(problem)")
            #expect(problem.description.hasPrefix("/etc/t.rules:\(problemLine): "), "\(name): \(problem)")
            #expect(problem.message.contains(problemWords), "\(name): \(problem)")
        }
    }
}
