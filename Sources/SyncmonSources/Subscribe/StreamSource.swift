import AsyncHTTPClient
import Logging
import NIOCore
import SyncmonContract
import SyncmonCore
import SyncmonSystemd

/// A `unix:` or `http://` source: connect, read until the connection ends, wait, again, with
/// capped exponential backoff and jitter. An HTTP source keeps its resume point (the SSE
/// `Last-Event-ID`, or the highest `seq` for `?since=`) in the state directory.
struct StreamSource: EventSource {
    /// One connection's run: how it went. A test's stands in for the socket.
    typealias Attempt = @Sendable () async -> AttemptOutcome

    /// The URL as configured, for messages and to tell whether a saved resume point is ours.
    let url: String
    let target: StreamTarget
    /// The schedule of reconnects (a test's is without jitter).
    var backoff = ReconnectBackoff.standard
    /// What the source runs again and again: the connection, unless a test says otherwise.
    var makeAttempt: @Sendable (StreamConnection) -> Attempt = { connection in { await connection.run() } }

    func run(in context: SourceContext) async {
        let isHTTP = if case .http = self.target { true } else { false }
        let resumeFile = SourceStateFile<StreamResumeDocument>(stateDirectory: context.stateDirectory, name: context.name, suffix: "resume")
        let resume = isHTTP ? self.loadResume(resumeFile, context: context) : StreamResume()
        let connectTimeout = TimeAmount.seconds(10)
        let client = isHTTP ? StreamConnection.makeClient(group: context.group, connectTimeout: connectTimeout) : nil
        let attempt = self.makeAttempt(
            StreamConnection(target: self.target, url: self.url, context: context, resume: resume, connectTimeout: connectTimeout, client: client)
        )
        await withTaskGroup(of: Void.self) { group in
            if isHTTP {
                // The resume point is saved at most a second after it moved.
                group.addTask {
                    while !Task.isCancelled {
                        try? await context.clock.sleep(for: .seconds(Int64(1)))
                        self.saveResume(resume, to: resumeFile, context: context)
                    }
                }
            }
            group.addTask {
                var backoff = self.backoff
                var attempts = 0
                while !Task.isCancelled {
                    if attempts > 0 { context.health.countReconnect() }
                    attempts += 1
                    let outcome = await attempt()
                    if Task.isCancelled { break }
                    // A healthy connection (it delivered lines, or stayed up a while: a quiet
                    // engine, a long poll that ended empty) starts the schedule over.
                    if outcome.delivered > 0 || outcome.connectedAt.map({ context.clock.monotonicTime().since($0) >= .seconds(Int64(10)) }) == true {
                        backoff.reset()
                    }
                    if let retry = resume.current.retryMilliseconds {
                        // The SSE server's `retry:` sets the first delay (within the cap).
                        backoff.initial = min(Double(retry) / 1000, backoff.maximum)
                    }
                    let delay = backoff.nextDelay()
                    context.health.disconnected(outcome.reason ?? "connection closed", retryIn: delay)
                    try? await context.clock.sleep(for: .seconds(delay))
                }
            }
            await group.next()
            group.cancelAll()
        }
        if isHTTP { self.saveResume(resume, to: resumeFile, context: context) }
        try? await client?.shutdown()
    }

    private func loadResume(_ file: SourceStateFile<StreamResumeDocument>, context: SourceContext) -> StreamResume {
        switch file.load() {
        case .success(let document)? where document.url == self.url:
            return StreamResume(
                StreamResume.State(
                    lastEventID: document.lastEventID ?? "",
                    highestSequence: document.since,
                    kind: document.kind.flatMap(StreamResume.Kind.init(rawValue:))
                )
            )
        case .failure(let error)?:
            context.logger.warning(
                "subscribe source resume file unreadable; starting afresh",
                metadata: context.metadata.merging([SyncmonMetadataKey.statePath: "\(file.path)", SyncmonMetadataKey.reason: "\(error)"]) { $1 }
            )
            return StreamResume()
        default:
            return StreamResume()
        }
    }

    private func saveResume(_ resume: StreamResume, to file: SourceStateFile<StreamResumeDocument>, context: SourceContext) {
        guard let state = resume.takeDirty() else { return }
        let document = StreamResumeDocument(
            url: self.url,
            lastEventID: state.lastEventID.isEmpty ? nil : state.lastEventID,
            since: state.highestSequence,
            kind: state.kind?.rawValue
        )
        do {
            try file.save(document)
        } catch {
            context.logger.error(
                "subscribe source cannot save its resume point",
                metadata: context.metadata.merging([SyncmonMetadataKey.statePath: "\(file.path)", SyncmonMetadataKey.reason: "\(error)"]) { $1 }
            )
        }
    }
}
