import SyncmonTestSupport
import Testing

@testable import SyncmonGzip

/// gzip for the streamed `/metrics`: negotiation and the compressor itself, without sockets.
@Suite("gzip")
struct GzipTests {
    @Test(
        "Accept-Encoding admits gzip by name or by *, and never at q=0",
        arguments: [
            ([], false),
            (["gzip"], true),
            (["x-gzip"], true),
            (["GZIP"], true),
            (["deflate"], false),
            (["deflate, gzip;q=0.5"], true),
            (["gzip;q=0"], false),
            (["gzip; q=0.000"], false),
            (["*"], true),
            (["*;q=0"], false),
            (["gzip;q=0, *"], false),
            (["identity", "gzip"], true),
            (["br;q=1.0, gzip;q=0.8, *;q=0.1"], true),
            (["gzip;q=abc"], false),
        ] as [([String], Bool)]
    )
    func negotiation(values: [String], accepted: Bool) {
        #expect(ContentCoding.acceptsGzip(values) == accepted)
    }

    @Test("pieces compress to one gzip stream that gunzip reads back whole", arguments: [0, 1, 1000, 300_000])
    func roundTrip(lines: Int) async throws {
        var text: [UInt8] = []
        for line in 0..<lines {
            text += Array(#"syncmon_phase_runs_total{engine="engine-\#(line % 97)",database="private",phase="import"} \#(line)"#.utf8) + [10]
        }
        let compressor = GzipCompressor(outputSize: 4096)
        var compressed: [UInt8] = []
        // Uneven pieces, as the renderer hands them out.
        var offset = 0
        var piece = 1
        text.withUnsafeBytes { bytes in
            while offset < bytes.count {
                let end = min(bytes.count, offset + piece)
                compressor.compress(UnsafeRawBufferPointer(rebasing: bytes[offset..<end])) { compressed += $0 }
                offset = end
                piece = piece * 3 + 7
            }
        }
        compressor.finish { compressed += $0 }
        #expect(Array(compressed.prefix(2)) == [0x1F, 0x8B])
        #expect(try await ExternalCommand.gunzip(compressed) == text)
        if lines >= 1000 { #expect(compressed.count < text.count / 5) }
    }
}
