#if canImport(Glibc)
import Glibc
#endif

/// Runs one command to deliver a notification (docs/notifications.md): no shell, `input` on its
/// stdin, `environment` added to the daemon's, stdout discarded, stderr kept to its last
/// `stderrLimit` bytes (a command printing megabytes costs no memory), and a deadline: past it
/// the command's process group gets SIGTERM, then SIGKILL after `killGrace`.
///
/// Blocking: called on a thread of its own (``NotificationSender`` runs it on a thread pool), never
/// on an event loop or the cooperative pool.
public enum CommandRunner {
    public static let stderrLimit = 4096
    public static let killGrace = 5.0

    /// Runs `argv` to completion or the deadline, `timeout` seconds from now.
    public static func run(_ argv: [String], input: [UInt8], environment: [String: String], timeout: Double) -> DeliveryOutcome {
        // A command that exits without reading its input must not kill the daemon by SIGPIPE:
        // the write fails with EPIPE instead. (Commands start with every signal at its default.)
        signal(SIGPIPE, SIG_IGN)
        var stdinPipe: [Int32] = [-1, -1]
        var stderrPipe: [Int32] = [-1, -1]
        guard Self.pipe(&stdinPipe) else { return .failed("cannot make a pipe: \(Self.errnoText())") }
        guard Self.pipe(&stderrPipe) else {
            close(stdinPipe[0])
            close(stdinPipe[1])
            return .failed("cannot make a pipe: \(Self.errnoText())")
        }
        let spawned = Self.spawn(argv, stdin: stdinPipe[0], stderr: stderrPipe[1], environment: environment)
        close(stdinPipe[0])
        close(stderrPipe[1])
        guard case .success(let pid) = spawned else {
            close(stdinPipe[1])
            close(stderrPipe[0])
            if case .failure(let error) = spawned { return .failed(error.message) }
            return .failed("cannot start \(argv[0])")
        }
        _ = fcntl(stdinPipe[1], F_SETFL, fcntl(stdinPipe[1], F_GETFL) | O_NONBLOCK)
        let deadline = Self.now() + timeout
        var io = PipeIO(stdin: stdinPipe[1], stderr: stderrPipe[0], input: input)
        var status: Int32 = 0
        var exited = false
        var timedOut = false
        while !exited {
            let left = deadline - Self.now()
            if left <= 0 {
                timedOut = true
                break
            }
            io.pump(waitingAtMost: min(left, 0.2))
            if waitpid(pid, &status, WNOHANG) == pid { exited = true }
        }
        if timedOut {
            kill(-pid, SIGTERM)
            let graceEnd = Self.now() + Self.killGrace
            while waitpid(pid, &status, WNOHANG) != pid {
                if Self.now() >= graceEnd {
                    kill(-pid, SIGKILL)
                    _ = waitpid(pid, &status, 0)
                    break
                }
                io.pump(waitingAtMost: 0.05)
            }
        } else {
            // What it wrote just before it exited (up to a pipe's worth), for at most half a
            // second: a child it left behind may hold the pipe open.
            let drainEnd = Self.now() + 0.5
            while io.isStderrOpen, Self.now() < drainEnd { io.pump(waitingAtMost: 0.05) }
        }
        io.close()
        let last = io.lastStderrLine.map { ": \($0)" } ?? ""
        if timedOut { return .failed("\(argv[0]) ran past its timeout of \(Self.seconds(timeout)) and was stopped\(last)") }
        if Self.exited(status), Self.exitStatus(status) == 0 { return .delivered }
        if Self.exited(status) { return .failed("\(argv[0]) exited with status \(Self.exitStatus(status))\(last)") }
        return .failed("\(argv[0]) was killed by signal \(status & 0x7F)\(last)")
    }

