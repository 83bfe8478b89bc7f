import ArgumentParser
import SyncmonCore

/// "Did you mean …?" on the command line, by the rule every other suggestion of syncmon follows
/// (``NearestName``): argument-parser names a subcommand typo only as an unexpected argument, and
/// suggests any option within three edits (`--foo` → `--json`), so its usage errors are revised
/// here before they are printed: `Unknown command 'stauts'. Did you mean 'status'?`, and an
/// unknown option's suggestion only when the typo could be one.
enum CommandLineSuggestion {
    /// `message` (argument-parser's, for `arguments` of `root`) with its suggestion made ours;
    /// unchanged when it is about something else.
    static func revised(_ message: String, arguments: [String], root: any ParsableCommand.Type) -> String {
        let (command, stray) = Self.command(named: arguments, from: root)
        let subcommands = command.configuration.subcommands
        if let stray, !subcommands.isEmpty {
            // "Unexpected argument 'stauts'", or "2 unexpected arguments: 'replya', 'x.jsonl'":
            // the line says what was wrong, and the word that should have been a command.
            var lines = message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard let index = lines.firstIndex(where: { $0.contains("nexpected argument") && $0.contains("'\(stray)'") }) else { return message }
            let names = subcommands.compactMap { subcommand in subcommand.configuration.commandName } + ["help"]
            let suggestion = NearestName.nearest(to: stray, in: names).map { ". Did you mean '\($0)'?" } ?? ""
            lines[index] = (lines[index].hasPrefix("Error: ") ? "Error: " : "") + "Unknown command '\(stray)'" + suggestion
            return lines.joined(separator: "\n")
        }
        guard let start = message.firstRange(of: "Unknown option '--") else { return message }
        guard let close = message[start.upperBound...].firstIndex(of: "'") else { return message }
        let typed = String(message[start.upperBound..<close])
        // argument-parser's own suggestion, when it made one, runs to the end of its line.
        let lineEnd = message[close...].firstIndex(of: "\n") ?? message.endIndex
        let options = Self.longOptions(of: command, root: root)
        let suggestion = NearestName.nearest(to: typed, in: options).map { ". Did you mean '--\($0)'?" } ?? ""
        var revised = message
        revised.replaceSubrange(start.lowerBound..<lineEnd, with: "Unknown option '--\(typed)'" + suggestion)
        return revised
    }

    /// The (sub)command the arguments name, and the first word that is no option and no
    /// subcommand where a subcommand was due (`stauts` of `syncmon stauts`), if any.
    static func command(named arguments: [String], from root: any ParsableCommand.Type) -> (any ParsableCommand.Type, String?) {
        var command = root
        for argument in arguments where !argument.hasPrefix("-") {
            guard !command.configuration.subcommands.isEmpty else { break }
            guard let next = command.configuration.subcommands.first(where: { $0.configuration.commandName == argument }) else {
                return (command, argument == "help" ? nil : argument)
            }
            command = next
        }
        return (command, nil)
    }

    /// The long options of `command` without their dashes, as its help lists them
    /// (`--io-progress/--no-io-progress` gives both).
    static func longOptions(of command: any ParsableCommand.Type, root: any ParsableCommand.Type) -> [String] {
        let help = root.helpMessage(for: command, columns: 10_000)
        var names: [String] = []
        for line in help.split(separator: "\n") {
            let label = line.drop { $0 == " " }
            guard label.hasPrefix("-") else { continue }
            // The label ends where two spaces start the help text.
            let end = label.firstRange(of: "  ")?.lowerBound ?? label.endIndex
            for word in label[..<end].split(whereSeparator: { $0 == " " || $0 == "," || $0 == "/" || $0 == "<" }) where word.hasPrefix("--") {
                names.append(String(word.dropFirst(2)))
            }
        }
        return names
    }
}
