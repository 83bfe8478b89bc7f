/// Where a streaming ``ExpositionWriter`` writes its pieces: in memory the sink lends it, so
/// that a piece is written once, where it is sent from, and never copied out of the writer.
///
/// The writer asks for ``room(minimum:)``, writes whole lines from its start, and hands the
/// piece over with ``commit(_:)`` once it is about a piece's size (and at the end); then it
/// asks for room again. Between the two calls the memory is the writer's alone.
public protocol ExpositionPieceSink: AnyObject {
    /// Memory for the next piece: at least `minimum` bytes, valid until ``commit(_:)``.
    func room(minimum: Int) -> UnsafeMutableRawBufferPointer

    /// The first `count` bytes of the room lent last are a piece, ending at a line's end.
    func commit(_ count: Int)
}
