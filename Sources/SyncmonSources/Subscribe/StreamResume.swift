import SyncmonLock

/// Where an HTTP stream resumes after a reconnect, kept across its connections (and, through
/// `<state-dir>/sources/<name>.resume`, across restarts).
///
/// - SSE: `Last-Event-ID: <the last id seen>`.
/// - NDJSON (or SSE without ids): `?since=<the highest seq seen on this source>`.
///
/// It also remembers the last ``recentIDLimit`` SSE ids, so a server that ignores
/// `Last-Event-ID` (or resumes inclusively) and replays events it already sent does not get
/// them counted twice: on a resumed connection, leading events whose id was already seen are
/// dropped; the first event with an unseen id (or without an id) ends that check.
final class StreamResume: Sendable {
    enum Kind: String, Sendable {
        case ndjson
        case sse
    }

    struct State: Sendable, Equatable {
        var lastEventID = ""
        var highestSequence: Int64?
        var kind: Kind?
        /// The server's `retry:` in milliseconds.
        var retryMilliseconds: Int?
        /// Changed since the last save.
        var dirty = false
    }

    static let recentIDLimit = 4096

    private let state: Locked<State>
    private let recent = Locked(RecentIDs(limit: StreamResume.recentIDLimit))

    init(_ initial: State = State()) {
        self.state = Locked(initial)
    }

    var current: State { self.state.withLock { $0 } }

    /// The request target for the next connection: `target` with `since=` set when the stream
    /// resumes by sequence number.
    func requestTarget(for target: String) -> String {
        let state = self.current
        guard let since = state.highestSequence, state.kind != .sse || state.lastEventID.isEmpty else { return target }
        return Self.target(target, since: since)
    }

    /// The `Last-Event-ID` header to send, if any.
    var lastEventIDHeader: String? {
        let id = self.current.lastEventID
        return id.isEmpty ? nil : id
    }

    /// `target` with its `since` query parameter replaced by `since`.
    static func target(_ target: String, since: Int64) -> String {
        var path = Substring(target)
        var items: [Substring] = []
        if let question = target.firstIndex(of: "?") {
            path = target[..<question]
            items = target[target.index(after: question)...].split(separator: "&").filter { !$0.hasPrefix("since=") && $0 != "since" }
        }
        items.append("since=\(since)")
        return path + "?" + items.joined(separator: "&")
    }

    func setKind(_ kind: Kind) {
        self.state.withLock { state in
            if state.kind != kind {
                state.kind = kind
                state.dirty = true
            }
        }
    }

    func setRetry(milliseconds: Int) {
        self.state.withLock { $0.retryMilliseconds = milliseconds }
    }

    /// Records what a connection has applied so far.
    func advance(lastEventID: String?, highestSequence: Int64?) {
        self.state.withLock { state in
            if let lastEventID, lastEventID != state.lastEventID {
                state.lastEventID = lastEventID
                state.dirty = true
            }
            if let highestSequence, highestSequence > (state.highestSequence ?? .min) {
                state.highestSequence = highestSequence
                state.dirty = true
            }
        }
    }

    /// Whether `id` was delivered recently (a replay when seen at the start of a resumed connection).
    func wasSeen(_ id: String) -> Bool {
        self.recent.withLock { $0.contains(id) }
    }

    func remember(_ id: String) {
        self.recent.withLock { $0.insert(id) }
    }

    /// The state to save, if it changed since the last call.
    func takeDirty() -> State? {
        self.state.withLock { state in
            guard state.dirty else { return nil }
            state.dirty = false
            return state
        }
    }
}

/// A bounded set of strings that forgets the oldest first.
struct RecentIDs: Sendable {
    let limit: Int
    private var order: [String] = []
    private var head = 0
    private var members: Set<String> = []

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    func contains(_ id: String) -> Bool { self.members.contains(id) }

    mutating func insert(_ id: String) {
        guard !self.members.contains(id) else { return }
        if self.order.count < self.limit {
            self.order.append(id)
        } else {
            self.members.remove(self.order[self.head])
            self.order[self.head] = id
            self.head = (self.head + 1) % self.limit
        }
        self.members.insert(id)
    }
}
