/// A command made ready for `syncmon wrap`: the tool's machine-readable progress turned on
/// where the command does not already ask for it (docs/wrap.md).
///
/// Options are inserted right after the tool's program name, before anything of the user's, so
/// that a user's own choice (later on the command line) still wins where the tool lets later
/// options override earlier ones. What wrap turned on is remembered in ``output``: output wrap
/// asked for is wrap's to hide or re-render; output the user asked for is passed through as is.
public struct ToolInvocation: Equatable, Sendable {
    /// The command to run.
    public var arguments: [String]
    /// Variables to set in the command's environment.
    public var environment: [String: String]
    /// Which formats wrap turned on.
    public var output: OutputOwnership

    /// `arguments` with `tool`'s progress options added after its program at `index`;
    /// `environment` is the one the command would get, to see what it already sets.
    public init(arguments: [String], tool: WrappedTool, programIndex index: Int, environment: [String: String]) {
        let userArguments = Array(arguments[(index + 1)...])
        var added: [String] = []
        self.environment = [:]
        self.output = OutputOwnership()
        switch tool {
        case .rclone:
            let options = RcloneOptions(userArguments)
            // A log going to a file or syslog is the user's record in the user's format, and
            // wrap could not read it anyway: leave it alone (progress is then /proc I/O's).
            if options.logElsewhere { break }
            if !options.jsonLog {
                added += ["--use-json-log"]
                self.output.rcloneJSONLog = true
            }
            if !options.statsInterval { added += ["--stats", "5s"] }
            if !options.statsLogLevel {
                // Stats are logged at INFO by default, which rclone's default level (NOTICE)
                // hides; with --quiet (ERROR) they need ERROR to show.
                added += ["--stats-log-level", options.quiet ? "ERROR" : "NOTICE"]
                // The user did not ask to see stats (unless -v shows them at INFO): wrap's to hide.
                self.output.rcloneStats = !options.verbose
            }
        case .restic:
            // Only `backup` reports progress as JSON in restic 0.14; `--json` would turn other
            // commands' human output (forget, check, snapshots) into documents.
            guard ResticOptions.subcommand(userArguments) == "backup" else { break }
            if !userArguments.contains("--json") {
                added += ["--json"]
                self.output.resticJSON = true
            }
            // With --json restic prints a status line at up to 60 per second; once a second is
            // plenty and keeps the parse cheap.
            if environment["RESTIC_PROGRESS_FPS"] == nil { self.environment["RESTIC_PROGRESS_FPS"] = "1" }
        case .rsync:
            if !RsyncOptions.asksForProgress(userArguments) {
                added += ["--info=progress2", "--no-h"]
                self.output.rsyncProgress = true
            }
            if !userArguments.contains(where: { $0 == "--outbuf" || $0.hasPrefix("--outbuf=") }) { added += ["--outbuf=L"] }
            // Digits without a locale's separators, and error texts in English.
            self.environment["LC_ALL"] = "C"
        }
        self.arguments = Array(arguments[...index]) + added + userArguments
    }
}

/// Which of a tool's output formats wrap turned on, and so may hide or re-render.
public struct OutputOwnership: Equatable, Sendable {
    /// wrap added `--use-json-log`: rclone's log lines are re-rendered as rclone's text format.
    public var rcloneJSONLog = false
    /// wrap raised the stats log level: the stats lines are read, not shown.
    public var rcloneStats = false
    /// wrap added `--json` to `restic backup`: status lines are read, not shown; the summary and
    /// errors are rendered as text.
    public var resticJSON = false
    /// wrap added `--info=progress2`: rsync's progress records are read, not shown.
    public var rsyncProgress = false

    public init(rcloneJSONLog: Bool = false, rcloneStats: Bool = false, resticJSON: Bool = false, rsyncProgress: Bool = false) {
        self.rcloneJSONLog = rcloneJSONLog
        self.rcloneStats = rcloneStats
        self.resticJSON = resticJSON
        self.rsyncProgress = rsyncProgress
    }
}

/// What an rclone command line already says about logging and stats.
struct RcloneOptions {
    var jsonLog = false
    var statsInterval = false
    var statsLogLevel = false
    var verbose = false
    var quiet = false
    /// `--log-file` or `--syslog`: the log does not come to standard error.
    var logElsewhere = false

    init(_ arguments: [String]) {
        var previous: String?
        for argument in arguments {
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            switch name {
            case "--use-json-log": self.jsonLog = !argument.hasSuffix("=false")
            case "--stats": self.statsInterval = true
            case "--stats-log-level": self.statsLogLevel = true
            case "--verbose", "-v", "-vv": self.verbose = true
            case "--quiet", "-q": self.quiet = true
            case "--log-file", "--syslog": self.logElsewhere = !argument.hasSuffix("=false")
            default: break
            }
            if previous == "--log-level" || name == "--log-level" {
                let level = name == "--log-level" ? argument.split(separator: "=").dropFirst().first.map(String.init) : argument
                if level == "INFO" || level == "DEBUG" { self.verbose = true }
                if level == "ERROR" { self.quiet = true }
            }
            previous = argument
        }
    }
}

/// restic's global options, to find the subcommand after them.
enum ResticOptions {
    /// Global options that take the next argument as their value (restic 0.14).
    static let withValue: Set<String> = [
        "-r", "--repo", "--repository-file", "-p", "--password-file", "--password-command", "--key-hint", "--cacert",
        "--cache-dir", "--tls-client-cert", "-o", "--option", "--limit-upload", "--limit-download", "--compression",
        "--pack-size",
    ]

    /// The first argument that is not a global option or its value.
    static func subcommand(_ arguments: [String]) -> String? {
        var skipNext = false
        for argument in arguments {
            if skipNext {
                skipNext = false
                continue
            }
            if argument.hasPrefix("-") {
                skipNext = self.withValue.contains(argument)
                continue
            }
            return argument
        }
        return nil
    }
}

/// What an rsync command line already says about progress.
enum RsyncOptions {
    /// `--progress`, `-P` (alone or in a group such as `-avP`), or an `--info` naming progress.
    static func asksForProgress(_ arguments: [String]) -> Bool {
        arguments.contains { argument in
            if argument == "--progress" { return true }
            if argument.hasPrefix("--info=") { return argument.contains("progress") }
            if argument.hasPrefix("-"), !argument.hasPrefix("--"), argument.dropFirst().allSatisfy({ $0.isASCII && $0.isLetter }) {
                return argument.contains("P")
            }
            return false
        }
    }
}
