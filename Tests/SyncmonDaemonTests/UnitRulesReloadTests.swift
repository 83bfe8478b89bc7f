import Foundation
import Logging
import SyncmonCore
import SyncmonRules
import SyncmonTestSupport
import Testing

@testable import SyncmonDaemon
@testable import SyncmonSources

/// A `unit:` source's rules on SIGHUP (docs/systemd-units.md#journal-rules): the file read again, swapped in when valid,
/// kept and counted when not; a shipped pack never changes.
@Suite("unit: sources: rules reload")
struct UnitRulesReloadTests {
    static func matches(_ rules: UnitRules, _ line: String) -> String? {
        rules.current.evaluate(JournalLine(message: line, time: Timestamp(seconds: 0))).match?.rule.name
    }

    @Test("a bad file keeps the running rules and is counted; fixed, the new rules apply")
    func badThenFixed() throws {
        let directory = try TemporaryDirectory(prefix: "smr")
        defer { directory.remove() }
        let path = directory.path("t.rules")
        try "[rule tick]\nmatch = ^tick\nemit = heartbeat\n".write(toFile: path, atomically: true, encoding: .utf8)
        let rules = try UnitRules(reference: path)
        let registry = UnitRulesRegistry([rules])
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

        registry.reload(logger: logger)
        #expect(registry.failedReloads == 0 && Self.matches(rules, "tick 1") == "tick")

        try "[rule tock]\nmatch = ^tock\nemit = notAType\n".write(toFile: path, atomically: true, encoding: .utf8)
        guard case .kept(let problem) = rules.reload() else {
            Issue.record("a bad file was not kept")
            return
        }
        #expect(problem.description.hasPrefix("\(path):3: "), "\(problem)")
        registry.reload(logger: logger)
        #expect(registry.failedReloads == 1)
        #expect(Self.matches(rules, "tick 2") == "tick" && Self.matches(rules, "tock") == nil)

        try "[rule tock]\nmatch = ^tock\nemit = heartbeat\n".write(toFile: path, atomically: true, encoding: .utf8)
        registry.reload(logger: logger)
        #expect(registry.failedReloads == 1)
        #expect(Self.matches(rules, "tock") == "tock" && Self.matches(rules, "tick 3") == nil)
        #expect(rules.reload() == .unchanged)
    }

    @Test("a shipped pack is unchanged by a reload; a file gone keeps the running rules")
    func packAndMissingFile() throws {
        #expect(try UnitRules(reference: "unison").reload() == .unchanged)
        let directory = try TemporaryDirectory(prefix: "smr")
        defer { directory.remove() }
        let path = directory.path("t.rules")
        try "[rule tick]\nmatch = ^tick\nemit = heartbeat\n".write(toFile: path, atomically: true, encoding: .utf8)
        let rules = try UnitRules(reference: path)
        directory.remove()
        guard case .kept(let problem) = rules.reload() else {
            Issue.record("a missing file was not kept")
            return
        }
        #expect(problem.file == path && problem.message.contains("cannot open"))
        #expect(Self.matches(rules, "tick") == "tick")
    }
}
