import ArgumentParser
import Foundation
import SyncmonDaemon
import SyncmonTestSupport
import Testing

@testable import syncmon

/// "Did you mean" on the command line (``CommandLineSuggestion``): a mistyped command is named
/// with the one it is near, an unknown option suggests only a near one.
@Suite("Command line suggestions")
struct CommandLineSuggestionTests {
    /// The usage error the arguments give, as `syncmon` prints it.
    static func usageError(_ arguments: [String]) async -> String {
        do {
            _ = try await Syncmon.asyncParseAsRoot(arguments)
            return ""
        } catch {
            return CommandLineSuggestion.revised(Syncmon.fullMessage(for: error), arguments: arguments, root: Syncmon.self)
        }
    }

    @Test(
        "a typo is named with the name it is near; an unrelated word with none",
        arguments: [
            (["stauts"], "Unknown command 'stauts'. Did you mean 'status'?"),
            (["replya", "x.jsonl"], "Unknown command 'replya'. Did you mean 'replay'?"),
            (["frobnicate"], "Unknown command 'frobnicate'"),
            (["rules", "tset"], "Unknown command 'tset'. Did you mean 'test'?"),
            (["status", "--foo"], "Unknown option '--foo'"),
            (["status", "--jsn"], "Unknown option '--jsn'. Did you mean '--json'?"),
            (["status", "--ca-fil", "ca.pem"], "Unknown option '--ca-fil'. Did you mean '--ca-file'?"),
            (["emit", "--engine", "a", "--databse", "b", "heartbeat"], "Unknown option '--databse'. Did you mean '--database'?"),
            (["daemon", "--lisen", "127.0.0.1:1"], "Unknown option '--lisen'. Did you mean '--listen'?"),
        ])
    func suggestion(arguments: [String], expected: String) async {
        let message = await Self.usageError(arguments)
        #expect(message.contains("Error: " + expected), "\(message)")
        if !expected.contains("Did you mean") { #expect(!message.contains("Did you mean"), "\(message)") }
    }

    @Test("the binary says it, with the usage error's exit status")
    func binary() async throws {
        let result = try await SyncmonProcess.run(["stauts"])
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("Error: Unknown command 'stauts'. Did you mean 'status'?\n"), "\(result.standardError)")
        let flag = try await SyncmonProcess.run(["status", "--foo"])
        #expect(flag.status == 64)
        #expect(flag.standardError.hasPrefix("Error: Unknown option '--foo'\n"), "\(flag.standardError)")
    }
}

/// Each command's `--help` and the man page (deploy/man/syncmon.8) agree, and read well.
@Suite("Help and man page")
struct CommandLineHelpTests {
    static let commands: [any ParsableCommand.Type] = [
        StatusCommand.self, EmitCommand.self, WrapCommand.self, ForgetCommand.self, ReplayCommand.self, SimulateCommand.self,
        RulesTestCommand.self,
    ]

    static func manPage() throws -> String {
        try String(contentsOfFile: PackageRoot.path("deploy/man/syncmon.8"), encoding: .utf8)
    }

    @Test("every option of every command is in the man page", arguments: 0..<commands.count)
    func optionsInManPage(index: Int) throws {
        let command = Self.commands[index]
        let man = try Self.manPage()
        for option in CommandLineSuggestion.longOptions(of: command, root: Syncmon.self) where !["help", "version"].contains(option) {
            let roff = "\\fB\\-\\-" + option.replacing("-", with: "\\-")
            #expect(man.contains(roff), "\(command.configuration.commandName ?? "") --\(option) is not in the man page")
        }
    }

    @Test("no roff request is left in the middle of a man page line")
    func requestsStartLines() throws {
        for line in try Self.manPage().split(separator: "\n") {
            for request in [".PP", ".TP", ".SH", ".SS", ".EX", ".EE"] where line.contains(request) {
                #expect(line.hasPrefix(request) || line.hasPrefix(".\\\""), "\(line)")
            }
        }
    }

    @Test("an option's help continues in the help column, never at the left", arguments: 0..<commands.count)
    func helpColumn(index: Int) {
        let help = Syncmon.helpMessage(for: Self.commands[index], columns: 80)
        let lines = help.split(separator: "\n").drop { $0 != "OPTIONS:" && $0 != "ARGUMENTS:" }
        for line in lines where line.first == " " {
            let indent = line.prefix { $0 == " " }.count
            #expect(line.dropFirst(indent).hasPrefix("-") || line.dropFirst(indent).hasPrefix("<") || indent >= 20, "\(line)")
        }
    }

    @Test("daemon --help names every kind of configuration section")
    func daemonSections() {
        let help = Syncmon.helpMessage(for: DaemonCommand.self, columns: 10_000)
        for section in ConfigSection.all where section != .global {
            #expect(help.contains(section.description), "\(section)")
        }
        #expect(help.contains("[canary ENGINE/DATABASE]"))
    }
}
