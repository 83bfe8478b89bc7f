import ArgumentParser
import Logging
import SyncmonAdapters
import SyncmonClient
import SyncmonCore
import SyncmonHost

#if canImport(Glibc)
import Glibc
#endif

/// `syncmon wrap`: monitors one run of a batch job (rclone, restic, rsync…) as an import or
/// export phase of an engine (docs/wrap.md).
struct WrapCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wrap",
        abstract: "Run a command as an import or export phase of an engine, with heartbeats and progress.",
        discussion: """
            Runs COMMAND as one run of a batch job and reports it on one connection to the \
            daemon: runStarted (heartbeats every 10 s while it runs), the phase's start, its \
            progress and errors, its end, then runEnded. A wrap that is killed mid-run shows as \
            engine_down; between runs the job shows its last outcome (succeeded, or error until a \
            run succeeds), never engine_down.

            rclone, restic and rsync are recognised by the program's name (also after sudo, nice, \
            ionice, flock, timeout, env, systemd-run and the like) or named with --tool: wrap adds \
            the options that make their progress machine-readable unless COMMAND has them \
            (rclone --use-json-log --stats 5s --stats-log-level NOTICE; restic backup --json; \
            rsync --info=progress2 --no-h --outbuf=L), reads their output through pipes and \
            passes it on (rclone's log in its text format, restic's summary as text, rsync's \
            progress records hidden), and reads their exit status by their own tables \
            (rclone 3 directoryNotFound, restic 3 incompleteSnapshot, rsync 23 partialTransfer, \
            …). For any other command, standard output and error are COMMAND's own, a failure's \
            code is exit<N> or signal<NAME>, and progress is the bytes its process tree reads \
            and writes (/proc/PID/io, at least 16 KiB/s); --no-io-progress turns that off.

            SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1 and SIGUSR2 are forwarded to COMMAND. wrap \
            exits with COMMAND's status (128 + the signal number when a signal ended it, 127 \
            when it cannot be run). When the daemon cannot be reached it warns and runs COMMAND \
            all the same.

            In a systemd service run by a timer (docs/wrap.md has whole units):
              ExecStart=/usr/local/bin/syncmon wrap --engine photos-offsite --phase export -- \\
                  rclone sync /srv/photos remote:photos
            """
    )

    /// The heartbeat interval promised for a run: the daemon reports a run engine_down after
    /// three of them without an event.
    static let heartbeatInterval = Duration.seconds(10)

    @OptionGroup
    var target: EngineTargetOptions

    @Option(help: "import or export.")
    var phase: WrappedPhase

    @Option(help: "auto (from the program name), rclone, restic, rsync, or none (any other command).")
    var tool: WrapPlan.ToolChoice = .auto

    @Flag(inversion: .prefixedNo, help: "Count the bytes the command's processes read and write (/proc/PID/io) as progress.")
    var ioProgress = true

    @Argument(parsing: .captureForPassthrough, help: "The command and its arguments (after --).")
    var command: [String] = []

    /// The phases a wrapped job can be.
    enum WrappedPhase: String, ExpressibleByArgument, Sendable {
        case `import`, export

        var phase: Phase { self == .import ? .import : .export }
    }

    mutating func validate() throws {
        if self.command.first == "--" { self.command.removeFirst() }
        guard !self.command.isEmpty else { throw ValidationError("give the command to run after --") }
    }

    func run() async throws {
        let plan = WrapPlan(command: self.command, choice: self.tool, environment: Self.currentEnvironment())
        if let notice = plan.notice { printError("syncmon wrap: \(notice)") }
        let database = self.target.database.flatMap { Database($0) } ?? .private
        let client = SyncmonClient(
            engine: self.target.engine,
            database: database,
            configuration: .init(
                socketPath: self.target.socketPath,
                heartbeatInterval: Self.heartbeatInterval,
                shutdownTimeout: .seconds(3),
                version: SyncmonVersion.version,
                lifecycle: .batchRun
            ),
            logger: Logger(label: "syncmon.wrap") { _ in WrapLogHandler(pair: "\(self.target.engine)/\(database)") }
        )
        let reporting = Task { try await client.run() }
        let phase = self.phase.phase
        let activity = client.containerEventStarted(phase, id: "wrap-\(self.target.engine)-\(WallClock.now().microseconds)")

        let reporter = WrapReporter(
            client: client,
            phase: phase,
            // Any other command's last line on standard error is its failure's message.
            parser: plan.tool.map { $0.outputParser(output: plan.output) } ?? LastErrorLineParser(),
            hidesBareCarriageReturns: plan.output.rsyncProgress,
            watchesIO: self.ioProgress
        )
        let ending = await WrappedProcess.run(
            WrappedProcess.Command(
                arguments: plan.arguments,
                environment: plan.environment,
                piped: plan.piped,
                pipesStandardError: true,
                splitsOutputOnCarriageReturn: plan.tool == .rsync
            ),
            callbacks: WrappedProcess.Callbacks(
                line: { reporter.line($0, $1) },
                tick: { reporter.tick(pid: $0, carried: $1) }
            )
        )
        reporter.flush()
        if let failure = ending.spawnFailure { printError("syncmon wrap: \(failure)") }

        let program = CommandWrappers.fileName(plan.tool?.rawValue ?? self.command[CommandWrappers.programIndex(in: self.command) ?? 0])
        // A command that could not be started ends 127, which is not the tool's own 127 (rsync's
        // "remote command not found"): read it as any command's.
        let outcome = ExitStatusTable.outcome(
            of: ending.termination,
            tool: ending.spawnFailure == nil ? plan.tool : nil,
            program: program,
            lastError: ending.spawnFailure ?? reporter.lastError
        )
        client.containerEventEnded(
            activity, succeeded: outcome.succeeded, error: outcome.code.map { EngineError(code: $0, message: ErrorMessage.clean(outcome.message)) })
        client.finish()
        try? await reporting.value
        let undelivered = client.statistics.queued
        if undelivered > 0 {
            printError("syncmon wrap: warning: the daemon at \(self.target.socketPath) was not reached; this run was not reported (\(undelivered) events)")
        }
        switch ending.termination {
        case .exited(let status): throw ExitCode(status)
        case .signalled(let signal): throw ExitCode(128 + signal)
        }
    }

    /// wrap's own environment, for what the command would inherit.
    static func currentEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        for entry in WrappedProcess.environment(adding: [:]) {
            let parts = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2 { environment[String(parts[0])] = String(parts[1]) }
        }
        return environment
    }
}

extension WrapPlan.ToolChoice: ExpressibleByArgument {}
