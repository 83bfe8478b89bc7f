import Synchronization
import SyncmonAdapters
import SyncmonCore
import SyncmonHost

#if canImport(Glibc)
import Glibc
#endif

/// Runs a wrapped command: spawns it with the forwarded signals restored, reads its output
/// through pipes when a parser wants it, passes the output on to wrap's own, and calls back
/// with each line and once a second until the command has ended and its output is read.
///
/// All of it runs on one dedicated thread (``run(_:)`` waits for it without blocking a
/// concurrency thread): reading pipes and waiting for a child are blocking work, and the
/// client that reports the run needs the concurrency threads for its heartbeats.
final class WrappedProcess: @unchecked Sendable {
    /// What to run.
    struct Command: Sendable {
        var arguments: [String]
        /// Variables set in the command's environment (over wrap's own).
        var environment: [String: String]
        /// Read standard output and error through pipes (a parser wants them); otherwise the
        /// command writes to wrap's own descriptors directly.
        var piped: Bool
        /// Read standard error only, for its last line (the message of a failed run of a
        /// command wrap knows nothing else about); standard output stays wrap's own.
        var pipesStandardError = false
        /// rsync's progress records end with `\r`.
        var splitsOutputOnCarriageReturn: Bool
    }

    /// Calls back into the run from the process thread.
    struct Callbacks {
        /// A line of output; returns how to show it.
        var line: (ToolOutputStream, LineSplitter.Line) -> LineDisplay
        /// About once a second while the command runs, with the child's pid and the bytes read
        /// from its pipes so far.
        var tick: (pid_t, Int64) -> Void
    }

    /// How the run ended.
    struct Ending: Sendable {
        var termination: ExitStatusTable.Termination
        /// The command could not be started: the reason.
        var spawnFailure: String?
    }

