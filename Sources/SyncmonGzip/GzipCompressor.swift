import CZlib

/// A gzip stream (RFC 1952): the one gzip of the HTTP server, fed piece by piece for `/metrics`
/// compressed as it is rendered, in one go for the other responses.
///
/// zlib's fastest level: an exposition is compressed once and read once, and it is so repetitive
/// that level 1 already shrinks it about 22 times; level 6 (zlib's default, and what
/// NIOHTTPCompression uses) saves another quarter of the bytes for three times the CPU (8 MiB:
/// ~25 ms against ~77 ms on one core).
///
/// Not thread-safe: one stream, one rendering thread.
package final class GzipCompressor {
    /// zlib keeps a pointer back to its `z_stream`, so it lives at a fixed address.
    private let stream: UnsafeMutablePointer<z_stream>
    private var output: [UInt8]

    /// - Parameter level: zlib's compression level, 1 (fastest) to 9.
    package init(level: Int32 = 1, outputSize: Int = 64 * 1024) {
        self.stream = .allocate(capacity: 1)
        self.stream.initialize(to: z_stream())
        self.output = [UInt8](repeating: 0, count: outputSize)
        // windowBits 15 + 16: a gzip header and trailer rather than a bare zlib stream.
        let status = deflateInit2_(self.stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        // Only an invalid level or an allocation failure makes this fail; both are programming
        // or fatal errors.
        precondition(status == Z_OK, "deflateInit2 failed: \(status)")
    }

    deinit {
        deflateEnd(self.stream)
        self.stream.deinitialize(count: 1)
        self.stream.deallocate()
    }

    /// Compresses `input`, lending the compressed bytes to `sink` as they come out (they are
    /// valid during the call only). With `finish`, ends the stream: nothing may follow.
    package func compress(_ input: UnsafeRawBufferPointer, finish: Bool = false, sink: (UnsafeRawBufferPointer) -> Void) {
        self.stream.pointee.next_in = input.baseAddress.map { UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: Bytef.self)) }
        self.stream.pointee.avail_in = uInt(input.count)
        let flush = finish ? Z_FINISH : Z_NO_FLUSH
        while true {
            var status = Z_OK
            var full = false
            self.output.withUnsafeMutableBytes { room in
                self.stream.pointee.next_out = room.baseAddress!.assumingMemoryBound(to: Bytef.self)
                self.stream.pointee.avail_out = uInt(room.count)
                status = deflate(self.stream, flush)
                let produced = room.count - Int(self.stream.pointee.avail_out)
                if produced > 0 { sink(UnsafeRawBufferPointer(rebasing: room[..<produced])) }
                full = self.stream.pointee.avail_out == 0
            }
            // Z_BUF_ERROR only means "no progress possible", i.e. everything is consumed.
            precondition(status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR, "deflate failed: \(status)")
            if finish ? status == Z_STREAM_END : !full { return }
        }
    }

    /// `bytes` as one gzip stream, for a response written whole.
    package static func gzip(_ bytes: [UInt8]) -> [UInt8] {
        let compressor = GzipCompressor()
        var output: [UInt8] = []
        bytes.withUnsafeBytes { input in
            compressor.compress(input, finish: true) { output.append(contentsOf: $0) }
        }
        return output
    }

    /// Ends the stream, lending the last bytes and the gzip trailer to `sink`.
    package func finish(sink: (UnsafeRawBufferPointer) -> Void) {
        self.compress(UnsafeRawBufferPointer(start: nil, count: 0), finish: true, sink: sink)
    }
}
