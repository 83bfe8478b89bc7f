import SyncmonAdapters

#if canImport(Glibc)
import Glibc
#endif

/// The bytes a process and its descendants have read and written, from `/proc/PID/io`: the
/// sum of `rchar`, `wchar`, `read_bytes` and `write_bytes` (proc(5)), for `IOProgressSignal`.
///
/// Descendants are found through `/proc/PID/task/TID/children`. A process that has exited keeps
/// the last count read for it, so the sum does not fall when part of the tree ends. Reading
/// another user's process needs ptrace access (a job run through `sudo` as root from a
/// non-root wrap cannot be read); then there is no signal, which ``total()`` says with `nil`.
struct ProcessTreeIO {
    let root: pid_t
    /// The latest count read for each process of the tree.
    private var counts: [pid_t: Int64] = [:]

    init(root: pid_t) {
        self.root = root
    }

    /// The tree's bytes so far; `nil` when the root's counters cannot be read.
    mutating func total() -> Int64? {
        var pending = [self.root]
        var seen: Set<pid_t> = []
        var rootRead = false
        while let pid = pending.popLast(), seen.count < 4096 {
            guard seen.insert(pid).inserted else { continue }
            if let count = Self.io(of: pid) {
                self.counts[pid] = max(self.counts[pid] ?? 0, count)
                if pid == self.root { rootRead = true }
            }
            pending += Self.children(of: pid)
        }
        guard rootRead else { return nil }
        return self.counts.values.reduce(0, &+)
    }

    /// `rchar + wchar + read_bytes + write_bytes` of one process.
    static func io(of pid: pid_t) -> Int64? {
        guard let text = Self.read("/proc/\(pid)/io") else { return nil }
        var sum: Int64 = 0
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            switch parts[0] {
            case "rchar", "wchar", "read_bytes", "write_bytes":
                sum &+= Int64(parts[1].trimmingPrefix(" ")) ?? 0
            default:
                break
            }
        }
        return sum
    }

    /// The children of every thread of `pid`.
    static func children(of pid: pid_t) -> [pid_t] {
        guard let directory = opendir("/proc/\(pid)/task") else { return [] }
        defer { closedir(directory) }
        var children: [pid_t] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let thread = Int32(name) else { continue }
            for word in (Self.read("/proc/\(pid)/task/\(thread)/children") ?? "").split(separator: " ") {
                if let child = Int32(word) { children.append(child) }
            }
        }
        return children
    }

    /// A small file of /proc as text.
    static func read(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        var length = 0
        while length < bytes.count {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + length, $0.count - length) }
            if count < 0, errno == EINTR { continue }
            // /proc/PID/io opens for anyone and refuses at the read (EACCES): no count.
            if count < 0 { return nil }
            guard count > 0 else { break }
            length += count
        }
        return String(decoding: bytes[..<length], as: UTF8.self)
    }
}
