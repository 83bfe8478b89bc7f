import Foundation
import Logging
import SyncmonContractTesting
import SyncmonCore
import SyncmonTestSupport
import Testing

@testable import SyncmonSources

/// The canary service on the manual clock (docs/canary.md), its file I/O on its own thread: it
/// writes this host's file, reads a peer's, and hands each status to the model. Real files in a
/// temporary folder; the clock is the test's, so intervals pass without waiting.
@Suite("Canary service on the manual clock")
struct CanaryServiceTests {
    @Test("writes its own file, reads a peer's, and hands the status to the model")
    func writesAndReads() async throws {
        let harness = try SourceHarness(name: "canary", kind: "canary")
        let folder = harness.directory.path("synced")
        try FileManager.default.createDirectory(atPath: folder + "/.syncmon", withIntermediateDirectories: true)
        let key = PairKey(engine: EngineName.parse("a")!, database: Database("shared")!)
        let configuration = CanaryConfiguration(path: folder, host: CanaryHost("me")!, interval: .seconds(Int64(60)))
        let service = CanaryService(
            canaries: [(key, configuration)], model: harness.model, clock: harness.clock, stateDirectory: harness.directory.path,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let task = Task(executorPreference: serviceExecutor) { try await service.run() }
        defer { task.cancel() }
        #expect(await harness.advance { FileManager.default.fileExists(atPath: folder + "/.syncmon/canary-me.json") })
        #expect(await harness.advance { Self.statuses(harness.model).last?.seq == 1 }, "\(harness.model.calls)")

        let peer = #"{"v":1,"host":"peer","seq":4,"written":"2026-11-26T12:00:00Z","seen":{"me":1}}"#
        try peer.write(toFile: folder + "/.syncmon/canary-peer.json", atomically: true, encoding: .utf8)
        #expect(
            await harness.advance { Self.statuses(harness.model).last?.peers.map(\.seq) == [4] },
            "\(Self.statuses(harness.model).last.map { "\($0)" } ?? "no status")")
        task.cancel()
        _ = await task.result
    }

    /// The canary statuses handed to the model, oldest first.
    static func statuses(_ model: RecordingSourceModel) -> [CanaryStatus] {
        model.calls.compactMap { call in
            guard case .canary(_, let status) = call else { return nil }
            return status
        }
    }
}