    /// Starts `argv` in a process group of its own (so a timeout stops its children too), with
    /// signals at their defaults.
    private static func spawn(_ argv: [String], stdin: Int32, stderr: Int32, environment: [String: String]) -> Result<pid_t, SpawnError> {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, STDIN_FILENO)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stderr, STDERR_FILENO)
        var merged = Self.processEnvironment()
        for (name, value) in environment { merged[name] = value }
        let environmentLines = merged.map { "\($0.key)=\($0.value)" }
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environmentLines.map { strdup($0) } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, argv[0], &actions, &attributes, cArguments, cEnvironment)
        guard result == 0 else { return .failure(SpawnError("cannot run \(argv[0]): \(String(cString: strerror(result)))")) }
        return .success(pid)
    }

    /// Why a command could not start.
    private struct SpawnError: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// The daemon's environment, as names and values.
    private static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "="), !text.hasPrefix("SYNCMON_") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }

    /// A pipe whose ends close on exec (Glibc's module has no `pipe2`): only the dup'd copies
    /// reach the command.
    private static func pipe(_ ends: inout [Int32]) -> Bool {
        guard Glibc.pipe(&ends) == 0 else { return false }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return true
    }

    private static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value))s" : "\(value)s"
    }

    private static func exited(_ status: Int32) -> Bool { status & 0x7F == 0 }
    private static func exitStatus(_ status: Int32) -> Int32 { (status >> 8) & 0xFF }
    private static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// A running command's two pipes: `input` written to its stdin as it reads (then closed), its
/// stderr read into a ring of the last bytes.
private struct PipeIO {
    var stdin: Int32
    var stderr: Int32
    let input: [UInt8]
    var written = 0
    var tail: [UInt8] = []

    init(stdin: Int32, stderr: Int32, input: [UInt8]) {
        self.stdin = stdin
        self.stderr = stderr
        self.input = input
        if input.isEmpty { self.closeStdin() }
    }

    /// Waits up to `seconds` for either pipe, then writes and reads what it can.
    mutating func pump(waitingAtMost seconds: Double) {
        var fds: [pollfd] = []
        if self.stdin >= 0 { fds.append(pollfd(fd: self.stdin, events: Int16(POLLOUT), revents: 0)) }
        if self.stderr >= 0 { fds.append(pollfd(fd: self.stderr, events: Int16(POLLIN), revents: 0)) }
        guard !fds.isEmpty else {
            usleep(UInt32(max(0, seconds) * 1_000_000))
            return
        }
        guard poll(&fds, nfds_t(fds.count), Int32(max(0, seconds) * 1000)) > 0 else { return }
        for fd in fds where fd.revents != 0 {
            if fd.fd == self.stdin { self.write() } else if fd.fd == self.stderr { self.read() }
        }
    }

    private mutating func write() {
        let descriptor = self.stdin
        let count = self.input[self.written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        if count > 0 { self.written += count }
        // A command that exits without reading its input (EPIPE) is no error of delivery.
        if count < 0, errno != EAGAIN, errno != EINTR { self.closeStdin() }
        if self.written == self.input.count { self.closeStdin() }
    }

    private mutating func read() {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        let descriptor = self.stderr
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        if count <= 0 {
            if count == 0 || (errno != EAGAIN && errno != EINTR) {
                Glibc.close(self.stderr)
                self.stderr = -1
            }
            return
        }
        self.tail.append(contentsOf: buffer[..<count])
        if self.tail.count > CommandRunner.stderrLimit { self.tail.removeFirst(self.tail.count - CommandRunner.stderrLimit) }
    }

    private mutating func closeStdin() {
        if self.stdin >= 0 { Glibc.close(self.stdin) }
        self.stdin = -1
    }

    mutating func close() {
        self.closeStdin()
        if self.stderr >= 0 { Glibc.close(self.stderr) }
        self.stderr = -1
    }

    var isStderrOpen: Bool { self.stderr >= 0 }

    /// The last line the command wrote to stderr that is not blank, at most 200 bytes.
    var lastStderrLine: String? {
        let lines = String(decoding: self.tail, as: UTF8.self).split(whereSeparator: \.isNewline)
        guard let last = lines.last(where: { !$0.allSatisfy(\.isWhitespace) }) else { return nil }
        return String(last.prefix(200))
    }
}
