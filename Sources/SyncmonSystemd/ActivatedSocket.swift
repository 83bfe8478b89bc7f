/// A socket the service manager opened and passed to the daemon (socket activation).
public struct ActivatedSocket: Sendable, Hashable {
    /// The open file descriptor, `3` for the first socket.
    public let fileDescriptor: Int32

    /// The socket unit's `FileDescriptorName=`, or `unknown` when it set none.
    public let name: String

    /// Creates a description of a passed socket.
    public init(fileDescriptor: Int32, name: String) {
        self.fileDescriptor = fileDescriptor
        self.name = name
    }
}
