import SyncmonExposition
import SyncmonLock
import Testing

/// A streaming `ExpositionWriter` hands out the same bytes as a whole one, in pieces that end
/// at line boundaries and are never much larger than asked for.
@Suite("Streaming writer")
struct StreamingWriterTests {
    /// Collects the pieces a streaming writer hands out.
    final class Pieces: Sendable {
        let storage = Locked<[[UInt8]]>([])
        func append(_ piece: [UInt8]) { self.storage.withLock { $0.append(piece) } }
        var all: [[UInt8]] { self.storage.withLock { $0 } }
    }

    @Test("pieces concatenate to the whole exposition, in both formats", arguments: ExpositionFormat.allCases)
    func sameBytes(format: ExpositionFormat) {
        let sample = SampleExposition(engineCount: 40)
        let whole = sample.render(format)
        let pieces = Pieces()
        var writer = ExpositionWriter(format: format, pieceSize: 4096) { pieces.append(Array($0)) }
        sample.write(into: &writer)
        #expect(writer.finish().isEmpty)
        let collected = pieces.all
        #expect(collected.count > 10, "a 40-engine exposition is many 4 KiB pieces")
        #expect(Array(collected.joined()) == whole)
        for piece in collected {
            #expect(piece.last == UInt8(ascii: "\n"), "pieces end at line boundaries")
            #expect(piece.count < 4096 + 2048, "a piece is the threshold plus at most one line")
        }
    }
}
