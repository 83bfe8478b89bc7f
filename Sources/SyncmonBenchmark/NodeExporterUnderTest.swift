import SyncmonSockets

#if canImport(Glibc)
import Glibc
#endif

/// Debian's `prometheus-node-exporter`, started beside the daemon so that syncmon's idle memory
/// is compared with an established exporter's measured in the same run, on the same machine
/// at the same moment: on a loopback port of its own, with an empty textfile directory.
final class NodeExporterUnderTest {
    static let binary = "/usr/bin/prometheus-node-exporter"

    let pid: pid_t
    let directory: String
    let port: Int
    private let started: Double

    private init(pid: pid_t, directory: String, port: Int, started: Double) {
        self.pid = pid
        self.directory = directory
        self.port = port
        self.started = started
    }

    /// Starts node_exporter, or `nil` when it is not installed or does not start.
    static func start() -> NodeExporterUnderTest? {
        guard access(Self.binary, X_OK) == 0 else { return nil }
        let directory = "/tmp/syncmon-bench-node-exporter-\(getpid())"
        mkdir(directory, 0o700)
        // A free port: the kernel picks one for a listener that is closed again at once.
        guard let listener = try? BlockingSocket.listen(on: .loopback(port: 0)), let port = try? listener.localPort() else { return nil }
        listener.close()
        let started = Benchmark.monotonicSeconds()
        let arguments = ["--web.listen-address=127.0.0.1:\(port)", "--collector.textfile.directory=\(directory)"]
        guard let pid = try? Benchmark.spawn(Self.binary, arguments, output: directory + ".log") else { return nil }
        return NodeExporterUnderTest(pid: pid, directory: directory, port: port, started: started)
    }

    /// Its memory once `settle` microseconds have passed since the start.
    func memory(afterSettling settle: UInt32) -> Memory {
        let wait = Double(settle) / 1e6 - (Benchmark.monotonicSeconds() - self.started)
        if wait > 0 { usleep(UInt32(wait * 1e6)) }
        return DaemonUnderTest.memory(of: self.pid)
    }

    /// One scrape of `/metrics`, as Prometheus makes; `false` when it did not answer. Tried for
    /// a second: node_exporter may still be starting to listen.
    func scrape() -> Bool {
        let deadline = Benchmark.monotonicSeconds() + 1
        repeat {
            if let response = try? BlockingHTTPClient.get(port: self.port, path: "/metrics"), !response.body.isEmpty { return true }
            usleep(50_000)
        } while Benchmark.monotonicSeconds() < deadline
        return false
    }

    func stop() {
        kill(self.pid, SIGTERM)
        var status: Int32 = 0
        waitpid(self.pid, &status, 0)
        _ = Benchmark.run("/bin/rm", ["-rf", self.directory, self.directory + ".log"])
    }
}
