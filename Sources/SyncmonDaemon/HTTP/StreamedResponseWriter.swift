import NIOCore
import NIOHTTP1
import SyncmonGzip

/// Sends a `/metrics` body from the thread that renders it: gzips it when asked, gathers the
/// output into pieces, and keeps at most two pieces in flight.
///
/// Two in flight — one being sent, one queued behind it — lets rendering and sending overlap
/// without the whole exposition piling up in the channel's outbound buffer (81 MiB at 10,000
/// pairs). A piece's buffer, once sent, takes the next piece: a fresh buffer for every piece
/// was faulted in page by page (a sent one, freed at the top of the heap, went back to the
/// kernel), 2,000 page faults for an 8.7 MB scrape. When a write fails (the client went away)
/// the rest is rendered into nothing.
///
/// Used by one rendering thread, which may block: one of the HTTP service's rendering threads,
/// never an event loop or a thread of the global pool.
final class StreamedResponseWriter: @unchecked Sendable {
    private let channel: any Channel
    private let compressor: GzipCompressor?
    private let pieceSize: Int
    private var outgoing: ByteBuffer
    /// Pieces being sent, with their buffers to take back once sent.
    private var inFlight: [(sent: EventLoopFuture<Void>, piece: ByteBuffer)] = []
    /// A sent piece's buffer, emptied, for the next piece.
    private var spare: ByteBuffer?
    private var failed = false

    /// Uncompressed bytes rendered so far.
    private(set) var renderedBytes = 0

    init(channel: any Channel, gzip: Bool, pieceSize: Int = 256 * 1024) {
        self.channel = channel
        self.compressor = gzip ? GzipCompressor() : nil
        self.pieceSize = pieceSize
        self.outgoing = channel.allocator.buffer(capacity: Self.capacity(forPieceSize: pieceSize))
    }

    /// Room for a piece plus what overshoots it: the renderer hands over pieces that end at a
    /// line end past `pieceSize` (`MetricsRenderer.stream`), and a buffer of exactly
    /// `pieceSize` was reallocated, and the piece copied again, for every one of them.
    private static func capacity(forPieceSize pieceSize: Int) -> Int {
        pieceSize + pieceSize / 4
    }

    /// Takes rendered bytes (borrowed for the call).
    func write(_ bytes: UnsafeRawBufferPointer) {
        guard !self.failed else { return }
        self.renderedBytes += bytes.count
        if let compressor = self.compressor {
            compressor.compress(bytes) { self.append($0) }
        } else {
            self.append(bytes)
        }
    }

    /// Sends what is left and ends the response; the future completes when the end is written.
    func finish() -> EventLoopFuture<Void> {
        if !self.failed {
            self.compressor?.finish { self.append($0) }
            if self.outgoing.readableBytes > 0 { self.send() }
        }
        return self.channel.writeAndFlush(HTTPServerResponsePart.end(nil))
    }

    private func append(_ bytes: UnsafeRawBufferPointer) {
        self.outgoing.writeBytes(bytes)
        if self.outgoing.readableBytes >= self.pieceSize { self.send() }
    }

    private func send() {
        while !self.failed, self.inFlight.count >= 2 {
            var (sent, piece) = self.inFlight.removeFirst()
            do {
                try sent.wait()
                // Sent: the channel let go of it, so emptying it keeps its memory.
                piece.clear()
                self.spare = piece
            } catch {
                self.failed = true
            }
        }
        guard !self.failed else { return }
        let piece = self.outgoing
        self.outgoing = self.spare.take() ?? self.channel.allocator.buffer(capacity: Self.capacity(forPieceSize: self.pieceSize))
        self.inFlight.append((self.channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(piece))), piece))
    }
}
