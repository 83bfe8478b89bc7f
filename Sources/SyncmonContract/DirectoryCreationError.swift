import SyncmonHost

/// A directory that could not be made: the path where `mkdir` failed (the directory asked for,
/// or one of its parents) and its errno, so that the caller can say it in its own terms.
public struct DirectoryCreationError: Error, CustomStringConvertible {
    public var path: String
    public var code: Int32

    public var description: String { "cannot create \(self.path): \(SystemErrorText.words(self.code))" }
}
