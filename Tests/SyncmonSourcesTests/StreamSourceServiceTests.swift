import SyncmonContract
import SyncmonContractTesting
import SyncmonCore
import SyncmonLock
import SyncmonTestSupport
import Testing

@testable import SyncmonSources

/// The `unix:` and `http://` (SSE, NDJSON) sources' own logic as a service on the manual clock
/// (docs/subscribe.md): when they reconnect, what starts the schedule over, what an SSE server's
/// `retry:` changes, and where an HTTP stream resumes after a restart. A scripted engine stands
/// in for the socket; two tests use a real one, for what only it proves.
@Suite("Stream sources on the manual clock")
struct StreamSourceServiceTests {
    /// What the engine does on one connection.
    enum Step: Sendable, CustomStringConvertible {
        /// Nothing listens.
        case refused
        /// Answers, hands over `count` events, closes.
        case delivers(Int)
        /// Answers, stays up quiet for `seconds`, closes.
        case staysUp(seconds: Int64)
        /// An SSE server's `retry: milliseconds`, then it closes.
        case retry(milliseconds: Int)
        /// An SSE event with this id, then it closes.
        case event(id: String)

        var description: String {
            switch self {
            case .refused: "refused"
            case .delivers(let count): "delivers \(count)"
            case .staysUp(let seconds): "up \(seconds) s"
            case .retry(let milliseconds): "retry: \(milliseconds)"
            case .event(let id): "id: \(id)"
            }
        }
    }

    /// The engine's end, connection after connection; refuses once its script is done.
    final class ScriptedEngine: Sendable {
        let steps: [Step]
        let clock: ManualClock
        /// When each connection started, and the `Last-Event-ID` it would have sent.
        private let seen = Locked<[(start: MonotonicInstant, lastEventID: String?)]>([])

        init(_ steps: [Step], clock: ManualClock) {
            self.steps = steps
            self.clock = clock
        }

        var starts: [MonotonicInstant] { self.seen.withLock { $0.map(\.start) } }
        var lastEventIDs: [String?] { self.seen.withLock { $0.map(\.lastEventID) } }

        /// Seconds between one connection's start and the next's.
        var gaps: [Double] {
            let starts = self.starts
            return zip(starts, starts.dropFirst()).map { Double($1.since($0).microseconds) / 1_000_000 }
        }

        func source(_ target: StreamTarget) -> StreamSource {
            var source = StreamSource(url: "test:\(target)", target: target)
            source.backoff = ReconnectBackoff(initial: 0.5, maximum: 30, jitter: 0)
            source.makeAttempt = { connection in { await self.connect(connection.resume) } }
            return source
        }

        private func connect(_ resume: StreamResume) async -> AttemptOutcome {
            let now = self.clock.monotonicTime()
            let index = self.seen.withLock { seen in
                seen.append((now, resume.lastEventIDHeader))
                return seen.count - 1
            }
            let step = index < self.steps.count ? self.steps[index] : .refused
            switch step {
            case .refused:
                return AttemptOutcome(delivered: 0, reason: "Connection refused")
            case .delivers(let count):
                return AttemptOutcome(delivered: count, reason: "the server ended the response", connectedAt: now)
            case .staysUp(let seconds):
                try? await self.clock.sleep(for: .seconds(seconds))
                return AttemptOutcome(delivered: 0, reason: "the server closed the connection", connectedAt: now)
            case .retry(let milliseconds):
                resume.setKind(.sse)
                resume.setRetry(milliseconds: milliseconds)
                return AttemptOutcome(delivered: 0, reason: "the server ended the response", connectedAt: now)
            case .event(let id):
                resume.setKind(.sse)
                resume.advance(lastEventID: id, highestSequence: nil)
                return AttemptOutcome(delivered: 1, reason: "the server ended the response", connectedAt: now)
            }
        }
    }

    /// Moves the clock from one sleep's end to the next until `condition` holds: each time once
    /// the source's every task sleeps (an HTTP source's saver sleeps beside its connection loop),
    /// so the clock never passes a sleep that was about to begin.
    static func advance(_ harness: SourceHarness, _ target: StreamTarget, until condition: @Sendable () -> Bool) async -> Bool {
        let tasks = if case .http = target { 2 } else { 1 }
        for _ in 0..<400 {
            guard await Polling.until({ condition() || harness.clock.sleepingUntil.count >= tasks }) else { return false }
            if condition() { return true }
            harness.clock.advance(to: harness.clock.sleepingUntil[0])
        }
        return condition()
    }

    @Test(
        "reconnects wait 0.5 s doubling to 30 s; data, 10 s up or an SSE retry: change the schedule",
        arguments: [
            ([.refused, .refused, .refused, .refused, .refused, .refused, .refused, .refused], [0.5, 1, 2, 4, 8, 16, 30]),
            ([.refused, .refused, .delivers(3), .refused, .refused], [0.5, 1, 0.5, 1]),
            // Up for 10 s is healthy (a quiet engine): the next wait starts over, after the 10 s.
            ([.refused, .refused, .staysUp(seconds: 10), .refused], [0.5, 1, 10.5]),
            // Up for less is a failure like a refusal: the schedule goes on (2 s after the 9 s).
            ([.refused, .refused, .staysUp(seconds: 9), .refused], [0.5, 1, 11]),
            ([.retry(milliseconds: 5000), .refused, .refused, .refused], [5, 10, 20]),
            ([.retry(milliseconds: 60_000), .refused], [30]),
        ] as [([Step], [Double])]
    )
    func schedule(steps: [Step], gaps: [Double]) async throws {
        for target in [StreamTarget.unix(path: "/run/engine.sock"), .http(host: "127.0.0.1", port: 1, target: "/events")] {
            let harness = try SourceHarness(name: "engine", kind: "test")
            let engine = ScriptedEngine(steps, clock: harness.clock)
            await harness.run(engine.source(target)) {
                #expect(await Self.advance(harness, target, until: { engine.starts.count > gaps.count }), "\(target): \(engine.gaps)")
            }
            #expect(engine.gaps.prefix(gaps.count) == gaps[...], "\(target)")
            // Every connection after the first is a reconnect; the source is down between them.
            #expect(harness.health.sample().reconnects >= UInt64(gaps.count), "\(target)")
            #expect(harness.health.current != .connected, "\(target)")
        }
    }

