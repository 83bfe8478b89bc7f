import NIOCore
import NIOHTTP1
import SyncmonExposition
import SyncmonGzip

/// Sends a `/metrics` body from the thread that renders it: the renderer writes each piece
/// straight into the buffer it is sent from (or, gzipped, into a piece of its own that is
/// compressed into that buffer), and at most two pieces are in flight.
///
/// Written in place: the renderer wrote into a buffer of its own and each piece was copied into
/// a `ByteBuffer`, a quarter of the rendering thread's time at 1,400 pairs (8.4 MB a scrape).
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
final class StreamedResponseWriter: ExpositionPieceSink, @unchecked Sendable {
    private let channel: any Channel
    private let compressor: GzipCompressor?
    /// Gzipped, the renderer's room: each piece committed to it is compressed into `outgoing`.
    private var uncompressed: ExpositionPieceBuffer?
    private let pieceSize: Int
    private var outgoing: ByteBuffer
    /// Pieces being sent, with their buffers to take back once sent.
    private var inFlight: [(sent: EventLoopFuture<Void>, piece: ByteBuffer)] = []
    /// A sent piece's buffer, emptied, for the next piece.
    private var spare: ByteBuffer?
    private var failed = false

    /// Uncompressed bytes rendered so far.
    private(set) var renderedBytes = 0

    init(channel: any Channel, gzip: Bool, pieceSize: Int = MetricsRenderer.pieceSize) {
        self.channel = channel
        self.pieceSize = pieceSize
        self.outgoing = channel.allocator.buffer(capacity: Self.capacity(forPieceSize: pieceSize))
        let compressor = gzip ? GzipCompressor() : nil
        self.compressor = compressor
        self.uncompressed = nil
        // Unowned: the buffer is this writer's, and lends its pieces back only while it renders.
        self.uncompressed = compressor.map { compressor in
            ExpositionPieceBuffer { [unowned self] piece in
                guard !self.failed else { return }
                compressor.compress(piece) { self.append($0) }
            }
        }
    }

    /// Room for a piece plus what overshoots it: the renderer ends a piece at the line end past
    /// `pieceSize`, and a buffer of exactly `pieceSize` was reallocated, and the piece copied
    /// again, for every one of them.
    private static func capacity(forPieceSize pieceSize: Int) -> Int {
        pieceSize + pieceSize / 4
    }

    /// Room for the renderer: the outgoing buffer's free capacity, or the piece to compress.
    ///
    /// The pointer outlives `withUnsafeMutableWritableBytes` on purpose: the buffer is this
    /// writer's alone (a sent one is taken back only once the channel let go of it), so its
    /// storage neither moves nor is shared until `commit` moves its writer index, the next
    /// call on it.
    func room(minimum: Int) -> UnsafeMutableRawBufferPointer {
        if let uncompressed = self.uncompressed { return uncompressed.room(minimum: minimum) }
        self.outgoing.reserveCapacity(minimumWritableBytes: minimum)
        return self.outgoing.withUnsafeMutableWritableBytes { $0 }
    }

    /// The renderer wrote `count` bytes into the room: sent once a piece is full.
    func commit(_ count: Int) {
        self.renderedBytes += count
        if let uncompressed = self.uncompressed { return uncompressed.commit(count) }
        guard !self.failed else {
            // Rendered into nothing: the room is taken again from the start.
            self.outgoing.clear()
            return
        }
        self.outgoing.moveWriterIndex(forwardBy: count)
        if self.outgoing.readableBytes >= self.pieceSize { self.send() }
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
