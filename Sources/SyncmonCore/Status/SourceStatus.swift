/// One configured `--subscribe` source in the status document (docs/subscribe.md, "Sources in
/// the status"): whether the daemon reads it, and why not. A source that never connected has no
/// pairs to show; this is where its trouble shows instead, from its first failed try.
public struct SourceStatus: Decodable, Sendable, Equatable {
    /// Whether the daemon reads the source, in the words of its log entries (`SYNCMON_SOURCE_STATE`).
    public enum State: String, Sendable, CaseIterable, CustomStringConvertible {
        /// Not tried yet.
        case starting
        /// Connected (for a file: open and being read).
        case connected
        /// Not connected; retrying with backoff. The engine behind it cannot be seen.
        case disconnected

        public var description: String { self.rawValue }
    }

    /// The source's name: `NAME` of `--subscribe NAME=URL` (a Syncthing source's engine name).
    public var name: String
    /// `syncthing`, `http`, `unix`, `file` or `unit`.
    public var kind: String
    public var state: State
    /// When the source entered `state` (for `starting`, when the daemon started).
    public var since: Timestamp
    /// The latest failure in words, kept after the source connects again; `nil` while it never failed.
    public var lastError: String?
    /// Connection attempts after the first.
    public var reconnects: UInt64

    public init(name: String, kind: String, state: State, since: Timestamp, lastError: String?, reconnects: UInt64) {
        self.name = name
        self.kind = kind
        self.state = state
        self.since = since
        self.lastError = lastError
        self.reconnects = reconnects
    }

    /// Not connected after a try: the watcher cannot see the engine behind it.
    public var isFailing: Bool { self.state == .disconnected }

    /// What the source adds to the exit status (docs/operations.md#syncmon-status): a failing
    /// source is critical, as the pairs of a Syncthing whose API refuses are `engine_down`; a
    /// source that connected, or is not tried yet, adds nothing.
    public var severity: Severity? { self.isFailing ? .critical : nil }

    enum CodingKeys: String, CodingKey {
        case name, kind, state, since, lastError, reconnects
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.name = try container.decode(String.self, forKey: .name)
        self.kind = try container.decode(String.self, forKey: .kind)
        self.state = try container.decodeName(State.self, forKey: .state)
        self.since = try container.decodeTime(forKey: .since)
        self.lastError = try container.decodeIfPresent(String.self, forKey: .lastError)
        self.reconnects = try container.decode(UInt64.self, forKey: .reconnects)
    }
}

extension StatusDocument {
    /// The exit status of `syncmon status` for this document (docs/operations.md#syncmon-status):
    /// the worst of the pairs' severities and of the failing sources'; nothing at all is unknown.
    public var severity: Severity {
        Self.severity(rows: self.engines, sources: self.sources ?? [])
    }

    /// The severity of `rows` and `sources` together: the one rule `syncmon status` exits by
    /// and `--format nagios` words.
    public static func severity(rows: [StatusRow], sources: [SourceStatus]) -> Severity {
        Severity.worst(of: rows.map(\.summary.severity) + sources.compactMap(\.severity))
    }
}
