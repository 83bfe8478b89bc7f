/// The commands that run another command, which `wrap --tool auto` looks through to find the
/// program that does the work: `sudo -u backup nice -n 10 rclone sync …` is rclone.
///
/// Each wrapper's syntax is described just enough to step over it: which of its options take a
/// value, how many arguments it takes before the command (`timeout`'s duration, `flock`'s lock
/// file), and which options mean that no plain command follows (a shell string such as
/// `flock -c '…'`, a process id such as `ionice -p 42`), in which case the program is not found
/// and wrap treats the command as an unknown one.
public enum CommandWrappers {
    /// How to step over one wrapper's own arguments.
    struct Syntax {
        /// Short options that take a value, attached (`-n10`) or as the next argument.
        var shortWithValue: Set<Character> = []
        /// Long options that take a value as `--name=value` or as the next argument.
        var longWithValue: Set<String> = []
        /// Arguments before the command that are not options (a duration, a lock file).
        var positionals = 0
        /// `NAME=value` words may come before the command (`env`, `sudo`).
        var assignments = false
        /// Options after which no plain command follows.
        var noCommand: Set<String> = []
        /// Options without one of which no plain command follows (`runuser USER` runs a shell).
        var commandNeeds: Set<String> = []
    }

    /// The wrappers auto detection sees through, by program name (docs/wrap.md).
    static let syntaxes: [String: Syntax] = [
        "sudo": Syntax(
            shortWithValue: ["u", "g", "C", "D", "h", "p", "r", "t", "T", "U", "R"],
            longWithValue: [
                "--user", "--group", "--close-from", "--chdir", "--host", "--prompt", "--role", "--type",
                "--command-timeout", "--other-user", "--chroot",
            ],
            assignments: true,
            noCommand: ["-e", "--edit", "-l", "--list", "-v", "--validate", "-V", "--version", "-K", "--remove-timestamp"]
        ),
        "doas": Syntax(shortWithValue: ["u", "C"], noCommand: ["-C", "-s"]),
        "nice": Syntax(shortWithValue: ["n"], longWithValue: ["--adjustment"]),
        "ionice": Syntax(
            shortWithValue: ["c", "n"],
            longWithValue: ["--class", "--classdata"],
            noCommand: ["-p", "--pid", "-P", "--pgid", "-u", "--uid"]
        ),
        "chrt": Syntax(
            shortWithValue: ["T", "P", "D"],
            longWithValue: ["--sched-runtime", "--sched-period", "--sched-deadline"],
            positionals: 1,
            noCommand: ["-p", "--pid", "-m", "--max"]
        ),
        "taskset": Syntax(positionals: 1, noCommand: ["-p", "--pid"]),
        "flock": Syntax(
            shortWithValue: ["w", "E"],
            longWithValue: ["--wait", "--timeout", "--conflict-exit-code"],
            positionals: 1,
            noCommand: ["-c", "--command"]
        ),
        "systemd-run": Syntax(
            shortWithValue: ["u", "p", "E", "M", "H"],
            longWithValue: [
                "--unit", "--property", "--description", "--slice", "--setenv", "--uid", "--gid", "--nice",
                "--working-directory", "--machine", "--host", "--service-type", "--on-active", "--on-boot",
                "--on-startup", "--on-unit-active", "--on-unit-inactive", "--on-calendar", "--timer-property",
                "--path-property", "--socket-property",
            ],
            noCommand: ["-S", "--shell"]
        ),
        "systemd-inhibit": Syntax(longWithValue: ["--what", "--who", "--why", "--mode"], noCommand: ["--list"]),
        "env": Syntax(
            shortWithValue: ["u", "C"],
            longWithValue: ["--unset", "--chdir"],
            assignments: true,
            noCommand: ["-S", "--split-string"]
        ),
        "timeout": Syntax(shortWithValue: ["k", "s"], longWithValue: ["--kill-after", "--signal"], positionals: 1),
        "setpriv": Syntax(
            longWithValue: [
                "--reuid", "--regid", "--groups", "--inh-caps", "--ambient-caps", "--bounding-set", "--securebits",
                "--pdeathsig", "--selinux-label", "--apparmor-profile", "--landlock-access", "--landlock-rule",
            ],
            noCommand: ["-d", "--dump"]
        ),
        "runuser": Syntax(
            shortWithValue: ["u", "g", "G", "s", "w"],
            longWithValue: ["--user", "--group", "--supp-group", "--shell", "--whitelist-environment"],
            noCommand: ["-c", "--command"],
            commandNeeds: ["-u", "--user"]
        ),
        "setsid": Syntax(),
        "stdbuf": Syntax(shortWithValue: ["i", "o", "e"], longWithValue: ["--input", "--output", "--error"]),
        "nohup": Syntax(),
        "nocache": Syntax(shortWithValue: ["n"]),
        "time": Syntax(shortWithValue: ["f", "o"], longWithValue: ["--format", "--output"]),
        "trickle": Syntax(shortWithValue: ["d", "u", "w", "t", "l", "n"]),
    ]

    /// The names of the wrappers auto detection sees through.
    public static var names: [String] { self.syntaxes.keys.sorted() }

    /// The index in `arguments` of the program that does the work, stepping over wrappers;
    /// `nil` when a wrapper runs no plain command (a shell string, a process id) or nothing
    /// follows it.
    public static func programIndex(in arguments: [String]) -> Int? {
        var index = 0
        // Each round steps over one wrapper; nesting is bounded by the arguments themselves.
        while index < arguments.count {
            let name = Self.fileName(arguments[index])
            guard let syntax = Self.syntaxes[name] else { return index }
            guard let next = Self.command(after: index, in: arguments, syntax: syntax) else { return nil }
            index = next
        }
        return nil
    }

    /// The index of the command a wrapper at `index` runs.
    static func command(after index: Int, in arguments: [String], syntax: Syntax) -> Int? {
        var position = index + 1
        var positionals = syntax.positionals
        var optionsEnded = false
        var needed = syntax.commandNeeds.isEmpty
        while position < arguments.count {
            let argument = arguments[position]
            if !optionsEnded, argument == "--" {
                optionsEnded = true
                position += 1
                continue
            }
            if !optionsEnded, argument.hasPrefix("--") {
                let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
                if syntax.noCommand.contains(name) { return nil }
                if syntax.commandNeeds.contains(name) { needed = true }
                position += syntax.longWithValue.contains(name) && !argument.contains("=") ? 2 : 1
                continue
            }
            if !optionsEnded, argument.hasPrefix("-"), argument.count > 1 {
                position += 1
                for (offset, letter) in argument.dropFirst().enumerated() {
                    if syntax.noCommand.contains("-\(letter)") { return nil }
                    if syntax.commandNeeds.contains("-\(letter)") { needed = true }
                    guard syntax.shortWithValue.contains(letter) else { continue }
                    // The value is the rest of this argument, or the next one when nothing is left.
                    if offset == argument.count - 2 { position += 1 }
                    break
                }
                continue
            }
            if syntax.assignments, Self.isAssignment(argument) {
                position += 1
                continue
            }
            if positionals > 0 {
                positionals -= 1
                position += 1
                continue
            }
            return needed ? position : nil
        }
        return nil
    }

    /// `NAME=value`, with a name a shell variable could have.
    static func isAssignment(_ argument: String) -> Bool {
        guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else { return false }
        let name = argument[..<equals]
        return name.allSatisfy { $0 == "_" || $0.isASCII && ($0.isLetter || $0.isNumber) } && !(name.first?.isNumber ?? true)
    }

    /// The last path component: a program's name.
    public static func fileName(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
    }
}
