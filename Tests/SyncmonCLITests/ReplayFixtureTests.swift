import ArgumentParser
import Foundation
import SyncmonCore
import SyncmonTestSupport
import Testing

@testable import syncmon

/// Every recorded stream under `Tests/Fixtures/replay` must reach its expected verdict: rows,
/// summaries, stalls, phase states, error codes, rejection counts and exit code.
@Suite("Replay fixtures")
struct ReplayFixtureTests {
    @Test("fixture reaches its expected status (in process)", arguments: ReplayFixture.all)
    func fixture(_ fixture: ReplayFixture) throws {
        let expectation = try fixture.expectation()
        let command = try ReplayCommand.parse([fixture.streamPath, "--json"] + fixture.arguments())
        let report = try command.replay()

        let actual = try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any]
        let rows = actual?["engines"] as? [[String: Any]] ?? []
        let expectedRows = expectation["engines"] as? [[String: Any]] ?? []
        #expect(
            rows.map { "\($0["engine"] ?? "")/\($0["database"] ?? "")" }
                == expectedRows.map { "\($0["engine"] ?? "")/\($0["database"] ?? "")" },
            "rows"
        )
        for (expected, row) in zip(expectedRows, rows) {
            let mismatches = JSONSubset.mismatches(expected: expected, actual: row, path: "\(row["engine"] ?? "")")
            #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
        }

        var rejected: [String: Int] = [:]
        for reason in RejectionReason.allCases where report.session.monitor.rejectedCount(reason) > 0 {
            rejected[reason.description] = Int(report.session.monitor.rejectedCount(reason))
        }
        #expect(rejected == (expectation["rejected"] as? [String: Int] ?? [:]), "rejected line counts")
        #expect(report.severity.rawValue == expectation["exitCode"] as? Int32, "exit code")
    }

    @Test("the binary exits with the fixture's exit code and prints its rows", arguments: ReplayFixture.all)
    func binary(_ fixture: ReplayFixture) async throws {
        let expectation = try fixture.expectation()
        let result = try await SyncmonProcess.run(["replay", fixture.streamPath, "--json"] + fixture.arguments())
        #expect(result.status == expectation["exitCode"] as? Int32)
        let actual = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        let summaries = (actual?["engines"] as? [[String: Any]] ?? []).map { $0["summary"] as? String ?? "?" }
        let expectedSummaries = (expectation["engines"] as? [[String: Any]] ?? []).map { $0["summary"] as? String ?? "?" }
        #expect(summaries == expectedSummaries)
        #expect(result.standardError.hasPrefix("replay: "), "a summary of the lines read goes to stderr")
    }
}
