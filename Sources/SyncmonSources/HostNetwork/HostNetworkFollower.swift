import SyncmonCore

/// Keeps the host's link and route tables in step with the kernel's, from rtnetlink messages,
/// and says when the view changed. Pure: the reader thread hands it what it received and
/// sends the dump requests it asks for.
///
/// It dumps the links, then the routes (one dump at a time: a netlink socket refuses a second
/// with EBUSY), then follows notifications. It starts over with fresh tables whenever they may
/// have missed something: an overrun (ENOBUFS), a dump the kernel marks interrupted, a deleted
/// route it did not hold. Views are published only from complete tables.
struct HostNetworkFollower: Sendable {
    /// A dump to request.
    enum Request: Equatable, Sendable {
        case links(sequence: UInt32)
        case routes(sequence: UInt32)
    }

    /// What handling messages asks of the reader.
    struct Outcome: Equatable, Sendable {
        /// A dump to request now.
        var request: Request? = nil
        /// The view changed (or is the first one): hand it on.
        var view: HostNetworkView? = nil
        /// The kernel refused a dump (a positive errno): the host cannot be followed.
        var failure: Int32? = nil
    }

    /// Where the follower is: in one of the two dumps (answers carry its sequence), or following.
    private enum Stage: Equatable {
        case dumpingLinks(sequence: UInt32)
        case dumpingRoutes(sequence: UInt32)
        case following
    }

    private(set) var tables = HostNetworkTables()
    private var stage: Stage = .following
    private var lastSequence: UInt32 = 0
    /// Something was missed while a dump ran: dump again once it ends.
    private var missed = false
    /// The last view handed on.
    private(set) var published: HostNetworkView? = nil

    init() {}

    /// The tables are complete and followed.
    var isFollowing: Bool { self.stage == .following && self.published != nil }

    /// Starts from scratch: fresh tables, and the link dump to request.
    mutating func start() -> Request {
        self.tables = HostNetworkTables()
        self.missed = false
        self.lastSequence &+= 1
        self.stage = .dumpingLinks(sequence: self.lastSequence)
        return .links(sequence: self.lastSequence)
    }

    /// Notifications were lost (the socket's buffer overran): start over, now or once the
    /// running dump ends.
    mutating func overrun() -> Outcome {
        guard self.stage == .following else {
            self.missed = true
            return Outcome()
        }
        return Outcome(request: self.start())
    }

    /// Applies one message.
    mutating func handle(_ envelope: RouteNetlinkEnvelope) -> Outcome {
        if envelope.dumpInterrupted, self.isAnswer(envelope.sequence) { self.missed = true }
        switch envelope.message {
        case .link(let link):
            self.tables.update(link)
        case .linkRemoved(let index):
            self.tables.removeLink(index: index)
        case .route(let route, let replacing):
            self.tables.add(route, replacing: replacing)
        case .routeRemoved(let route):
            if !self.tables.remove(route) {
                // A route that counted went away but was not in the tables: they drifted from
                // the kernel's. Mid-dump that is expected (the dump may not have reached it).
                if self.stage == .following { return Outcome(request: self.start()) }
            }
        case .done:
            return self.dumpEnded(envelope.sequence)
        case .error(let errno):
            guard self.isAnswer(envelope.sequence) else { return Outcome() }
            return Outcome(failure: errno)
        case .other:
            return Outcome()
        }
        return self.publishIfChanged()
    }

    /// The message answers the dump that runs now.
    private func isAnswer(_ sequence: UInt32) -> Bool {
        switch self.stage {
        case .dumpingLinks(let current), .dumpingRoutes(let current): sequence == current
        case .following: false
        }
    }

    private mutating func dumpEnded(_ sequence: UInt32) -> Outcome {
        guard self.isAnswer(sequence) else { return Outcome() }
        if self.missed { return Outcome(request: self.start()) }
        switch self.stage {
        case .dumpingLinks:
            self.lastSequence &+= 1
            self.stage = .dumpingRoutes(sequence: self.lastSequence)
            return Outcome(request: .routes(sequence: self.lastSequence))
        case .dumpingRoutes:
            self.stage = .following
            return self.publishIfChanged()
        case .following:
            return Outcome()
        }
    }

    private mutating func publishIfChanged() -> Outcome {
        guard self.stage == .following else { return Outcome() }
        let view = self.tables.view
        guard view != self.published else { return Outcome() }
        self.published = view
        return Outcome(view: view)
    }
}
