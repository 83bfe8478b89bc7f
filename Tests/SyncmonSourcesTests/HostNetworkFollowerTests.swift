import SyncmonCore
import Testing

@testable import SyncmonSources

/// The follower's protocol with the kernel: the link dump, then the route dump, then
/// notifications; a fresh start whenever the tables may have missed something.
@Suite("Host network: follower")
struct HostNetworkFollowerTests {
    static let eth0 = HostLink(index: 2, name: "eth0", isUp: true, isRunning: true)
    static let defaultRoute = HostRoute(family: .ipv4, interfaces: [2])

    static func message(_ message: RouteNetlinkMessage, _ sequence: UInt32 = 0, interrupted: Bool = false) -> RouteNetlinkEnvelope {
        RouteNetlinkEnvelope(message: message, sequence: sequence, dumpInterrupted: interrupted)
    }

    /// A follower through both dumps of a host with eth0 and a default route through it.
    static func synchronized() -> HostNetworkFollower {
        var follower = HostNetworkFollower()
        #expect(follower.start() == .links(sequence: 1))
        _ = follower.handle(Self.message(.link(Self.eth0), 1))
        #expect(follower.handle(Self.message(.done, 1)) == .init(request: .routes(sequence: 2)))
        _ = follower.handle(Self.message(.route(Self.defaultRoute, replacing: false), 2))
        #expect(follower.handle(Self.message(.done, 2)) == .init(view: HostNetworkView(isOnline: true, interfaces: ["eth0"])))
        #expect(follower.isFollowing)
        return follower
    }

    @Test("links, then routes, then the first view; nothing is published from half a dump")
    func startup() {
        var follower = HostNetworkFollower()
        #expect(!follower.isFollowing)
        #expect(follower.start() == .links(sequence: 1))
        #expect(follower.handle(Self.message(.link(Self.eth0), 1)) == .init())
        #expect(follower.handle(Self.message(.done, 1)) == .init(request: .routes(sequence: 2)))
        #expect(follower.handle(Self.message(.route(Self.defaultRoute, replacing: false), 2)) == .init())
        #expect(!follower.isFollowing)
        #expect(follower.handle(Self.message(.done, 2)).view == HostNetworkView(isOnline: true, interfaces: ["eth0"]))
        #expect(follower.isFollowing)
    }

    @Test("an empty host publishes offline")
    func emptyHost() {
        var follower = HostNetworkFollower()
        _ = follower.start()
        _ = follower.handle(Self.message(.done, 1))
        #expect(follower.handle(Self.message(.done, 2)).view == HostNetworkView(isOnline: false))
    }

    @Test("notifications publish each change once")
    func notifications() {
        var follower = Self.synchronized()
        #expect(follower.handle(Self.message(.routeRemoved(Self.defaultRoute))).view == HostNetworkView(isOnline: false))
        #expect(follower.handle(Self.message(.link(Self.eth0))) == .init())
        #expect(follower.handle(Self.message(.route(Self.defaultRoute, replacing: false))).view == HostNetworkView(isOnline: true, interfaces: ["eth0"]))
        var noCarrier = Self.eth0
        noCarrier.isRunning = false
        #expect(follower.handle(Self.message(.link(noCarrier))).view == HostNetworkView(isOnline: false))
        #expect(follower.handle(Self.message(.link(noCarrier))) == .init())
        #expect(follower.handle(Self.message(.link(Self.eth0))).view == HostNetworkView(isOnline: true, interfaces: ["eth0"]))
    }

    @Test("an overrun while following starts over at once; the view comes from the new dump")
    func overrunWhileFollowing() {
        var follower = Self.synchronized()
        #expect(follower.overrun() == .init(request: .links(sequence: 3)))
        #expect(follower.tables.routes.isEmpty)
        _ = follower.handle(Self.message(.link(Self.eth0), 3))
        #expect(follower.handle(Self.message(.done, 3)) == .init(request: .routes(sequence: 4)))
        // The route is gone meanwhile: the dump has none.
        #expect(follower.handle(Self.message(.done, 4)).view == HostNetworkView(isOnline: false))
    }

    @Test("an overrun during a dump waits for its end (a second dump would be refused with EBUSY)")
    func overrunDuringDump() {
        var follower = HostNetworkFollower()
        _ = follower.start()
        #expect(follower.overrun() == .init())
        #expect(follower.handle(Self.message(.done, 1)) == .init(request: .links(sequence: 2)))
    }

    @Test("a dump the kernel marks interrupted is done again")
    func interruptedDump() {
        var follower = HostNetworkFollower()
        _ = follower.start()
        _ = follower.handle(Self.message(.done, 1))
        _ = follower.handle(Self.message(.route(Self.defaultRoute, replacing: false), 2, interrupted: true))
        #expect(follower.handle(Self.message(.done, 2)) == .init(request: .links(sequence: 3)))
        #expect(!follower.isFollowing)
    }

    @Test("a deleted default the tables never held starts over while following, not mid-dump")
    func unknownDeletion() {
        var follower = HostNetworkFollower()
        _ = follower.start()
        #expect(follower.handle(Self.message(.routeRemoved(Self.defaultRoute))) == .init())
        var synchronized = Self.synchronized()
        let other = HostRoute(family: .ipv4, priority: 50, interfaces: [2])
        #expect(synchronized.handle(Self.message(.routeRemoved(other))) == .init(request: .links(sequence: 3)))
    }

    @Test("the end or refusal of an earlier dump is ignored; a refusal of the current one fails")
    func staleAndErrors() {
        var follower = HostNetworkFollower()
        _ = follower.start()
        #expect(follower.handle(Self.message(.done, 7)) == .init())
        #expect(follower.handle(Self.message(.error(16), 7)) == .init())
        #expect(follower.handle(Self.message(.error(1), 1)) == .init(failure: 1))
        var synchronized = Self.synchronized()
        #expect(synchronized.handle(Self.message(.done, 2)) == .init())
        #expect(synchronized.handle(Self.message(.other)) == .init())
    }
}
