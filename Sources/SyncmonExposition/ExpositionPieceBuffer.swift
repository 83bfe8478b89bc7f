/// An ``ExpositionPieceSink`` with memory of its own, that lends each piece to a closure: the
/// streaming writer for callers that take bytes (a compressor, the tests, the benchmark).
public final class ExpositionPieceBuffer: ExpositionPieceSink {
    /// Allocated at the first room asked for (the writer asks for a piece and a quarter), and
    /// again larger only for a line longer than that.
    private var storage = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    private let lend: (UnsafeRawBufferPointer) -> Void

    /// `lend` borrows each piece, valid during the call only.
    public init(lend: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.lend = lend
    }

    deinit {
        self.storage.deallocate()
    }

    public func room(minimum: Int) -> UnsafeMutableRawBufferPointer {
        if minimum > self.storage.count {
            self.storage.deallocate()
            self.storage = .allocate(byteCount: minimum, alignment: 16)
        }
        return self.storage
    }

    public func commit(_ count: Int) {
        self.lend(UnsafeRawBufferPointer(rebasing: self.storage[..<count]))
    }
}
