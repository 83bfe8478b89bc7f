import NIOCore
import NIOHTTP1
import SyncmonContract

/// What an `http://` source does with one answer to its streaming GET, part by part as
/// AsyncHTTPClient hands them over (``StreamConnection``): the head decides NDJSON or SSE (or a
/// refusal), the body's bytes go to the ingest as they come, SSE ids and `retry:` to the resume
/// point, and a resumed SSE stream's replay of what was seen is skipped. No socket: a test hands
/// it the parts.
final class HTTPStreamReader {
    private enum Mode {
        case awaitingHead
        case ndjson
        case sse
        case refused
    }

    /// How long the server may take to answer the request (not to send events).
    static let headTimeout = TimeAmount.seconds(30)

    private let ingest: any SourceIngest
    private let health: SourceHealth
    private let record: AttemptRecord
    private let resume: StreamResume
    private let url: String
    private var mode = Mode.awaitingHead
    private var parser: ServerSentEventParser
    /// Still checking for replayed events at the start of a resumed SSE connection.
    private var checksReplay: Bool

    init(
        ingest: any SourceIngest,
        health: SourceHealth,
        record: AttemptRecord,
        resume: StreamResume,
        checksReplay: Bool,
        maximumLineLength: Int,
        lastEventID: String,
        url: String
    ) {
        self.ingest = ingest
        self.health = health
        self.record = record
        self.resume = resume
        self.checksReplay = checksReplay
        self.parser = ServerSentEventParser(maximumDataLength: maximumLineLength, lastEventID: lastEventID)
        self.url = url
    }

    /// The answer's head; `false` when it is not a stream to read (the attempt ends with its status).
    func head(status: HTTPResponseStatus, contentType: String?) -> Bool {
        guard (200..<300).contains(status.code), status != .noContent else {
            self.record.ended("HTTP \(status.code) \(status.reasonPhrase)")
            self.mode = .refused
            return false
        }
        let isSSE = (contentType?.lowercased() ?? "").hasPrefix("text/event-stream")
        self.mode = isSSE ? .sse : .ndjson
        self.resume.setKind(isSSE ? .sse : .ndjson)
        self.record.connected(at: self.ingest.clock.monotonicTime())
        self.health.connected("\(self.url), \(isSSE ? "text/event-stream" : "NDJSON")")
        return true
    }

    /// Bytes of the body, applied as far as they complete lines or events.
    func body(_ buffer: ByteBuffer) {
        switch self.mode {
        case .ndjson:
            buffer.withUnsafeReadableBytes { self.ingest.feed($0) }
            self.record.delivered(self.ingest.takeDelivered())
            self.resume.advance(lastEventID: nil, highestSequence: self.ingest.highestSequence)
        case .sse:
            buffer.withUnsafeReadableBytes { bytes in
                self.parser.feed(bytes) { self.handle($0) }
            }
            self.ingest.flush()
            self.record.delivered(self.ingest.takeDelivered())
            self.resume.advance(lastEventID: self.parser.lastEventID, highestSequence: self.ingest.highestSequence)
        case .awaitingHead, .refused:
            break
        }
    }

    /// The server ended the response.
    func end() {
        switch self.mode {
        case .ndjson:
            self.ingest.finish()
            self.record.delivered(self.ingest.takeDelivered())
            self.resume.advance(lastEventID: nil, highestSequence: self.ingest.highestSequence)
        case .sse:
            self.parser.finish()
        case .awaitingHead, .refused:
            break
        }
        self.record.ended("the server ended the response")
    }

    /// The connection failed or closed before the response ended; `reason` says how, when
    /// it says more than that the server closed it.
    func failed(_ reason: String?) {
        let closed = self.mode == .awaitingHead ? "the server closed the connection before answering" : "the server closed the connection"
        self.record.ended(reason ?? closed)
    }

    private func handle(_ output: ServerSentEventParser.Output) {
        switch output {
        case .retry(let milliseconds):
            self.resume.setRetry(milliseconds: milliseconds)
        case .event(let event):
            if self.checksReplay {
                if let id = event.id, self.resume.wasSeen(id) { return }
                self.checksReplay = false
            }
            if event.isTooLarge {
                self.ingest.addTooLarge()
            } else {
                self.ingest.add(document: event.data)
            }
            if let id = event.id, !id.isEmpty { self.resume.remember(id) }
        }
    }
}
