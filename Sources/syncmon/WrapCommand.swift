import ArgumentParser
import SyncmonCore
import Synchronization
import SyncmonDaemon

#if canImport(Glibc)
import Glibc
#endif

/// `syncmon wrap`: monitors a batch job (rclone, rsync, restic…) as an import or export phase.
struct WrapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wrap",
        abstract: "Run a command as an import or export phase of an engine.",
        discussion: """
            Sends the start of the phase, runs COMMAND with standard input, output and error passed \
            through and SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1 and SIGUSR2 forwarded, then sends \
            the end: succeeded when COMMAND exits 0, otherwise failed with the exit status (or the \
            signal's name) as the error code. It exits with COMMAND's status (128 + the signal \
            number when a signal ended it). When the daemon cannot be reached it warns and runs \
            COMMAND all the same.

            The events are containerEvent start/end notifications, so `syncmon status` shows the \
            phase in progress while COMMAND runs. Example, in a systemd service run by a timer:

              ExecStart=/usr/local/bin/syncmon wrap --engine photos-offsite --phase export -- \\
                  rclone sync /srv/photos remote:photos
            """
    )

    @OptionGroup
    var target: EngineTargetOptions

    @Option(help: "import or export.")
    var phase: WrappedPhase

    @Argument(parsing: .captureForPassthrough, help: "The command and its arguments (after --).")
    var command: [String] = []

    /// The phases a wrapped job can be.
    enum WrappedPhase: String, ExpressibleByArgument, Sendable {
        case `import`, export
    }

    mutating func validate() throws {
        if self.command.first == "--" { self.command.removeFirst() }
        guard !self.command.isEmpty else { throw ValidationError("give the command to run after --") }
    }

    func run() throws {
        let socket = self.target.socketPath
        let identifier = "wrap-\(getpid())-\(WallClock.now().microseconds)"
        let started = WallClock.now()
        self.send(["kind": JSONText.quoted(self.phase.rawValue), "id": JSONText.quoted(identifier), "started": JSONText.quoted(RFC3339.format(started))], to: socket)

        let outcome = try ChildProcess.run(self.command)
        var fields = [
            "kind": JSONText.quoted(self.phase.rawValue), "id": JSONText.quoted(identifier),
            "started": JSONText.quoted(RFC3339.format(started)), "ended": JSONText.quoted(RFC3339.format(WallClock.now())),
            "succeeded": outcome.succeeded ? "true" : "false",
        ]
        if !outcome.succeeded {
            fields["error"] = "{\"code\":\(JSONText.quoted(outcome.code)),\"message\":\(JSONText.quoted(outcome.message(command: self.command[0])))}"
        }
        self.send(fields, to: socket)
        throw ExitCode(outcome.exitStatus)
    }

    /// Sends one containerEvent; a daemon that cannot be reached is a warning, never a reason
    /// not to run the job.
    private func send(_ payload: [String: String], to socket: String) {
        var object = JSONObject()
        object.set(["v"], "1")
        object.set(["engine"], JSONText.quoted(self.target.engine))
        if let database = self.target.database { object.set(["database"], JSONText.quoted(database)) }
        object.set(["type"], JSONText.quoted("containerEvent"))
        object.set(["time"], JSONText.quoted(RFC3339.format(WallClock.now())))
        for key in payload.keys.sorted() { object.set([key], payload[key]!) }
        do {
            try UnixSocketWriter.send(Array((object.rendered + "\n").utf8), to: socket)
        } catch {
            printError("syncmon wrap: warning: \(error); running the command anyway")
        }
    }
}

/// Runs a child process with the terminal and signals passed through.
enum ChildProcess {
    /// How the child ended.
    struct Outcome {
        var status: Int32
        var signal: Int32?

        var succeeded: Bool { self.signal == nil && self.status == 0 }
        /// The error code sent for a failure: the exit status, or the signal's name.
        var code: String { self.signal.map(Self.signalName) ?? String(self.status) }
        /// What the wrapper exits with, as a shell would report it.
        var exitStatus: Int32 { self.signal.map { 128 + $0 } ?? self.status }

        func message(command: String) -> String {
            if let signal = self.signal { return "\(command) was killed by \(Self.signalName(signal))" }
            return "\(command) exited with status \(self.status)"
        }

        static func signalName(_ signal: Int32) -> String {
            let names: [Int32: String] = [
                SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM",
                SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGUSR1: "SIGUSR1", SIGUSR2: "SIGUSR2", SIGPIPE: "SIGPIPE",
            ]
            return names[signal] ?? "SIG\(signal)"
        }
    }

    /// The signals a wrapper forwards to its child.
    static let forwarded: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2]

    static func run(_ command: [String]) throws -> Outcome {
        // Catch the forwarded signals before the child exists, so none is lost in between. A
        // handler (not blocking, which is per thread) is what works with the runtime's threads;
        // exec gives the child default dispositions again.
        for signal in Self.forwarded {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                _ = pendingSignals.bitwiseOr(UInt64(1) << UInt64(signal), ordering: .relaxed)
            }
            action.sa_flags = SA_RESTART
            sigaction(signal, &action, nil)
        }
        // This code runs on a concurrency pool thread, which blocks every signal; the child must
        // not inherit that mask.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let result = posix_spawnp(&pid, command[0], nil, &attributes, argv, environ)
        guard result == 0 else {
            printError("syncmon wrap: cannot run \(command[0]): \(String(cString: strerror(result)))")
            return Outcome(status: 127, signal: nil)
        }
        var status: Int32 = 0
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { break }
            if reaped < 0, errno != EINTR { throw ExitCode(1) }
            let pending = pendingSignals.exchange(0, ordering: .relaxed)
            for signal in Self.forwarded where pending & (UInt64(1) << UInt64(signal)) != 0 { kill(pid, signal) }
            usleep(20_000)
        }
        let terminatedBySignal = status & 0x7F
        if terminatedBySignal != 0 { return Outcome(status: 0, signal: terminatedBySignal) }
        return Outcome(status: (status >> 8) & 0xFF, signal: nil)
    }
}

/// Signals caught while a wrapped command runs, one bit per signal number, waiting to be
/// forwarded (written by the signal handler, read by the wait loop).
private let pendingSignals = Atomic<UInt64>(0)
