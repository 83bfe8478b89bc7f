import SyncmonCore
import Testing

/// docs/protocol.md#transports, docs/protocol.md#validation: `\n`-framed lines whatever the chunk boundaries, oversized lines reported
/// once with re-synchronisation, and a last line without `\n` read at the end.
@Suite("LineFramer")
struct LineFramerTests {
    enum Output: Equatable, CustomStringConvertible {
        case line([UInt8])
        case tooLarge

        static func text(_ string: String) -> Output { .line(Array(string.utf8)) }

        var description: String {
            switch self {
            case .line(let bytes): "line(\(String(decoding: bytes, as: UTF8.self).debugDescription))"
            case .tooLarge: "tooLarge"
            }
        }
    }

    static func record(_ line: LineFramer.Line, into outputs: inout [Output]) {
        switch line {
        case .line(let bytes): outputs.append(.line(Array(bytes)))
        case .tooLarge: outputs.append(.tooLarge)
        }
    }

    /// Frames `stream` fed in chunks of the given sizes (the rest in one last chunk), then finishes.
    static func frame(_ stream: [UInt8], chunkSizes: [Int] = [], maximumLineLength: Int = 65_536) -> (fed: [Output], finished: [Output]) {
        var framer = LineFramer(maximumLineLength: maximumLineLength)
        var fed: [Output] = []
        var offset = 0
        var sizes = chunkSizes[...]
        while offset < stream.count {
            let size = min(sizes.popFirst() ?? stream.count, stream.count - offset)
            stream[offset..<(offset + size)].withUnsafeBytes { chunk in framer.feed(chunk) { record($0, into: &fed) } }
            offset += size
        }
        var finished: [Output] = []
        framer.finish { record($0, into: &finished) }
        return (fed, finished)
    }

    static func all(_ stream: [UInt8], chunkSizes: [Int] = [], maximumLineLength: Int = 65_536) -> [Output] {
        let (fed, finished) = frame(stream, chunkSizes: chunkSizes, maximumLineLength: maximumLineLength)
        return fed + finished
    }

    /// What the framer must produce, computed the plain way.
    static func reference(_ stream: [UInt8], maximumLineLength: Int) -> [Output] {
        var segments = stream.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
        let last = segments.removeLast()
        if !last.isEmpty { segments.append(last) }
        return segments.map { $0.count > maximumLineLength + 1 ? .tooLarge : .line($0) }
    }

    @Test("complete lines come out as they are completed, without their \\n")
    func simpleLines() {
        let (fed, finished) = Self.frame(Array("one\ntwo\n\nthree\n".utf8))
        #expect(fed == [.text("one"), .text("two"), .text(""), .text("three")])
        #expect(finished == [])
    }

    @Test("a last line without \\n is read at finish, and only then")
    func lastLineAtFinish() {
        let (fed, finished) = Self.frame(Array("one\ntwo".utf8))
        #expect(fed == [.text("one")])
        #expect(finished == [.text("two")])
    }

    @Test("a trailing \\r is left for the decoder")
    func carriageReturn() {
        #expect(Self.all(Array("one\r\ntwo\r".utf8)) == [.text("one\r"), .text("two\r")])
    }

    @Test("an empty chunk changes nothing")
    func emptyChunk() {
        var framer = LineFramer()
        var outputs: [Output] = []
        [UInt8]().withUnsafeBytes { framer.feed($0) { Self.record($0, into: &outputs) } }
        framer.finish { Self.record($0, into: &outputs) }
        #expect(outputs.isEmpty)
    }

    @Test("a line split over many chunks is reassembled")
    func splitLine() {
        var framer = LineFramer()
        var outputs: [Output] = []
        for piece in [#"{"v":1,"#, #""engine":"#, #""notes","type""#, #":"heartbeat"}"#, "\n{\"v\"", ":1}\n"] {
            Array(piece.utf8).withUnsafeBytes { framer.feed($0) { Self.record($0, into: &outputs) } }
        }
        #expect(outputs == [.text(#"{"v":1,"engine":"notes","type":"heartbeat"}"#), .text(#"{"v":1}"#)])
    }

    @Test("byte by byte gives the same lines as one chunk")
    func byteByByte() {
        let stream = Array("alpha\nbeta\r\n\ngamma\ndelta".utf8)
        let whole = Self.all(stream)
        #expect(whole == [.text("alpha"), .text("beta\r"), .text(""), .text("gamma"), .text("delta")])
        #expect(Self.all(stream, chunkSizes: Array(repeating: 1, count: stream.count)) == whole)
    }

    @Test("an oversized line is reported once as tooLarge and the stream re-synchronises")
    func oversized() {
        let stream = Array(("short\n" + String(repeating: "x", count: 30) + "\nnext\n").utf8)
        let expected: [Output] = [.text("short"), .tooLarge, .text("next")]
        #expect(Self.all(stream, maximumLineLength: 8) == expected)
        #expect(Self.all(stream, chunkSizes: Array(repeating: 1, count: stream.count), maximumLineLength: 8) == expected)
        #expect(Self.all(stream, chunkSizes: [7, 3], maximumLineLength: 8) == expected)
        #expect(Self.all(stream, chunkSizes: [6, 31], maximumLineLength: 8) == expected)
    }

