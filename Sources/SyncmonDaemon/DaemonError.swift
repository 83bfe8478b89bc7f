/// Why the daemon cannot run, typed to the boundary: the executable prints it (the message
/// names the thing and the fix) and exits with its status (docs/operations.md, "Exit status of
/// `syncmon daemon`").
public enum DaemonError: Error, CustomStringConvertible, Equatable {
    /// The events socket or the state directory is another daemon's, or cannot be told not
    /// to be: 73 (EX_CANTCREAT).
    case taken(String)
    /// The configuration asks for what cannot be (a source's settings or credential, a rules
    /// file, a listen address): 78 (EX_CONFIG), as for an error in the file itself.
    case configuration(String)
    /// The system refused what the daemon needs (a socket, a directory, a file): 1.
    case system(String)

    public var description: String {
        switch self {
        case .taken(let message), .configuration(let message), .system(let message): message
        }
    }

    /// The daemon's exit status for it.
    public var exitCode: Int32 {
        switch self {
        case .taken: 73
        case .configuration: 78
        case .system: 1
        }
    }
}
