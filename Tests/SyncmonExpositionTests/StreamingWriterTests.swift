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

    /// A sink that lends memory of its own and keeps what was committed, with every room asked for.
    final class RecordingSink: ExpositionPieceSink {
        private var storage = UnsafeMutableRawBufferPointer.allocate(byteCount: 0, alignment: 16)
        var pieces: [[UInt8]] = []
        var minimums: [Int] = []

        deinit { self.storage.deallocate() }

        func room(minimum: Int) -> UnsafeMutableRawBufferPointer {
            self.minimums.append(minimum)
            self.storage.deallocate()
            self.storage = .allocate(byteCount: minimum, alignment: 16)
            return self.storage
        }

        func commit(_ count: Int) {
            self.pieces.append(Array(UnsafeRawBufferPointer(rebasing: self.storage[..<count])))
        }
    }

    @Test("written into the sink's own memory, a piece at a time, a line longer than the room asking for more")
    func inPlace() throws {
        let sample = SampleExposition(engineCount: 40)
        let sink = RecordingSink()
        var writer = ExpositionWriter(format: .prometheusText, pieceSize: 4096, pieces: sink)
        sample.write(into: &writer)
        // One line far longer than a piece's room (5,120 bytes): it must get room of its own.
        let family = try MetricFamily(name: "long_label", help: "A label value longer than a piece.", kind: .gauge)
        writer.family(family)
        writer.sample(family, labels: LabelSet("value", String(repeating: "x", count: 20_000)), value: 1)
        #expect(writer.finish().isEmpty)
        var whole = ExpositionWriter(format: .prometheusText, capacity: 256)
        sample.write(into: &whole)
        whole.family(family)
        whole.sample(family, labels: LabelSet("value", String(repeating: "x", count: 20_000)), value: 1)
        #expect(Array(sink.pieces.joined()) == whole.finish())
        #expect(sink.pieces.count > 10)
        #expect(sink.minimums.allSatisfy { $0 >= 5120 }, "room is a piece and a quarter at least: \(sink.minimums)")
        #expect(sink.minimums.contains { $0 > 20_000 }, "the long line asked for room of its own: \(sink.minimums)")
        for piece in sink.pieces { #expect(piece.last == UInt8(ascii: "\n"), "pieces end at line boundaries") }
    }
}
