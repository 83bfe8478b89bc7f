import SyncmonCore

/// Why ``SyncmonClient/run()`` refused to start.
public struct SyncmonClientError: Error, Hashable, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    /// ``SyncmonClient/run()`` was called while it was already running.
    public static let alreadyRunning = SyncmonClientError(description: "this SyncmonClient is already running")
}