    @Test("the limit: max bytes pass, max bytes + \\r pass, max + 2 bytes are too large")
    func boundaries() {
        for chunking in [[], [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], [3], [9]] {
            #expect(Self.all(Array("12345678\n".utf8), chunkSizes: chunking, maximumLineLength: 8) == [.text("12345678")], "\(chunking)")
            #expect(Self.all(Array("12345678\r\n".utf8), chunkSizes: chunking, maximumLineLength: 8) == [.text("12345678\r")], "\(chunking)")
            #expect(Self.all(Array("1234567890\nok\n".utf8), chunkSizes: chunking, maximumLineLength: 8) == [.tooLarge, .text("ok")], "\(chunking)")
        }
    }

    @Test("an oversized last line without \\n is reported once at finish")
    func oversizedAtEnd() {
        let stream = Array(("ok\n" + String(repeating: "y", count: 100)).utf8)
        for chunking in [[], [3, 10, 10], Array(repeating: 1, count: 103)] {
            let (fed, finished) = Self.frame(stream, chunkSizes: chunking, maximumLineLength: 8)
            #expect(fed == [.text("ok")], "\(chunking)")
            #expect(finished == [.tooLarge], "\(chunking)")
        }
    }

    @Test("finish resets the framer: a new stream starts clean")
    func finishResets() {
        var framer = LineFramer(maximumLineLength: 8)
        var outputs: [Output] = []
        Array(String(repeating: "z", count: 50).utf8).withUnsafeBytes { framer.feed($0) { Self.record($0, into: &outputs) } }
        framer.finish { Self.record($0, into: &outputs) }
        framer.finish { Self.record($0, into: &outputs) }
        Array("fresh\n".utf8).withUnsafeBytes { framer.feed($0) { Self.record($0, into: &outputs) } }
        #expect(outputs == [.tooLarge, .text("fresh")])
    }

    @Test("random chunkings of a mixed stream give the reference lines", arguments: [1 as UInt64, 2, 3, 4, 5, 6, 7, 8])
    func randomChunks(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let limit = 16
        // Lines of every interesting length around the limit, blank lines, CRLF.
        var stream: [UInt8] = []
        for _ in 0..<200 {
            let length = [0, 1, 5, limit - 1, limit, limit + 1, limit + 2, 3 * limit, Int.random(in: 0...40, using: &random)].randomElement(using: &random)!
            stream += (0..<length).map { _ in UInt8.random(in: 0x21...0x7E, using: &random) }
            if Bool.random(using: &random) { stream.append(UInt8(ascii: "\r")) }
            stream.append(UInt8(ascii: "\n"))
        }
        if Bool.random(using: &random) { stream += Array("tail-without-newline".utf8) }
        let expected = Self.reference(stream, maximumLineLength: limit)
        #expect(expected.contains(.tooLarge))
        #expect(Self.all(stream, maximumLineLength: limit) == expected)
        for _ in 0..<10 {
            let sizes = (0..<stream.count).map { _ in Int.random(in: 1...40, using: &random) }
            #expect(Self.all(stream, chunkSizes: sizes, maximumLineLength: limit) == expected)
        }
        #expect(Self.all(stream, chunkSizes: Array(repeating: 1, count: stream.count), maximumLineLength: limit) == expected)
    }

    @Test("framer and decoder together: 65,536 bytes accepted, 65,537 rejected, whatever the chunking")
    func withDecoder() {
        let head = Array(#"{"v":1,"engine":"notes","type":"heartbeat","pad":""#.utf8)
        func line(_ length: Int) -> [UInt8] {
            head + [UInt8](repeating: UInt8(ascii: "a"), count: length - head.count - 2) + Array(#""}"#.utf8)
        }
        let newline = UInt8(ascii: "\n")
        let cr = UInt8(ascii: "\r")
        let stream =
            line(65_536) + [newline] + line(65_537) + [newline] + line(65_536) + [cr, newline] + line(65_537) + [cr, newline]
            + line(200_000) + [newline] + line(100) + [newline] + line(65_536)
        let decoder = EventDecoder()
        for chunking in [[], [4096, 4096, 4096], [65_535, 2, 65_535], [1_000_000]] {
            var framer = LineFramer()
            var results: [String] = []
            func handle(_ line: LineFramer.Line) {
                switch line {
                case .tooLarge: results.append("too_large")
                case .line(let bytes):
                    switch decoder.decode(bytes) {
                    case .event: results.append("event")
                    case .blank: results.append("blank")
                    case .rejected(let rejection): results.append(rejection.reason.description)
                    }
                }
            }
            var offset = 0
            var sizes = chunking[...]
            while offset < stream.count {
                let size = min(sizes.popFirst() ?? 8192, stream.count - offset)
                stream[offset..<(offset + size)].withUnsafeBytes { framer.feed($0, handle) }
                offset += size
            }
            framer.finish(handle)
            #expect(results == ["event", "too_large", "event", "too_large", "too_large", "event", "event"], "\(chunking)")
        }
    }
}
