/// Why a canary could not do its work, the `reason` of `syncmon_canary_errors_total`.
public enum CanaryErrorReason: Int, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// This host's canary (or its persisted `seq`) could not be written: PATH read-only,
    /// removed or unmounted, a full disk.
    case write
    /// A peer file or the canary directory could not be read.
    case read
    /// A peer file is not a canary: too large, not JSON, a wrong `v`, a bad host name, a host
    /// other than its file name says, a symbolic link or a directory.
    case malformed
    /// A peer beyond the most a canary follows.
    case peerLimit

    /// The label spelling.
    public var description: String {
        switch self {
        case .write: "write"
        case .read: "read"
        case .malformed: "malformed"
        case .peerLimit: "peer_limit"
        }
    }
}

/// Errors counted by reason.
public struct CanaryErrorCounts: Hashable, Sendable {
    /// By `CanaryErrorReason.rawValue`.
    private var counts = [UInt64](repeating: 0, count: CanaryErrorReason.allCases.count)

    public init() {}

    public subscript(reason: CanaryErrorReason) -> UInt64 {
        get { self.counts[reason.rawValue] }
        set { self.counts[reason.rawValue] = newValue }
    }
}
