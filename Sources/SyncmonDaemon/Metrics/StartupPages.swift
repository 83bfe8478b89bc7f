import SyncmonCore

#if canImport(Glibc)
import Glibc
#endif

/// Hands back the executable's pages that only start-up touched, once the daemon is ready.
///
/// Most of an idle daemon's resident memory is the executable's own code and read-only data
/// (docs/performance.md: 11.9 of 20.6 MiB): start-up runs through configuration, TLS, the
/// HTTP client's and NIO's set-up once, and the kernel maps the 64 KiB around every page it
/// touches (fault-around). None of it runs again while idle. `MADV_PAGEOUT` on those clean,
/// file-backed mappings drops them from this process (the page cache keeps them, so a page
/// needed again costs a minor fault, not a read): what stays resident is what the daemon
/// actually uses. Writable data and the heap are left alone.
enum StartupPages {
    /// When to page out: at `READY=1`, and again when the rest of start-up is over — the first
    /// state save (a second after start, through the JSON encoder and the runtime's type
    /// lookups) faults in 3 MiB of code more, which then never runs again while idle.
    struct Schedule {
        /// The times after `READY=1` at which to page out again, soonest first.
        private var due: [MonotonicInstant]

        /// Pages out now, and schedules the later page-outs from `ready`.
        init(ready: MonotonicInstant) {
            StartupPages.release()
            self.due = [1_500_000, 5_000_000].map { ready.adding(TimeSpan(microseconds: $0)) }
        }

        /// When the next page-out is due; `nil` once all are done.
        var nextDue: MonotonicInstant? { self.due.first }

        /// Pages out once for every scheduled time that has come by `now`.
        mutating func releaseIfDue(at now: MonotonicInstant) {
            guard let next = self.due.first, now >= next else { return }
            self.due.removeAll { $0 <= now }
            StartupPages.release()
        }
    }

    /// Pages out the executable's read-only and executable mappings; errors are ignored (an
    /// older kernel without `MADV_PAGEOUT` keeps its pages, nothing else changes).
    static func release() {
        guard let maps = fopen("/proc/self/maps", "r") else { return }
        defer { fclose(maps) }
        let executable = Self.executablePath()
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), maps) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let fields = text.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1].hasPrefix("r"), !fields[1].contains("w"),
                fields[5].trimmingCharacters(in: "\n") == executable
            else { continue }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16) else { continue }
            _ = madvise(UnsafeMutableRawPointer(bitPattern: start), Int(end - start), Self.pageOut)
        }
    }

    /// `MADV_PAGEOUT` (Linux 5.4), which Glibc's module may not export.
    private static let pageOut: Int32 = 21

    private static func executablePath() -> Substring {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return "" }
        return Substring(String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> Substring {
        var text = self
        while text.last == set { text.removeLast() }
        return text
    }
}
