import Logging
import ServiceLifecycle
import Synchronization
import SyncmonCore
import Testing

@testable import SyncmonDaemon

/// `HostNetworkService` on this machine's own rtnetlink: the first view before the services
/// run, the modes that follow nothing, and a reader thread that stops at graceful shutdown.
@Suite("Host network: service")
struct HostNetworkServiceTests {
    /// What the service delivered.
    final class Deliveries: Sendable {
        private let storage = Mutex<[HostNetworkService.Update]>([])
        var updates: [HostNetworkService.Update] { self.storage.withLock { $0 } }
        func append(_ update: HostNetworkService.Update) { self.storage.withLock { $0.append(update) } }
    }

    static let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    @Test("auto: the first view comes from the dumps, before run()")
    func firstView() throws {
        let deliveries = Deliveries()
        let service = HostNetworkService(mode: .auto, logger: Self.logger) { deliveries.append($0) }
        service.start()
        let first = try #require(deliveries.updates.first)
        guard case .view = first else {
            Issue.record("rtnetlink should be open to a test: \(first)")
            return
        }
        #expect(deliveries.updates.count == 1)
    }

    @Test("fixed views and off", arguments: [(HostNetworkMode.online, [HostNetworkService.Update.view(HostNetworkView(isOnline: true))]), (.offline, [.view(HostNetworkView(isOnline: false))]), (.off, [])])
    func fixed(mode: HostNetworkMode, expected: [HostNetworkService.Update]) {
        let deliveries = Deliveries()
        HostNetworkService(mode: mode, logger: Self.logger) { deliveries.append($0) }.start()
        #expect(deliveries.updates == expected)
    }

    @Test("the reader thread, blocked in poll(2), stops at graceful shutdown", arguments: [HostNetworkMode.auto, .off])
    func gracefulShutdown(mode: HostNetworkMode) async throws {
        let service = HostNetworkService(mode: mode, logger: Self.logger) { _ in }
        service.start()
        let group = ServiceGroup(configuration: .init(services: [service], logger: Self.logger))
        let started = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            try await Task.sleep(for: .milliseconds(200))
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        #expect(ContinuousClock.now - started < .seconds(3))
    }
}
