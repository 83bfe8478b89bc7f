/// The content of one canary file, `PATH/.syncmon/canary-HOST.json` (docs/canary.md):
///
/// ```json
/// {"v":1,"host":"laptop","seq":42,"written":"2026-11-26T12:00:00Z","seen":{"desk":17}}
/// ```
public struct CanaryFile: Equatable, Sendable {
    /// The only format version there is.
    public static let version: Int64 = 1
    /// The largest peer file read, in bytes; a larger one is malformed.
    public static let maximumSize = 64 * 1024

    /// The host that wrote it.
    public var host: CanaryHost
    /// Increases by one with every write of this host.
    public var seq: Int64
    /// When it was written, on the writer's real-time clock: shown, never compared.
    public var written: Timestamp
    /// The latest `seq` the writer read from each of its peers.
    public var seen: [CanaryHost: Int64]

    public init(host: CanaryHost, seq: Int64, written: Timestamp, seen: [CanaryHost: Int64]) {
        self.host = host
        self.seq = seq
        self.written = written
        self.seen = seen
    }

    /// The file's bytes: one line of JSON, `seen` in host order so equal files are equal bytes.
    public var encoded: String {
        let seen = self.seen.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",")
        return "{\"v\":1,\"host\":\"\(self.host)\",\"seq\":\(self.seq),\"written\":\"\(RFC3339.format(self.written))\",\"seen\":{\(seen)}}\n"
    }
}
