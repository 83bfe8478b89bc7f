#if canImport(Glibc)
import Glibc
#endif

/// The standard `process_*` figures, read from `/proc` (as the Go and Python clients do).
package struct ProcessMetrics: Sendable, Equatable {
    package var residentMemoryBytes: Double = 0
    package var virtualMemoryBytes: Double = 0
    package var cpuSeconds: Double = 0
    package var startTimeSeconds: Double = 0
    package var openFileDescriptors: Double = 0
    package var maximumFileDescriptors: Double = 0

    package init() {}

    /// Reads this process's figures; fields it cannot read stay 0.
    package static func current() -> ProcessMetrics {
        var metrics = ProcessMetrics()
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let pageSize = Double(sysconf(Int32(_SC_PAGESIZE)))
        if let stat = Self.read("/proc/self/stat"), let close = stat.lastIndex(of: ")") {
            // Fields after the command name: state is field 3; utime 14, stime 15, starttime 22,
            // vsize 23, rss 24 (1-based, proc(5)).
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            func field(_ number: Int) -> Double { Double(fields[number - 3]) ?? 0 }
            if fields.count >= 22 {
                metrics.cpuSeconds = (field(14) + field(15)) / ticks
                metrics.virtualMemoryBytes = field(23)
                metrics.residentMemoryBytes = field(24) * pageSize
                if let bootTime = Self.bootTime() { metrics.startTimeSeconds = bootTime + field(22) / ticks }
            }
        }
        if let directory = opendir("/proc/self/fd") {
            var count = 0
            while readdir(directory) != nil { count += 1 }
            closedir(directory)
            // Minus ".", ".." and the descriptor opendir itself holds.
            metrics.openFileDescriptors = Double(max(0, count - 3))
        }
        var limit = rlimit()
        if getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 { metrics.maximumFileDescriptors = Double(limit.rlim_cur) }
        return metrics
    }

    private static func bootTime() -> Double? {
        guard let stat = Self.read("/proc/stat") else { return nil }
        for line in stat.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst("btime ".count))
        }
        return nil
    }

    /// Reads a small /proc file whole.
    static func read(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
