import ArgumentParser
import SyncmonCore
import SyncmonHost
import SyncmonRules

/// `syncmon rules`: tools for journal rules (docs/systemd-units.md#journal-rules).
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "Check and try journal rules.",
        subcommands: [RulesTestCommand.self]
    )
}

/// `syncmon rules test PACK|FILE`: which rule each line on standard input matches, and what it emits.
struct RulesTestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run lines from standard input through a rule pack or rules file.",
        discussion: """
            Checks the rules as the daemon does at start, then reads journal messages, one a line, \
            from standard input and prints, for each, the rule that matched (the first that does) and \
            the events it emits, or that no rule matched. For writing and testing packs:

              journalctl -u unison-docs.service -o cat | syncmon rules test unison
              syncmon rules test /etc/syncmon/rules/mytool.rules < recorded.log

            Shipped packs: unison, lsyncd, onedrive, rclone-bisync, nextcloudcmd.
            Exit status: 0 checked and run, 78 the rules have a problem (file, line and problem printed).
            """
    )

    @Argument(help: "A shipped pack's name, or the absolute path of a rules file.")
    var rules: String

    @Option(help: "The priority the lines are taken to have (journalctl -p names or 0-7).")
    var priority: String = "info"

    @Flag(help: "Print only the lines that a rule matched.")
    var onlyMatches = false

    @Option(help: "The engine the events are for.")
    var engine = "rules-test"

    @Option(help: "The database the events are for.")
    var database = "default"

    func run() throws {
        let pack: RulePack
        do {
            pack = try RulesLoader.load(self.rules)
        } catch {
            printError("syncmon rules test: \(error)")
            throw ExitCode(78)
        }
        guard let priority = RulePriority(parsing: self.priority) else {
            throw ValidationError("--priority: expected emerg, alert, crit, err, warning, notice, info, debug or 0-7")
        }
        var tally = Tally()
        var pending: [UInt8] = []
        try ByteStream.read(path: "-") { chunk in
            for byte in chunk {
                if byte == UInt8(ascii: "\n") {
                    self.report(pending, pack: pack, priority: priority, tally: &tally)
                    pending.removeAll(keepingCapacity: true)
                } else {
                    pending.append(byte)
                }
            }
        }
        if !pending.isEmpty { self.report(pending, pack: pack, priority: priority, tally: &tally) }
        printError("\(tally.lines) lines, \(tally.matched) matched, \(tally.events) events, \(tally.limited) over the match limit")
    }

    /// Counts for the closing line.
    struct Tally {
        var lines = 0
        var matched = 0
        var events = 0
        var limited = 0
    }

    private func report(_ bytes: [UInt8], pack: RulePack, priority: RulePriority, tally: inout Tally) {
        tally.lines += 1
        let line = JournalLine(bytes: bytes, priority: priority, time: WallClock.now())
        let evaluation = pack.evaluate(line)
        tally.limited += evaluation.limitExceeded
        let limitNote = evaluation.limitExceeded > 0 ? " (\(evaluation.limitExceeded) rules over the match limit)" : ""
        guard let match = evaluation.match else {
            if !self.onlyMatches { print("\(tally.lines): no rule\(limitNote)") }
            return
        }
        tally.matched += 1
        print("\(tally.lines): rule \(match.rule.name)\(limitNote)")
        for event in match.events(engine: self.engine, database: self.database) {
            tally.events += 1
            if case .rejected(let rejection) = EventDecoder().decode(Array(event.utf8)) {
                print("  \(event)  # rejected by the decoder: \(rejection)")
            } else {
                print("  \(event)")
            }
        }
    }
}
