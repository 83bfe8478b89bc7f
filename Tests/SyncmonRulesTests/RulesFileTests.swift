import SyncmonCore
import Testing

@testable import SyncmonRules

@Suite("Rules files: syntax and checks")
struct RulesFileTests {
    static let good = """
        # a comment
        [rule start]
        match = ^Looking for (?<what>changes)$
        emit = willFetchChanges

        [rule failed]
        match = ^failed: (?P<code>\\w+) (?<count>[0-9]+)
        priority = err
        emit = error phase=import error.code=${code} error.message=${MESSAGE}
        emit = fetchedRecordZoneChanges modifications=${count} deletions=0
        """

    @Test func parsesRulesInOrder() throws {
        let pack = try RulesFile.parse(Self.good, file: "/etc/x.rules")
        #expect(pack.rules.map(\.name) == ["start", "failed"])
        #expect(pack.rules[1].priority == .err)
        #expect(pack.rules[1].emits.count == 2)
        #expect(pack.rules[1].pattern.names.map(\.name).sorted() == ["code", "count"])
    }

    @Test(arguments: [
        ("[rule a]\nmatch = x\nemit = heartbeat\nbogus = 1\n", 4, "unknown key bogus"),
        ("match = x\n", 1, "outside a [rule NAME] section"),
        ("[rule a]\nmatch = (unclosed\nemit = heartbeat\n", 2, "match: missing closing parenthesis"),
        ("[rule a]\nmatch = x\nemit = notAType\n", 3, "emit: the event decoder would reject this event: unknown_type"),
        ("[rule a]\nmatch = x\nemit = error phase=import\n", 3, "emit: the event decoder would reject this event: invalid_field"),
        ("[rule a]\nmatch = (?<n>x)\nemit = error error.code=${m}\n", 3, "emit: ${m} is not a capture of match (it has n)"),
        ("[rule a]\nmatch = x\n", 1, "rule a has no emit"),
        ("[rule a]\nemit = heartbeat\n", 1, "rule a has no match"),
        ("[rule a]\nmatch = x\nemit = heartbeat\n[rule a]\n", 4, "rule a is already defined on line 1"),
        ("[rule a]\nmatch = x\npriority = loud\nemit = heartbeat\n", 3, "priority: expected"),
        ("[rule a b]\n", 1, "sections are written [rule NAME]"),
        ("[rule a]\nmatch = x\nemit = heartbeat engine=other\n", 3, "emit: engine is set by the source"),
        ("[rule a]\nmatch = x\nemit = error error.code=\"unterminated\n", 3, "emit: unterminated quote"),
        ("[rule a]\nmatch = x\nemit = error error.code=${code\n", 3, "emit: unterminated ${"),
        ("# only a comment\n", 1, "no [rule NAME] section"),
        ("[rule a]\nmatch = x\njust words\n", 3, "expected key = value"),
    ])
    func rejectsWithLineAndProblem(text: String, line: Int, problem: String) {
        #expect {
            try RulesFile.parse(text, file: "/etc/bad.rules")
        } throws: { error in
            guard let error = error as? RulesFile.Problem else { return false }
            return error.file == "/etc/bad.rules" && error.line == line && error.message.contains(problem)
        }
    }

    @Test func problemReadsAsFileLineMessage() {
        let problem = RulesFile.Problem(file: "/etc/x.rules", line: 7, message: "unknown key y")
        #expect(problem.description == "/etc/x.rules:7: unknown key y")
    }

    @Test func crlfFilesParse() throws {
        let pack = try RulesFile.parse("[rule a]\r\nmatch = ^a$\r\nemit = heartbeat\r\n", file: "f")
        #expect(pack.evaluate(JournalLine(message: "a", time: Timestamp(seconds: 0))).match?.rule.name == "a")
    }
}

@Suite("Rules: matching and rendering")
struct RuleMatchingTests {
    static let time = Timestamp(seconds: 1_795_000_000)

    func pack() throws -> RulePack { try RulesFile.parse(RulesFileTests.good, file: "t") }

