/// An ``ExpositionPieceSink`` with memory of its own, that lends each piece to a closure: the
/// streaming writer for callers that take bytes (a compressor, the tests, the benchmark).
public final class ExpositionPieceBuffer: ExpositionPieceSink {
    private var storage: UnsafeMutableRawBufferPointer
    private let lend: (UnsafeRawBufferPointer) -> Void

    /// Room for `capacity` bytes at first (it grows for a longer line); `lend` borrows each
    /// piece, valid during the call only.
    public init(capacity: Int, lend: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.storage = .allocate(byteCount: max(capacity, 256), alignment: 16)
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
