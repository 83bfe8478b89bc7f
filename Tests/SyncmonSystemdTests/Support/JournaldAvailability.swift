import Foundation
import Logging
import SyncmonTestSupport

@testable import SyncmonSystemd

/// Makes sure a journald answers before the integration test, starting one with `scripts/start-journald.sh` when
/// none does (containers have no systemd as PID 1), and says why when that is impossible.
enum JournaldAvailability {
    /// The outcome: journald answers, or the reason it does not.
    enum Status: Sendable {
        /// An entry can be sent to journald's socket.
        case available
        /// journald cannot be reached or started; the text says why.
        case unavailable(String)
    }

    /// Set to `1` to make the integration test fail, rather than skip, when journald cannot be reached.
    static let requireVariable = "SYNCMON_REQUIRE_JOURNALD"

    /// Whether journald takes entries now, tried with one harmless probe entry.
    static func probe() -> SystemdError? {
        let entry = JournalEntry(
            level: .debug,
            message: "syncmon test probe",
            metadata: ["syncmon.test_probe": "1"],
            label: "syncmon.tests",
            file: #fileID,
            function: #function,
            line: #line
        )
        do {
            try NativeJournalSink().send(entry)
            return nil
        } catch {
            return error
        }
    }

    /// Checks journald, runs the start script once if it does not answer, and checks again.
    static func ensure() throws -> Status {
        guard let firstFailure = Self.probe() else { return .available }
        let script = try PackageRoot.file("scripts/start-journald.sh")
        guard FileManager.default.isExecutableFile(atPath: script.path) else {
            return .unavailable("journald does not answer (\(firstFailure)) and \(script.path) is missing")
        }
        let output = try ExternalCommand.runBlocking(script.path, [])
        if let failure = Self.probe() {
            return .unavailable(
                "journald does not answer (\(failure)); scripts/start-journald.sh exited \(output.status): "
                    + output.errors.trimmingCharacters(in: .whitespacesAndNewlines)
            )
        }
        return .available
    }
}
