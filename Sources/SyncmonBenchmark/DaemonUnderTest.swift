import Dispatch
import SyncmonCore

#if canImport(Glibc)
import Glibc
#endif

/// A `syncmon daemon` child process for the process-level figures: started on private paths,
/// fed over its real socket, read over its real HTTP port, stopped with SIGTERM.
final class DaemonUnderTest: Sendable {
    let pid: pid_t
    let directory: String
    let port: Int
    var socketPath: String { self.directory + "/events.sock" }

    init(binary: String, extraArguments: [String] = []) throws {
        self.directory = "/tmp/syncmon-bench-daemon-\(getpid())"
        mkdir(self.directory, 0o700)
        self.port = 20_000 + Int(getpid() % 20_000)
        let arguments = [
            "daemon", "--events-socket", self.directory + "/events.sock", "--state-dir", self.directory + "/state",
            "--listen", "127.0.0.1:\(self.port)", "--log-target", "stderr", "--log-level", "warning",
        ] + extraArguments
        self.pid = try Benchmark.spawn(binary, arguments, output: self.directory + "/daemon.log")
        let deadline = Benchmark.monotonicSeconds() + 10
        while Benchmark.monotonicSeconds() < deadline {
            if access(self.socketPath, F_OK) == 0, (try? self.get("/healthz")) != nil { return }
            usleep(20_000)
        }
        throw BenchmarkError("the daemon did not start; see \(self.directory)/daemon.log")
    }

    deinit {
        kill(self.pid, SIGTERM)
        var status: Int32 = 0
        waitpid(self.pid, &status, 0)
        _ = Benchmark.run("/bin/rm", ["-rf", self.directory])
    }

    /// A GET over a fresh connection; returns the body.
    func get(_ path: String) throws -> [UInt8] {
        try self.request(path, keepBody: true).body
    }

    /// A GET that only counts the body's bytes, reading into one fixed buffer: a client that
    /// must not be the slow side of a 100 MB response, as Prometheus is not.
    func bodySize(_ path: String, acceptEncoding: String? = nil) throws -> Int {
        try self.request(path, keepBody: false, acceptEncoding: acceptEncoding).size
    }

    private func request(_ path: String, keepBody: Bool, acceptEncoding: String? = nil) throws -> (body: [UInt8], size: Int) {
        let descriptor = try Self.connectTCP(port: self.port)
        defer { close(descriptor) }
        let encoding = acceptEncoding.map { "Accept-Encoding: \($0)\r\n" } ?? ""
        let request = "GET \(path) HTTP/1.1\r\nHost: bench\r\n\(encoding)Connection: close\r\n\r\n"
        _ = request.withCString { Glibc.send(descriptor, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            // Keep the head (and the body when asked); otherwise only count.
            if keepBody || response.count < 4096 { response += buffer[0..<count] }
            total += count
        }
        guard let end = Benchmark.find([13, 10, 13, 10], in: Array(response.prefix(8192))) else { throw BenchmarkError("no HTTP response") }
        return (Array(response[(end + 4)...]), total - end - 4)
    }

    /// The value of one sample line of `/metrics`, e.g. `syncmon_events_received_total{transport="push"}`.
    func metric(_ series: String) throws -> Double? {
        let text = String(decoding: try self.get("/metrics"), as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1))
        }
        return nil
    }

    /// A keep-alive HTTP connection for repeated small GETs (the status poller): one TCP
    /// connection for all polls, as a monitoring client would keep.
    final class KeepAliveClient {
        let descriptor: Int32
        private var pending: [UInt8] = []

        init(port: Int) throws {
            self.descriptor = try DaemonUnderTest.connectTCP(port: port)
        }

        deinit { close(self.descriptor) }

        /// One GET on the open connection; the body (the response must carry content-length).
        func get(_ path: String) throws -> [UInt8] {
            let request = "GET \(path) HTTP/1.1\r\nHost: bench\r\n\r\n"
            _ = request.withCString { Glibc.send(self.descriptor, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                if let end = Benchmark.find([13, 10, 13, 10], in: self.pending) {
                    let head = String(decoding: self.pending[..<end], as: UTF8.self).lowercased()
                    let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                        .flatMap { Int($0.dropFirst("content-length:".count).filter { $0 != " " }) } ?? 0
                    if self.pending.count >= end + 4 + length {
                        let body = Array(self.pending[(end + 4)..<(end + 4 + length)])
                        self.pending.removeFirst(end + 4 + length)
                        return body
                    }
                }
                let count = buffer.withUnsafeMutableBytes { recv(self.descriptor, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { throw BenchmarkError("the daemon closed the status connection") }
                self.pending += buffer[0..<count]
            }
        }
    }

    /// A connected push-socket descriptor.
    func connect() throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: self.socketPath.utf8)
            raw[self.socketPath.utf8.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard descriptor >= 0, connected == 0 else {
            if descriptor >= 0 { close(descriptor) }
            throw BenchmarkError("cannot connect to \(self.socketPath)")
        }
        return descriptor
    }

    /// Sends `lines` at a steady rate (in 10 ms slices) until done or `stop` is set.
    func sendPaced(_ lines: [UInt8], eventsPerSecond: Int, until stop: StopFlag) {
        guard let descriptor = try? self.connect() else { return }
        defer { close(descriptor) }
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
                guard Self.writeAll(descriptor, UnsafeRawBufferPointer(rebasing: raw[start..<end])) else { return }
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
            guard let descriptor = try? self.connect() else { return }
            defer { close(descriptor) }
            chunks[index].withUnsafeBytes { _ = Self.writeAll(descriptor, $0) }
        }
    }

    /// Writes every byte of `bytes`; false when the peer stopped taking them.
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    /// A TCP connection to `127.0.0.1:port` with Nagle off (requests are single small writes).
    static func connectTCP(port: Int) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard descriptor >= 0, connected == 0 else {
            if descriptor >= 0 { close(descriptor) }
            throw BenchmarkError("cannot connect to port \(port)")
        }
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return descriptor
    }

    /// Resident memory in bytes, from /proc.
    var residentBytes: Double {
        guard let status = try? String(decoding: Benchmark.readFile("/proc/\(self.pid)/status"), as: UTF8.self) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return (Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) * 1024
        }
        return 0
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
