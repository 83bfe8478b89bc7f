import SyncmonCore

#if canImport(Glibc)
import Glibc
#endif

/// `syncmon-bench`: the hot-path figures the issues ask for, printed as a table.
///
/// Run it from a release build (`scripts/benchmark.sh` does): decode + apply in process on one
/// core, and `syncmon replay` of a generated 1,000,000-line file, timed as a whole process.
@main
struct Benchmark {
    static func main() throws {
        let arguments = CommandLine.arguments
        let events = arguments.count > 1 ? Int(arguments[1]) ?? 2_000_000 : 2_000_000
        let replayLines = arguments.count > 2 ? Int(arguments[2]) ?? 1_000_000 : 1_000_000

        let traffic = SyntheticTraffic()
        let buffer = traffic.lines(count: events)
        print("syncmon benchmark: \(events) events, \(buffer.count / events) bytes a line on average")

        // Decode + apply, best of three passes over the same lines (a warm steady state).
        var best = Double.infinity
        var accepted: UInt64 = 0
        for _ in 0..<3 {
            var monitor = Monitor()
            let decoder = EventDecoder()
            var framer = LineFramer()
            let started = Self.monotonicSeconds()
            buffer.withUnsafeBytes { bytes in
                framer.feed(bytes) { line in
                    guard case .line(let text) = line, case .event(let event) = decoder.decode(text) else { return }
                    monitor.apply(event, at: event.time ?? Timestamp(seconds: 0))
                }
            }
            best = min(best, Self.monotonicSeconds() - started)
            accepted = monitor.accepted
        }
        precondition(accepted == UInt64(events), "benchmark traffic must be all valid (\(accepted) of \(events))")
        let rate = Double(events) / best
        print(Self.row("decode + apply (1 core)", "\(Self.grouped(rate)) events/s", target: "≥ 1,000,000 events/s", met: rate >= 1_000_000))

        // `syncmon replay` of a 1M-line file, as a whole process.
        let path = "/tmp/syncmon-bench-\(getpid()).jsonl"
        let file = traffic.lines(count: replayLines)
        try Self.write(file, to: path)
        defer { unlink(path) }
        let binary = Self.siblingBinary("syncmon")
        let started = Self.monotonicSeconds()
        let status = Self.run(binary, ["replay", path, "--json"])
        let elapsed = Self.monotonicSeconds() - started
        print(Self.row(
            "syncmon replay, \(Self.grouped(Double(replayLines))) lines",
            "\(Self.fixed(elapsed, digits: 3)) s (\(Self.grouped(Double(replayLines) / elapsed)) lines/s, exit \(status))",
            target: "well under 1 s",
            met: elapsed < 1
        ))
    }

    static func row(_ name: String, _ value: String, target: String, met: Bool) -> String {
        func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(1, width - text.count)) }
        return pad(name, 36) + pad(value, 44) + pad(target, 24) + (met ? "met" : "MISSED")
    }

    static func grouped(_ value: Double) -> String {
        var digits = String(Int(value.rounded()))
        var out = ""
        while digits.count > 3 {
            out = "," + digits.suffix(3) + out
            digits.removeLast(3)
        }
        return digits + out
    }

    static func fixed(_ value: Double, digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let fraction = String(scaled % Int(scale))
        return "\(scaled / Int(scale))." + String(repeating: "0", count: digits - fraction.count) + fraction
    }

    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw BenchmarkError("cannot create \(path)") }
        defer { close(descriptor) }
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                guard written > 0 else { throw BenchmarkError("cannot write \(path)") }
                offset += written
            }
        }
    }

    /// The path of another product of the same build (`.build/release/syncmon`).
    static func siblingBinary(_ name: String) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let own = length > 0 ? String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
        return String(own[..<(own.lastIndex(of: "/") ?? own.startIndex)]) + "/" + name
    }

    /// Runs a program with its output discarded; returns its exit status.
    static func run(_ path: String, _ arguments: [String]) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return (status >> 8) & 0xFF
    }
}

/// A benchmark setup step failed.
struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
