import SyncmonAdapters
import SyncmonClient
import SyncmonCore
import SyncmonHost

#if canImport(Glibc)
import Glibc
#endif

/// Turns a wrapped run's output into the run's events: what the tool's parser reports, and
/// progress from the bytes the process tree moves (docs/wrap.md).
///
/// Progress is gathered and sent at most once a second as one `sent…` (export) or `fetched…`
/// (import) batch, when ``ProgressGate`` finds the run alive in that second; problems are sent
/// as they come, as `error` events of the phase. It is only ever called from the process
/// thread, one call at a time.
final class WrapReporter: @unchecked Sendable {
    let client: SyncmonClient
    let phase: Phase
    private var parser: (any ToolOutputParser)?
    /// The tool's `\r`-started progress records are hidden: so are the bare `\r`s before them.
    private let hidesBareCarriageReturns: Bool
    /// Progress from /proc I/O, unless turned off.
    private var ioSignal: IOProgressSignal?
    private var tree: ProcessTreeIO?
    /// Progress not sent yet, and whether the run was alive in the latest second.
    private var gate = ProgressGate()

    init(client: SyncmonClient, phase: Phase, parser: (any ToolOutputParser)?, hidesBareCarriageReturns: Bool, watchesIO: Bool) {
        self.client = client
        self.phase = phase
        self.parser = parser
        self.hidesBareCarriageReturns = hidesBareCarriageReturns
        self.ioSignal = watchesIO ? IOProgressSignal() : nil
    }

    /// The tool's last words, for the message of a failed run.
    var lastError: String? { self.parser?.lastError }

    /// Reads one line of the tool's output and says how to show it.
    func line(_ stream: ToolOutputStream, _ line: LineSplitter.Line) -> LineDisplay {
        guard var parser = self.parser else { return .unchanged }
        if self.hidesBareCarriageReturns, stream == .standardOutput, line.isBareCarriageReturn { return .hidden }
        let parsed = parser.read(line.text, from: stream)
        self.parser = parser
        for report in parsed.reports {
            switch report {
            case .progress(let delta): self.gate.add(delta)
            case .problem(let problem): self.client.send(Self.event(problem, phase: self.phase))
            }
        }
        return parsed.display
    }

    /// Once a second while the command runs: samples the process tree's I/O and sends the
    /// progress gathered since the last tick.
    func tick(pid: pid_t, carried: Int64) {
        // The gates measure the time between samples: the monotonic clock's origin serves.
        let now = Timestamp(microseconds: MonotonicClock.now().microseconds)
        var moved: Int64?
        var readable = false
        if self.ioSignal != nil {
            if self.tree == nil { self.tree = ProcessTreeIO(root: pid) }
            if let total = self.tree?.total() {
                readable = true
                moved = self.ioSignal?.sample(treeBytes: total, carriedBytes: carried, at: now)
            }
        }
        if let batch = self.gate.tick(ioMoved: moved, ioReadable: readable, at: now) {
            self.client.send(Self.event(batch, phase: self.phase))
        }
    }

    /// Sends what is left when the command has ended: the files of its last seconds.
    func flush() {
        guard let batch = self.gate.drain() else { return }
        self.client.send(Self.event(batch, phase: self.phase))
    }

    /// Progress as the phase's batch event: files done are records saved (fetched).
    static func event(_ delta: ProgressDelta, phase: Phase) -> EngineEvent {
        let files = Int(clamping: delta.files)
        let deletes = Int(clamping: delta.deletes)
        switch phase {
        case .import: return .fetchedRecordZoneChanges(zone: nil, modifications: files, deletions: deletes)
        case .export, .setup: return .sentRecordZoneChanges(savedRecords: files, deletedRecords: deletes, failedRecordSaves: [], failedRecordDeletes: [])
        }
    }

    /// A problem as an `error` event of the phase, with the tool's words as its message.
    static func event(_ problem: ToolProblem, phase: Phase) -> EngineEvent {
        let retryAfter = problem.retryAfter.map { Duration.microseconds($0.microseconds) }
        return .error(
            phase: phase, error: EngineError(code: problem.code.description, message: problem.message.flatMap(ErrorMessage.clean), retryAfter: retryAfter))
    }
}
