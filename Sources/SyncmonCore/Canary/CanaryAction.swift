/// What a canary decided; the owner performs it (files, the state model, logs).
public enum CanaryAction: Equatable, Sendable {
    /// Write this as `PATH/.syncmon/canary-HOST.json` (atomically), persist its `seq`, then
    /// tell the canary with `wrote(_:at:)` or `failed(_:)`.
    case write(CanaryFile)
    /// Read the peer files and hand them to `read(_:at:)`.
    case readPeers
    /// A peer's canary moved: for a pair watched by its canary alone, a completed import.
    case moved(peer: CanaryHost, seq: Int64)
    /// A peer acknowledged this host's `seq`: a completed export for a pair watched by its
    /// canary alone; `roundTrip` when that `seq` was written by this run.
    case acknowledged(peer: CanaryHost, seq: Int64, roundTrip: TimeSpan?)
    /// A peer became late (report once: journal, status).
    case late(peer: CanaryHost, CanaryLateness)
    /// A late peer is on time again.
    case recovered(peer: CanaryHost)
    /// A peer silent for `forgetAfter` was dropped.
    case forgotten(peer: CanaryHost)
    /// An entry was skipped and counted (log it, rate-limited, naming `name`).
    case rejected(CanaryErrorReason, name: String, detail: String)
}
