/// A response the blocking HTTP client could not make sense of (the connection itself fails
/// with a ``SocketError``).
public struct HTTPFailure: Error, Hashable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