    /// The signals wrap forwards to the command.
    static let forwarded: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2]
    /// How long to keep reading after the command exited, for output still in the pipes (a
    /// descendant that outlives it may hold them open; it is not waited for longer).
    static let drainTime: Double = 2

    /// Runs `command` on a thread of its own and returns how it ended.
    static func run(_ command: Command, callbacks: Callbacks) async -> Ending {
        let process = WrappedProcess()
        let box = CallbackBox(callbacks)
        return await withCheckedContinuation { continuation in
            DedicatedThread.start {
                continuation.resume(returning: process.run(command, callbacks: box.callbacks))
            }
        }
    }

    /// Spawns, reads, forwards signals and reaps: the body of the process thread.
    private func run(_ command: Command, callbacks: Callbacks) -> Ending {
        Self.installForwarding()
        // A reader of wrap's own output that went away must not kill wrap (and the report).
        signal(SIGPIPE, SIG_IGN)
        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        let pipesError = command.piped || command.pipesStandardError
        if command.piped && !Self.makePipe(&outputPipe) || pipesError && !Self.makePipe(&errorPipe) {
            for descriptor in outputPipe where descriptor >= 0 { close(descriptor) }
            return Ending(termination: .exited(127), spawnFailure: "cannot create pipes: \(String(cString: strerror(errno)))")
        }
        let spawned = Self.spawn(command, output: outputPipe[1], error: errorPipe[1])
        for descriptor in [outputPipe[1], errorPipe[1]] where descriptor >= 0 { close(descriptor) }
        guard case .success(let pid) = spawned else {
            for descriptor in [outputPipe[0], errorPipe[0]] where descriptor >= 0 { close(descriptor) }
            if case .failure(let reason) = spawned { return Ending(termination: .exited(127), spawnFailure: reason.description) }
            return Ending(termination: .exited(127), spawnFailure: nil)
        }

        var streams: [Stream] = []
        if command.piped {
            streams.append(
                Stream(
                    descriptor: outputPipe[0], kind: .standardOutput, target: STDOUT_FILENO,
                    splitter: LineSplitter(splitsOnCarriageReturn: command.splitsOutputOnCarriageReturn)))
        }
        if pipesError {
            streams.append(Stream(descriptor: errorPipe[0], kind: .standardError, target: STDERR_FILENO, splitter: LineSplitter(splitsOnCarriageReturn: false)))
        }
        var carried: Int64 = 0
        var termination: ExitStatusTable.Termination?
        var exitedAt = 0.0
        var nextTick = Self.seconds() + 1
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
        defer { buffer.deallocate() }

        while true {
            let open = streams.filter { !$0.closed }
            if termination != nil, open.isEmpty || Self.seconds() - exitedAt > Self.drainTime { break }
            let wait = max(0, min(0.25, nextTick - Self.seconds()))
            if open.isEmpty {
                usleep(UInt32(wait * 1_000_000))
            } else {
                var descriptors = open.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
                _ = poll(&descriptors, nfds_t(descriptors.count), Int32(wait * 1000))
                for (index, descriptor) in descriptors.enumerated() where descriptor.revents != 0 {
                    guard let stream = streams.firstIndex(where: { $0.descriptor == open[index].descriptor }) else { continue }
                    let count = Glibc.read(descriptor.fd, buffer.baseAddress, buffer.count)
                    if count < 0, errno == EINTR || errno == EAGAIN { continue }
                    if count <= 0 {
                        streams[stream].close(callbacks: callbacks)
                        continue
                    }
                    carried += Int64(count)
                    streams[stream].feed(UnsafeRawBufferPointer(rebasing: buffer[..<count]), callbacks: callbacks)
                }
            }
            let pending = pendingSignals.exchange(0, ordering: .relaxed)
            for signal in Self.forwarded where pending & (UInt64(1) << UInt64(signal)) != 0 { kill(pid, signal) }
            if Self.seconds() >= nextTick {
                if termination == nil { callbacks.tick(pid, carried) }
                nextTick = Self.seconds() + 1
            }
            if termination == nil, let ended = Self.reap(pid) {
                termination = ended
                exitedAt = Self.seconds()
            }
        }
        for index in streams.indices where !streams[index].closed { streams[index].close(callbacks: callbacks) }
        return Ending(termination: termination ?? .exited(127), spawnFailure: nil)
    }

    /// One output pipe of the command.
    private struct Stream {
        let descriptor: Int32
        let kind: ToolOutputStream
        /// Where its lines are passed on.
        let target: Int32
        var splitter: LineSplitter
        var closed = false

        mutating func feed(_ bytes: UnsafeRawBufferPointer, callbacks: Callbacks) {
            for line in self.splitter.feed(bytes) { self.show(line, callbacks: callbacks) }
        }

        mutating func close(callbacks: Callbacks) {
            if let last = self.splitter.finish() { self.show(last, callbacks: callbacks) }
            Glibc.close(self.descriptor)
            self.closed = true
        }

        private func show(_ line: LineSplitter.Line, callbacks: Callbacks) {
            switch callbacks.line(self.kind, line) {
            case .unchanged: Self.write(line.raw, to: self.target)
            case .replaced(let text): Self.write(Array((text + "\n").utf8), to: self.target)
            case .hidden: break
            }
        }

        /// Writes all of `bytes`; a reader that went away (EPIPE) drops them.
        static func write(_ bytes: [UInt8], to descriptor: Int32) {
            var offset = 0
            while offset < bytes.count {
                let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
                if count < 0, errno == EINTR || errno == EAGAIN { continue }
                guard count > 0 else { return }
                offset += count
            }
        }
    }

    /// A spawn failure's reason.
    struct SpawnFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts the command with its output on the given pipe ends (or wrap's own when -1),
    /// the forwarded signals and SIGPIPE back at their defaults, and no signal blocked.
    private static func spawn(_ command: Command, output: Int32, error: Int32) -> Result<pid_t, SpawnFailure> {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // This thread may block signals the child must not inherit blocked.
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in Self.forwarded + [SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if output >= 0 { posix_spawn_file_actions_adddup2(&actions, output, STDOUT_FILENO) }
        if error >= 0 { posix_spawn_file_actions_adddup2(&actions, error, STDERR_FILENO) }

        let argv = command.arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let environment = Self.environment(adding: command.environment).map { strdup($0) } + [nil]
        defer { environment.forEach { free($0) } }
        var pid = pid_t()
        let result = posix_spawnp(&pid, command.arguments[0], &actions, &attributes, argv, environment)
        guard result == 0 else { return .failure(SpawnFailure(description: "cannot run \(command.arguments[0]): \(String(cString: strerror(result)))")) }
        return .success(pid)
    }

    /// Seconds on the monotonic clock, for the ticks and the drain time (a step of the
    /// real-time clock must not stretch or cut them).
    private static func seconds() -> Double {
        Double(MonotonicClock.now().microseconds) / 1_000_000
    }

    /// A pipe whose ends are closed on exec (Glibc's module has no pipe2): only the ends
    /// duplicated onto the child's 1 and 2 reach it. Nothing else in wrap spawns meanwhile.
    private static func makePipe(_ ends: inout [Int32]) -> Bool {
        guard pipe(&ends) == 0 else { return false }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// wrap's environment with `additions` set (replacing any earlier value).
    static func environment(adding additions: [String: String]) -> [String] {
        var entries: [String] = []
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            let name = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? text
            if additions[name] == nil { entries.append(text) }
            pointer += 1
        }
        for (name, value) in additions.sorted(by: { $0.key < $1.key }) { entries.append("\(name)=\(value)") }
        return entries
    }

    /// How the child ended, once it has.
    private static func reap(_ pid: pid_t) -> ExitStatusTable.Termination? {
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, WNOHANG)
        // An error (ECHILD) means it is gone without a status to read; call it a failure.
        if reaped < 0, errno != EINTR { return .exited(127) }
        guard reaped == pid else { return nil }
        let signal = status & 0x7F
        return signal != 0 ? .signalled(signal) : .exited((status >> 8) & 0xFF)
    }

    /// Catches the forwarded signals before the child exists, so none is lost in between. A
    /// handler (not blocking, which is per thread) is what works with the runtime's threads.
    private static func installForwarding() {
        for signal in Self.forwarded {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                _ = pendingSignals.bitwiseOr(UInt64(1) << UInt64(signal), ordering: .relaxed)
            }
            action.sa_flags = SA_RESTART
            sigaction(signal, &action, nil)
        }
    }
}

/// The callbacks, handed to the process thread (they are only ever called there).
private final class CallbackBox: @unchecked Sendable {
    let callbacks: WrappedProcess.Callbacks
    init(_ callbacks: WrappedProcess.Callbacks) { self.callbacks = callbacks }
}

/// Signals caught while a wrapped command runs, one bit per signal number, waiting to be
/// forwarded (written by the signal handler, read by the process thread).
private let pendingSignals = Atomic<UInt64>(0)
