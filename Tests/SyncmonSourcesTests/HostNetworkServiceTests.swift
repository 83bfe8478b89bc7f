import Logging
import ServiceLifecycle
import SyncmonContract
import SyncmonCore
import SyncmonLock
import Testing

@testable import SyncmonSources

/// `HostNetworkService` on this machine's own rtnetlink: the first view before the services
/// run, the modes that follow nothing, and a reader thread that stops at graceful shutdown.
@Suite("Host network: service")
struct HostNetworkServiceTests {
    /// What the service delivered.
    final class Deliveries: Sendable {
        private let storage = Locked<[HostNetworkService.Update]>([])
        var updates: [HostNetworkService.Update] { self.storage.withLock { $0 } }
        func append(_ update: HostNetworkService.Update) { self.storage.withLock { $0.append(update) } }
    }

    static let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    @Test("auto: the first view comes from the dumps, before run()")
    func firstView() throws {
        let deliveries = Deliveries()
        let service = HostNetworkService(mode: .auto, clock: SystemServiceClock(), logger: Self.logger) { deliveries.append($0) }
        service.start()
        let first = try #require(deliveries.updates.first)
        guard case .view = first else {
            Issue.record("rtnetlink should be open to a test: \(first)")
            return
        }
        #expect(deliveries.updates.count == 1)
    }

    @Test(
        "fixed views and off",
        arguments: [
            (HostNetworkMode.online, [HostNetworkService.Update.view(HostNetworkView(isOnline: true))]), (.offline, [.view(HostNetworkView(isOnline: false))]),
            (.off, []),
        ])
    func fixed(mode: HostNetworkMode, expected: [HostNetworkService.Update]) {
        let deliveries = Deliveries()
        HostNetworkService(mode: mode, clock: SystemServiceClock(), logger: Self.logger) { deliveries.append($0) }.start()
        #expect(deliveries.updates == expected)
    }

    /// A reader that missed the wake-up would block in poll(2) for ever: the run would never
    /// end. Not a timing bound (on a loaded machine the stop itself can take seconds): the
    /// stop has to happen at all, within a minute.
    @Test("the reader thread, blocked in poll(2), stops at graceful shutdown", .timeLimit(.minutes(1)), arguments: [HostNetworkMode.auto, .off])
    func gracefulShutdown(mode: HostNetworkMode) async throws {
        let service = HostNetworkService(mode: mode, clock: SystemServiceClock(), logger: Self.logger) { _ in }
        service.start()
        let group = ServiceGroup(configuration: .init(services: [service], logger: Self.logger))
        // The wake pipe keeps its byte until read, so this works whether or not the reader is
        // in poll(2) yet. A reader that never wakes fails the test at its time limit.
        async let run: Void = group.run()
        await group.triggerGracefulShutdown()
        try await run
    }
}