    @Test("an SSE stream resumes from its last event id, after a reconnect and after a restart")
    func resumes() async throws {
        let harness = try SourceHarness(name: "engine", kind: "http")
        let target = StreamTarget.http(host: "127.0.0.1", port: 1, target: "/events")
        let first = ScriptedEngine([.event(id: "7"), .refused, .event(id: "8")], clock: harness.clock)
        await harness.run(first.source(target)) {
            #expect(await Self.advance(harness, target, until: { first.starts.count >= 4 }))
        }
        #expect(first.lastEventIDs.prefix(4) == [nil, "7", "7", "8"], "\(first.lastEventIDs)")

        // The resume point was saved: a restarted source asks for what follows id 8 at once.
        let second = ScriptedEngine([.refused], clock: harness.clock)
        await harness.run(second.source(target)) {
            #expect(await Self.advance(harness, target, until: { !second.starts.isEmpty }))
        }
        #expect(second.lastEventIDs.first == "8")

        // A point saved for another URL is not this one's.
        let moved = ScriptedEngine([.refused], clock: harness.clock)
        var source = moved.source(target)
        source = StreamSource(url: "http://127.0.0.1:2/events", target: target, backoff: source.backoff, makeAttempt: source.makeAttempt)
        await harness.run(source) {
            #expect(await Self.advance(harness, target, until: { !moved.starts.isEmpty }))
        }
        #expect(moved.lastEventIDs.first == .some(nil))
    }

    @Test("a moved resume point is saved within a second, while the stream runs")
    func savesWithinASecond() async throws {
        let harness = try SourceHarness(name: "engine", kind: "http")
        let engine = ScriptedEngine([.event(id: "41"), .staysUp(seconds: 3600)], clock: harness.clock)
        let file = SourceStateFile<StreamResumeDocument>(stateDirectory: harness.directory.path, name: "engine", suffix: "resume")
        let target = StreamTarget.http(host: "127.0.0.1", port: 1, target: "/events")
        let saved: @Sendable () -> Bool = {
            if case .success(let document)? = file.load() { document.lastEventID == "41" } else { false }
        }
        await harness.run(engine.source(target)) {
            #expect(await Self.advance(harness, target, until: { engine.starts.count == 2 }))
            let moved = harness.clock.monotonicTime()
            #expect(await Self.advance(harness, target, until: saved))
            #expect(harness.clock.monotonicTime().since(moved) <= .seconds(Int64(1)), "saved within a second of the event")
        }
    }

    static func line(_ seq: Int) -> String {
        #"{"v":1,"engine":"sock","type":"heartbeat","seq":\#(seq)}"#
    }

    /// The source over a real socket, its waits on the manual clock: what only a socket proves
    /// (the connection's end seen, the next one made, the bytes and the request on the wire).
    static func real(_ target: StreamTarget, url: String) -> StreamSource {
        StreamSource(url: url, target: target, backoff: ReconnectBackoff(initial: 0.5, maximum: 30, jitter: 0))
    }

    @Test("unix: over a real socket, the lines of each connection arrive and a closed one is dialled again")
    func unixSocket() async throws {
        let harness = try SourceHarness(name: "sock", kind: "unix")
        let path = harness.directory.path("engine.sock")
        let target = StreamTarget.unix(path: path)
        let server = try StreamTestServer.unix(path: path) { connection in
            let first = connection.server.connectionCount == 1
            for seq in first ? 1...3 : 4...5 { _ = connection.write(Self.line(seq) + "\n") }
            connection.close()
        }
        defer { server.stop() }
        await harness.run(Self.real(target, url: "unix:\(path)")) {
            #expect(await Self.advance(harness, target, until: { harness.model.lines.count >= 5 }), "\(harness.model.lines)")
        }
        #expect(harness.model.lines == (1...5).map(Self.line))
        #expect(server.connectionCount >= 2)
        #expect(harness.health.sample().reconnects >= 1)
    }

    @Test("http: over a real socket, an SSE stream that closes is resumed with Last-Event-ID")
    func sseSocket() async throws {
        let harness = try SourceHarness(name: "sock", kind: "http")
        let server = try StreamTestServer.tcp { connection in
            guard let request = try? connection.readRequest() else { return }
            _ = connection.writeStreamingHead(contentType: "text/event-stream")
            let next = Int(request.headers["last-event-id"] ?? "0").map { $0 + 1 } ?? 1
            for seq in next...(next + 1) { _ = connection.write("id: \(seq)\ndata: \(Self.line(seq))\n\n") }
            connection.close()
        }
        defer { server.stop() }
        let target = StreamTarget.http(host: "127.0.0.1", port: server.port, target: "/events")
        await harness.run(Self.real(target, url: server.baseURL + "/events")) {
            #expect(await Self.advance(harness, target, until: { harness.model.lines.count >= 4 }), "\(harness.model.lines)")
        }
        #expect(harness.model.lines.prefix(4) == (1...4).map(Self.line)[...])
        #expect(server.requests.first?.headers["last-event-id"] == nil)
        #expect(server.requests.dropFirst().first?.headers["last-event-id"] == "2")
    }
}
