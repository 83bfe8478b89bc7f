import Dispatch
import SyncmonCore
import SyncmonSockets

#if canImport(Glibc)
import Glibc
#endif

/// A `syncmon daemon` child process for the process-level figures: started on private paths,
/// fed over its real socket, read over its real HTTP port, stopped with SIGTERM.
///
/// Started as the tests' `DaemonProcess` starts one (SyncmonTestSupport, which this release
/// build does not link: it brings all of Foundation): on a port the kernel chose, tried again
/// on another when it was taken meanwhile, and ready when the daemon sent `READY=1` on a
/// notification socket of the benchmark's own, not after a sleep.
final class DaemonUnderTest: Sendable {
    let pid: pid_t
    let directory: String
    let port: Int
    var socketPath: String { self.directory + "/events.sock" }

    init(binary: String, extraArguments: [String] = [], environment: [String] = [], name: String = "daemon") throws {
        self.directory = "/tmp/syncmon-bench-\(name)-\(getpid())"
        mkdir(self.directory, 0o700)
        let notifyPath = self.directory + "/notify.sock"
        unlink(notifyPath)
        let notify = try BlockingSocket.bindDatagram(to: .unix(path: notifyPath))
        defer {
            notify.close()
            unlink(notifyPath)
        }
        for _ in 1...4 {
            let port = try Self.freePort()
            let arguments =
                [
                    "daemon", "--events-socket", self.directory + "/events.sock", "--state-dir", self.directory + "/state",
                    "--listen", "127.0.0.1:\(port)", "--log-target", "stderr", "--log-level", "warning",
                ] + extraArguments
            let pid = try Benchmark.spawn(
                binary, arguments, output: self.directory + "/daemon.log", environment: environment + ["NOTIFY_SOCKET=\(notifyPath)"])
            if Self.waitForReady(notify, pid: pid, seconds: 10) {
                self.pid = pid
                self.port = port
                return
            }
            kill(pid, SIGKILL)
            waitpid(pid, nil, 0)
            // The port was free a moment ago but someone took it: try another.
            let log = (try? Benchmark.readFile(self.directory + "/daemon.log")).map { String(decoding: $0, as: UTF8.self) } ?? ""
            guard log.lowercased().contains("address already in use") else { break }
        }
        throw BenchmarkError("the daemon did not start; see \(self.directory)/daemon.log")
    }

    /// A TCP port on 127.0.0.1 that was free a moment ago: the kernel's choice for port 0.
    private static func freePort() throws -> Int {
        let socket = try BlockingSocket.listen(on: .loopback(port: 0))
        defer { socket.close() }
        return try socket.localPort()
    }

    /// Waits until `READY=1` arrives on `notify`; `false` when the daemon exited first or
    /// `seconds` passed. Blocks in poll(2) on the socket, waking only to see whether the
    /// daemon is still alive.
    private static func waitForReady(_ notify: BlockingSocket, pid: pid_t, seconds: Double) -> Bool {
        let deadline = Benchmark.monotonicSeconds() + seconds
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Benchmark.monotonicSeconds() < deadline {
            if waitpid(pid, nil, WNOHANG) == pid { return false }
            guard notify.waitUntilReadable(milliseconds: 100), let count = try? notify.receive(into: &buffer, waiting: false), count > 0
            else { continue }
            if String(decoding: buffer[0..<count], as: UTF8.self).split(separator: "\n").contains("READY=1") { return true }
        }
        return false
    }

    deinit {
        kill(self.pid, SIGTERM)
        var status: Int32 = 0
        waitpid(self.pid, &status, 0)
        _ = Benchmark.run("/bin/rm", ["-rf", self.directory])
    }

    /// A GET over a fresh connection; returns the body.
    func get(_ path: String) throws -> [UInt8] {
        try BlockingHTTPClient.get(port: self.port, path: path).body
    }

    /// A GET that only counts the body's bytes (as sent, chunk framing included), reading into
    /// one 1 MiB buffer: a client that must not be the slow side of a 100 MB response, as
    /// Prometheus is not.
    func bodySize(_ path: String, acceptEncoding: String? = nil) throws -> Int {
        let headers = acceptEncoding.map { [("Accept-Encoding", $0)] } ?? []
        let request = BlockingHTTPClient.request(path: path, host: "bench", headers: headers, keepAlive: false)
        var head: [UInt8] = []
        var total = 0
        try BlockingHTTPClient.exchange(port: self.port, request: request, bufferSize: 1 << 20) { piece in
            // Keep the head; only count the rest.
            if head.count < 4096 { head += piece }
            total += piece.count
        }
        guard let end = Benchmark.find([13, 10, 13, 10], in: Array(head.prefix(8192))) else { throw BenchmarkError("no HTTP response") }
        return total - end - 4
    }

