import SyncmonAdapters
import SyncmonClient
import SyncmonCore
import Testing

@testable import syncmon

/// What `syncmon wrap` plans to run for each `--tool`, and the events its reports become.
@Suite("syncmon wrap: plan and events")
struct WrapPlanTests {
    @Test("auto finds the tool through wrappers and adds its options")
    func auto() {
        let plan = WrapPlan(command: ["nice", "-n", "19", "restic", "backup", "/home"], choice: .auto, environment: [:])
        #expect(plan.tool == .restic)
        #expect(plan.arguments == ["nice", "-n", "19", "restic", "--json", "backup", "/home"])
        #expect(plan.environment == ["RESTIC_PROGRESS_FPS": "1"])
        #expect(plan.piped && plan.notice == nil)
    }

    @Test("any other command runs as it is, on wrap's own descriptors")
    func other() {
        let plan = WrapPlan(command: ["borg", "create", "::x", "/home"], choice: .auto, environment: [:])
        #expect(plan.tool == nil && !plan.piped)
        #expect(plan.arguments == ["borg", "create", "::x", "/home"])
    }

    @Test("--tool none leaves even a known tool alone")
    func none() {
        let plan = WrapPlan(command: ["rclone", "sync", "a", "b"], choice: .none, environment: [:])
        #expect(plan.tool == nil && plan.arguments == ["rclone", "sync", "a", "b"])
    }

    @Test("an explicit tool covers a renamed binary; a shell running it gets its output read, no options, and a notice")
    func explicit() {
        let renamed = WrapPlan(command: ["/opt/restic_0.14.0_linux_amd64", "backup", "/"], choice: .restic, environment: [:])
        #expect(renamed.arguments == ["/opt/restic_0.14.0_linux_amd64", "--json", "backup", "/"])
        let shell = WrapPlan(command: ["sh", "-c", "rclone sync a b"], choice: .rclone, environment: [:])
        #expect(shell.tool == .rclone && shell.piped)
        #expect(shell.arguments == ["sh", "-c", "rclone sync a b"])
        #expect(shell.notice?.contains("--use-json-log") == true)
    }

    @Test("the events a report becomes are the lines the daemon reads as the report's core payload", arguments: [Phase.import, .export])
    func events(_ phase: Phase) throws {
        let reports: [ToolReport] = [
            .progress(ProgressDelta(bytes: 1_000_000, files: 3, checks: 2, deletes: 1)),
            .progress(ProgressDelta(bytes: 65_536)),
            .problem(ToolProblem(.attemptFailed, message: "Attempt 1/3 failed with 1 errors and: directory not found")),
            .problem(ToolProblem(.requestRateLimited, message: "Received retry after error - sleeping until …", retryAfter: .seconds(60 as Int64))),
        ]
        let renderer = EventLineRenderer(engine: "job")
        for report in reports {
            let event: EngineEvent
            switch report {
            case .progress(let delta): event = WrapReporter.event(delta, phase: phase)
            case .problem(let problem): event = WrapReporter.event(problem, phase: phase)
            }
            let line = renderer.line(for: event, time: nil, sequence: nil)
            let decoded = try #require(EventDecoder().decode(Array(line.utf8)).payload, "\(line)")
            #expect(decoded == report.payload(for: phase), "\(line)")
        }
    }
}

extension DecodeResult {
    /// The payload of an accepted line.
    var payload: EventPayload? {
        if case .event(let event) = self { return event.payload }
        return nil
    }
}
