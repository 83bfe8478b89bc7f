/// Which way a canary works (docs/canary.md, "One-way syncs").
public enum CanaryMode: String, CaseIterable, Sendable {
    /// Writes this host's canary and reads the peers': both rules of `canary_late`.
    case both
    /// The receiving end of a one-way sync: only reads, and only peers that stop moving are late.
    case receive
    /// The sending end of a one-way sync: only writes; never late, as it reads nothing.
    case send

    /// Whether this host writes its canary file.
    public var writes: Bool { self != .receive }
    /// Whether this host reads its peers' files.
    public var reads: Bool { self != .send }
}
