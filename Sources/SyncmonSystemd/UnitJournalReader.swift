import CSystemd
import Glibc

/// Reads one unit's journal entries (`_SYSTEMD_UNIT=UNIT`, or `_SYSTEMD_USER_UNIT=UNIT` and
/// `_UID=UID` for a user manager's unit: `SystemdManager.journalMatches`) in order from a cursor, with sd-journal.
///
/// Started from a saved cursor it goes on after that entry, so a daemon restart neither misses nor
/// repeats an entry the journal still holds; without one it starts at the end (only what comes
/// next). When the cursor's entry is gone (rotated or vacuumed away) it goes on from the oldest
/// entry still there and says so (`gap`), so the owner counts it.
///
/// Not thread-safe: one instance is used by one thread.
public final class UnitJournalReader {
    /// One entry: its message bytes (journald may store a message as bytes), priority, time and cursor.
    public struct Entry: Sendable {
        public var message: [UInt8]
        /// `PRIORITY`, 6 (info) when absent.
        public var priority: Int
        /// `__REALTIME_TIMESTAMP`, microseconds since the epoch.
        public var realtime: UInt64
        public var cursor: String
    }

    private var journal: OpaquePointer?
    /// The cursor's entry was no longer in the journal: reading went on from the oldest entry.
    public private(set) var gap = false

    /// Opens the journal for `unit` of `manager`, positioned after `cursor` (or at the end without
    /// one): the system's files for the system's units; every local file this process may read
    /// for a user's (a user's lines go to its `user-UID.journal` when the journal is persistent).
    public init(unit: String, cursor: String?, manager: SystemdManager = .system) throws(SystemdError) {
        var journal: OpaquePointer? = nil
        let flags = manager == .system ? SD_JOURNAL_SYSTEM | SD_JOURNAL_LOCAL_ONLY : SD_JOURNAL_LOCAL_ONLY
        var result = sd_journal_open(&journal, Int32(flags))
        guard result >= 0, let journal else { throw SystemdError(operation: "sd_journal_open", returnValue: result) }
        self.journal = journal
        for match in manager.journalMatches(unit: unit) {
            result = match.withCString { sd_journal_add_match(journal, $0, 0) }
            guard result >= 0 else { throw SystemdError(operation: "sd_journal_add_match", returnValue: result) }
        }
        if let cursor {
            self.resume(after: cursor)
        } else {
            sd_journal_seek_tail(journal)
            // seek_tail lands after the last entry: step back onto it so `next()` returns only
            // newer ones. A unit with no entry yet has nothing to step onto, and from a bare tail
            // sd-journal's first `next()` jumps to the newest entry by then, skipping the ones
            // before it: read such a unit from its head, where everything is new.
            if sd_journal_previous(journal) <= 0 { sd_journal_seek_head(journal) }
        }
    }

    deinit {
        sd_journal_close(self.journal)
    }

    /// The descriptor that becomes readable when the journal changes.
    public var fileDescriptor: Int32 { sd_journal_get_fd(self.journal) }

    /// After a wake-up on the descriptor: lets sd-journal take in new and rotated files.
    public func process() {
        sd_journal_process(self.journal)
    }

    /// The next entry, or `nil` when there is none yet.
    public func next() -> Entry? {
        guard sd_journal_next(self.journal) > 0 else { return nil }
        return self.current()
    }

    /// The unit's last entry before now, without moving the reading position (the failure message
    /// of a unit found failed at start is its last line).
    ///
    /// With `notAfter` (realtime microseconds, e.g. when the main process exited) the last entry
    /// received by then: a crash-looping service has usually logged its next start by the time
    /// its failure is read.
    public static func lastMessage(unit: String, manager: SystemdManager = .system, notAfter: UInt64? = nil) -> [UInt8]? {
        guard let reader = try? UnitJournalReader(unit: unit, cursor: nil, manager: manager) else { return nil }
        if let notAfter {
            sd_journal_seek_realtime_usec(reader.journal, notAfter &+ 1)
            guard sd_journal_previous(reader.journal) > 0 else { return nil }
        }
        return reader.current()?.message
    }

    /// The last entry of the process `pid` of `unit`, which exited at `exited` (realtime
    /// microseconds). journald reads a process's output when it gets to it, on a busy machine
    /// after the exit was reported: while the process's newest entry is from more than 100 ms
    /// before its exit (or there is none), entries are waited for, `patience` microseconds at
    /// most. Entries stamped more than 5 s after the exit are another process's that got the
    /// same id.
    public static func lastMessage(
        unit: String, manager: SystemdManager = .system, pid: UInt32, exited: UInt64, patience: UInt64 = 500_000
    ) -> [UInt8]? {
        guard let reader = try? UnitJournalReader(unit: unit, cursor: nil, manager: manager),
            "_PID=\(pid)".withCString({ sd_journal_add_match(reader.journal, $0, 0) }) >= 0
        else { return nil }
        let deadline = Self.monotonicMicroseconds() &+ patience
        while true {
            sd_journal_seek_realtime_usec(reader.journal, exited &+ 5_000_000)
            let entry = sd_journal_previous(reader.journal) > 0 ? reader.current() : nil
            if let entry, entry.realtime &+ 100_000 >= exited { return entry.message }
            let now = Self.monotonicMicroseconds()
            // After the deadline, the look above was the last.
            guard now < deadline, sd_journal_wait(reader.journal, deadline - now) >= 0 else { return entry?.message }
        }
    }

    private static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) &* 1_000_000 &+ UInt64(now.tv_nsec) / 1_000
    }

    private func resume(after cursor: String) {
        let sought = cursor.withCString { sd_journal_seek_cursor(self.journal, $0) }
        // seek_cursor lands on the nearest entry when the exact one is gone; test_cursor tells.
        if sought >= 0, sd_journal_next(self.journal) > 0, cursor.withCString({ sd_journal_test_cursor(self.journal, $0) }) > 0 {
            return
        }
        self.gap = true
        sd_journal_seek_head(self.journal)
    }

    private func current() -> Entry? {
        guard let message = self.field("MESSAGE") else { return nil }
        let priority = self.field("PRIORITY").flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? 6
        var realtime: UInt64 = 0
        sd_journal_get_realtime_usec(self.journal, &realtime)
        var cursor: UnsafeMutablePointer<CChar>? = nil
        guard sd_journal_get_cursor(self.journal, &cursor) >= 0, let cursor else { return nil }
        defer { free(cursor) }
        return Entry(message: message, priority: priority, realtime: realtime, cursor: String(cString: cursor))
    }

    /// The value of `name` in the current entry (after `NAME=`), as bytes.
    private func field(_ name: String) -> [UInt8]? {
        var data: UnsafeRawPointer? = nil
        var length = 0
        let result = name.withCString { sd_journal_get_data(self.journal, $0, &data, &length) }
        guard result >= 0, let data, length > name.utf8.count else { return nil }
        let bytes = UnsafeRawBufferPointer(start: data, count: length)
        return Array(bytes[(name.utf8.count + 1)...])
    }
}
