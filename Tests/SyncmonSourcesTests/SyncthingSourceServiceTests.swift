import Foundation
import SyncmonContractTesting
import SyncmonCore
import SyncmonTestSupport
import Testing

@testable import SyncmonSources

/// A `syncthing+http://` source as a service on the manual clock (docs/syncthing.md, "When
/// Syncthing is unreachable"): a Syncthing that refuses is engine_down at the first try, and the
/// source's waits follow its schedule — 0.5 s doubling to 2 s, ±20 % — on the test's clock, each
/// try after the first counted as a reconnect. A real refused socket; no Syncthing, no waiting.
@Suite("syncthing: source on the manual clock")
struct SyncthingSourceServiceTests {
    @Test("refused: its pairs down at once, the source disconnected naming the address, waits of 0.5, 1, 2, 2 s")
    func refusedSchedule() async throws {
        let harness = try SourceHarness(name: "st", kind: "syncthing")
        let keyFile = harness.directory.path("key")
        try Data("key\n".utf8).write(to: URL(fileURLWithPath: keyFile))
        // A port nobody listens on: the kernel refuses at once.
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let url = refusing.url
        let source = SyncthingSource(baseURL: url, credential: SyncthingCredential(path: keyFile))
        let connection = SourceContext.connectionID(for: "st")
        await harness.run(source) {
            var waits: [Double] = []
            for _ in 0..<4 {
                guard await Polling.until({ !harness.clock.sleepingUntil.isEmpty }), let wake = harness.clock.sleepingUntil.first else {
                    Issue.record("the source never slept after a refusal")
                    return
                }
                waits.append(Double(wake.since(harness.clock.wallTime()).microseconds) / 1e6)
                harness.clock.advance(to: wake)
            }
            for (wait, planned) in zip(waits, [0.5, 1, 2, 2]) {
                #expect(wait >= planned * 0.8 - 0.001 && wait <= planned * 1.2 + 0.001, "waits \(waits)")
            }
            #expect(harness.model.calls.first == .sourceLost("st", connection: connection), "\(harness.model.calls)")
            let status = harness.health.status()
            #expect(status.state == .disconnected)
            #expect(status.lastError?.contains("127.0.0.1") == true, "\(status.lastError ?? "none")")
            #expect(status.reconnects >= 3, "\(status.reconnects)")
        }
    }
}
