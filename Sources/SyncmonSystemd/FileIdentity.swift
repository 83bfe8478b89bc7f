import Glibc

/// The device and inode of an open file: how systemd names the journal stream it connects a
/// service's stdout and stderr to, in `$JOURNAL_STREAM` (`device:inode`, both decimal).
///
/// Comparing it with stderr's own identity tells whether stderr really is that stream. The variable
/// alone does not: it is inherited by every child of a service, including a shell someone opened
/// from it whose stderr is a terminal.
public struct FileIdentity: Sendable, Hashable, CustomStringConvertible {
    /// `st_dev`.
    public var device: UInt64
    /// `st_ino`.
    public var inode: UInt64

    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    /// Parses `$JOURNAL_STREAM` as systemd writes it: `device:inode` in decimal. Anything else
    /// (empty, a sign, a third field) is not a stream systemd set up, and gives `nil`.
    public init?(journalStream: String) {
        let parts = journalStream.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2,
            parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }),
            let device = UInt64(parts[0]), let inode = UInt64(parts[1])
        else { return nil }
        self.init(device: device, inode: inode)
    }

    /// The identity of the file open at `descriptor` (fstat(2)), or `nil` when it is not open.
    public init?(fileDescriptor descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        self.init(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// `device:inode`, the `$JOURNAL_STREAM` spelling.
    public var description: String { "\(self.device):\(self.inode)" }
}