    /// The value of one sample line of `/metrics`, e.g. `syncmon_events_received_total{transport="push"}`.
    func metric(_ series: String) throws -> Double? {
        let body = try self.get("/metrics")
        // A byte search for the one line (a series is never the exposition's first line): the
        // bench polls while it measures ingest, on the cores the daemon runs on, and decoding
        // and splitting megabytes of exposition into strings for every poll took more CPU than
        // the daemon's render of it.
        let needle = Array(("\n" + series + " ").utf8)
        let start: Int? = body.withUnsafeBytes { haystack in
            needle.withUnsafeBytes { pattern in
                guard let base = haystack.baseAddress else { return nil }
                var offset = 0
                while let newline = memchr(base + offset, 0x0A, haystack.count - offset) {
                    offset = base.distance(to: UnsafeRawPointer(newline))
                    if haystack.count - offset >= pattern.count, memcmp(base + offset, pattern.baseAddress!, pattern.count) == 0 {
                        return offset + pattern.count
                    }
                    offset += 1
                }
                return nil
            }
        }
        guard let start else { return nil }
        let end = body[start...].firstIndex(of: 0x0A) ?? body.endIndex
        return Double(String(decoding: body[start..<end], as: UTF8.self))
    }

    /// A connected push socket.
    func connect() throws -> BlockingSocket {
        try BlockingSocket.connect(to: .unix(path: self.socketPath))
    }

    /// Sends `lines` at a steady rate (in 10 ms slices) until done or `stop` is set.
    func sendPaced(_ lines: [UInt8], eventsPerSecond: Int, until stop: StopFlag) {
        guard let connection = try? self.connect() else { return }
        defer { connection.close() }
        let perSlice = eventsPerSecond / 100
        var start = 0
        var next = Benchmark.monotonicSeconds()
        lines.withUnsafeBytes { raw in
            while start < raw.count, !stop.isSet {
                // One slice: the next `perSlice` lines.
                var end = start
                var count = 0
                while end < raw.count, count < perSlice {
                    if raw[end] == 10 { count += 1 }
                    end += 1
                }
                guard (try? connection.send(UnsafeRawBufferPointer(rebasing: raw[start..<end]))) != nil else { return }
                start = end
                next += 0.01
                let wait = next - Benchmark.monotonicSeconds()
                if wait > 0 { usleep(UInt32(wait * 1_000_000)) }
            }
        }
    }

    /// Writes `chunks` over one connection each, concurrently.
    func send(_ chunks: [[UInt8]]) {
        DispatchQueue.concurrentPerform(iterations: chunks.count) { index in
            guard let connection = try? self.connect() else { return }
            defer { connection.close() }
            try? connection.send(chunks[index])
        }
    }

    /// A process's resident memory three ways, in bytes, from `/proc/PID/smaps_rollup`.
    static func memory(of pid: pid_t) -> Memory {
        let fields = Self.kibibyteFields(of: "/proc/\(pid)/smaps_rollup")
        return Memory(resident: fields["Rss"] ?? 0, anonymous: fields["Anonymous"] ?? 0, proportional: fields["Pss"] ?? 0)
    }

    /// The `Name:   123 kB` lines of a /proc file, in bytes by name.
    private static func kibibyteFields(of path: String) -> [Substring: Double] {
        guard let text = try? String(decoding: Benchmark.readFile(path), as: UTF8.self) else { return [:] }
        var fields: [Substring: Double] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count == 3, parts[0].hasSuffix(":"), parts[2] == "kB", let value = Double(parts[1]) else { continue }
            fields[parts[0].dropLast()] = value * 1024
        }
        return fields
    }

    /// CPU time of each of the daemon's threads so far, in nanoseconds, by thread id.
    ///
    /// From `/proc/PID/task/TID/schedstat`, which counts in nanoseconds; `/proc/PID/stat` counts
    /// in 10 ms clock ticks, too coarse for an idle process (one tick in a 15 s window reads as
    /// 0.04 s per minute).
    var threadCPUNanoseconds: [Int: UInt64] {
        var times: [Int: UInt64] = [:]
        guard let directory = opendir("/proc/\(self.pid)/task") else { return times }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let thread = Int(name),
                let schedstat = try? Benchmark.readFile("/proc/\(self.pid)/task/\(name)/schedstat"),
                let first = String(decoding: schedstat, as: UTF8.self).split(separator: " ").first,
                let nanoseconds = UInt64(first)
            else { continue }
            times[thread] = nanoseconds
        }
        return times
    }

    /// CPU seconds the daemon used since `before` (a ``threadCPUNanoseconds`` reading): threads
    /// started since count whole; threads that ended since are missed (idle workers, ~0).
    func cpuSeconds(since before: [Int: UInt64]) -> Double {
        let now = self.threadCPUNanoseconds
        let nanoseconds = now.reduce(UInt64(0)) { sum, thread in sum + (thread.value - min(thread.value, before[thread.key] ?? 0)) }
        return Double(nanoseconds) / 1e9
    }
}
