import SyncmonCore
import SyncmonDaemon
import SyncmonHost

#if canImport(Glibc)
import Glibc
#endif

extension Benchmark {
    /// The CPU time of the calling thread so far.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The state file's save at `monitor`'s pairs, best of three, for the record: the daemon
    /// saves within a second of every change, so while events come at 10,000 pairs this is
    /// what each second costs the saver (docs/performance.md).
    static func printStateSave(_ monitor: Monitor) {
        let directory = "/tmp/syncmon-bench-state-\(getpid())"
        defer { _ = Self.run("/bin/rm", ["-rf", directory]) }
        mkdir(directory, 0o700)
        let file = StateFile(directory: directory)
        var best = Double.infinity
        var bestCPU = Double.infinity
        var size = 0
        for _ in 0..<3 {
            let started = Self.monotonicSeconds()
            let startedCPU = Self.threadCPUSeconds()
            do {
                size = try file.save(monitor, now: Timestamp(seconds: 1_795_000_100))
            } catch {
                print(Self.row("state save", "failed: \(error)", "(for the record)", false))
                return
            }
            best = min(best, Self.monotonicSeconds() - started)
            bestCPU = min(bestCPU, Self.threadCPUSeconds() - startedCPU)
        }
        let measured = "\(Self.fixed(bestCPU * 1000, 1)) ms CPU (\(Self.fixed(best * 1000, 1)) ms with the fsyncs), \(Self.grouped(Double(size) / 1024)) KiB"
        print(Self.row("state save, \(Self.grouped(Double(monitor.pairs.count))) pairs", measured, "(for the record)", nil))
    }
}