    @Test func firstMatchWinsAndCapturesFillEvents() throws {
        let pack = try RulesFile.parse(
            "[rule one]\nmatch = ^x(?<n>[0-9]+)\nemit = fetchedDatabaseChanges modifications=${n} deletions=0\n[rule two]\nmatch = ^x\nemit = heartbeat\n",
            file: "t"
        )
        let match = try #require(pack.evaluate(JournalLine(message: "x42 y", time: Self.time)).match)
        #expect(match.rule.name == "one")
        let events = match.events(engine: "e", database: "d")
        #expect(
            events == [#"{"v":1,"engine":"e","database":"d","type":"fetchedDatabaseChanges","time":"2026-11-18T11:06:40Z","modifications":42,"deletions":0}"#])
    }

    @Test func priorityBoundsWhichEntriesARuleSees() throws {
        let pack = try self.pack()
        let info = JournalLine(message: "failed: quota 3", priority: .info, time: Self.time)
        let error = JournalLine(message: "failed: quota 3", priority: .err, time: Self.time)
        let critical = JournalLine(message: "failed: quota 3", priority: .crit, time: Self.time)
        #expect(pack.evaluate(info).match == nil)
        #expect(pack.evaluate(error).match?.rule.name == "failed")
        #expect(pack.evaluate(critical).match?.rule.name == "failed")
    }

    @Test func messageIsAlwaysAStringAndDecodes() throws {
        let pack = try self.pack()
        let match = try #require(pack.evaluate(JournalLine(message: "failed: 3 3", priority: .err, time: Self.time)).match)
        let events = match.events(engine: "e", database: "d")
        #expect(events[0].contains(#""code":3"#))  // a bare numeric capture is a number…
        #expect(events[0].contains(#""message":"failed: 3 3""#))  // …the message never is
    }

    @Test func invalidUTF8IsReplacedAndCarriageReturnKept() throws {
        let pack = try RulesFile.parse("[rule a]\nmatch = ^100%\\r +\\r\\[END\\] (?<what>.*)$\nemit = error error.code=x error.message=${what}\n", file: "t")
        var bytes = Array("100%\r   \r[END] Copying ".utf8)
        bytes += [0xFF, 0xFE]
        let line = JournalLine(bytes: bytes, time: Self.time)
        let match = try #require(pack.evaluate(line).match)
        #expect(match.capture("what") == "Copying \u{FFFD}\u{FFFD}")
        #expect(match.events(engine: "e", database: "d")[0].contains(#""message":"Copying \#u{FFFD}\#u{FFFD}""#))
    }

    @Test func hugeMessageStaysUnderTheLineLimit() throws {
        let pack = try RulesFile.parse("[rule a]\nmatch = ^x\nemit = error error.code=x error.message=${MESSAGE}\n", file: "t")
        let message = "x" + String(repeating: "é", count: 40_000)
        let match = try #require(pack.evaluate(JournalLine(message: message, time: Self.time)).match)
        let event = match.events(engine: "e", database: "d")[0]
        #expect(event.utf8.count < 2_000)
        if case .rejected(let rejection) = EventDecoder().decode(Array(event.utf8)) { Issue.record("rejected: \(rejection)") }
    }

    @Test func backtrackingLineIsBoundedNotHung() throws {
        let pack = try RulesFile.parse("[rule evil]\nmatch = ^(a+)+$\nemit = heartbeat\n[rule after]\nmatch = a\nemit = heartbeat\n", file: "t")
        let line = JournalLine(message: String(repeating: "a", count: 4_000) + "!", time: Self.time)
        let started = ContinuousClock.now
        let evaluation = pack.evaluate(line)
        let elapsed = ContinuousClock.now - started
        #expect(evaluation.limitExceeded == 1)
        #expect(evaluation.match?.rule.name == "after")
        #expect(elapsed < .seconds(1))
    }

    @Test func pythonAndPerlNamedGroupsBothWork() throws {
        let perl = try RegexPattern("(?<a>x)")
        let python = try RegexPattern("(?P<a>x)")
        #expect(perl.group(named: "a") == 1)
        #expect(python.group(named: "a") == 1)
    }
}
