import SyncmonCore

/// How syncmon classes the error of one item a Syncthing pull could not complete (the `error`
/// of a `FolderErrors` entry or of `/rest/folder/errors`).
///
/// Transient — Syncthing retries by itself and the cause is elsewhere (docs/protocol.md, "Error
/// classes"): a peer that had the file went away or changed it meanwhile (`networkFailure`), or no connected device has
/// the needed version (`networkUnavailable`). Actionable — everything else (permission denied, a
/// file or directory in the way, no space left, …): code `pullFailed`, which someone on this host
/// has to fix. The strings are Syncthing's own (`lib/model/folder_sendrecv.go`, 1.19), matched
/// as substrings because Syncthing prefixes them with the step that failed (`syncing: …`).
public enum SyncthingPullError {
    /// The code of an actionable pull failure.
    public static let pullFailedCode = ErrorCode(name: InlineName("pullFailed")!)

    /// The code of a folder that stopped on a folder-level error (path or marker missing, …).
    public static let folderErrorCode = ErrorCode(name: InlineName("folderError")!)

    /// The error a failed item stands for.
    public static func classify(_ message: String) -> SyncError {
        // errNoDevice: "peers who had this file went away, or the file has changed while syncing. will retry later"
        if message.contains("peers who had this file went away") { return SyncError(code: ErrorCode(.networkFailure)) }
        // The peer answered that the file is gone: it changed there after its index went out
        // (protocol.ErrNoSuchFile, "pull: no such file"), as a file rewritten every few seconds
        // does (a canary's own). The new version's index follows and Syncthing pulls it: the
        // same case as errNoDevice's "the file has changed while syncing". Seen by the detection
        // matrix as a passing error on a healthy pair. Not the local "no such file or directory".
        if message.hasSuffix("pull: no such file") { return SyncError(code: ErrorCode(.networkFailure)) }
        // errNotAvailable: "no connected device has the required version of this file"
        if message.contains("no connected device has the required version") { return SyncError(code: ErrorCode(.networkUnavailable)) }
        return SyncError(code: Self.pullFailedCode)
    }

    /// What a list of failed items amounts to: the first actionable error, else the first
    /// transient one (the error a failed cycle shows), with the message of the item it came from.
    static func summarize(_ errors: [SyncthingJSON.PathError]) -> (error: SyncError, path: String, message: String, others: [SyncError])? {
        var first: (error: SyncError, path: String, message: String)? = nil
        var firstTransient: (error: SyncError, path: String, message: String)? = nil
        for item in errors {
            let message = Self.message(item.error ?? "")
            var error = Self.classify(message)
            let path = item.path ?? ""
            // The item and Syncthing's words, as the failure's message (docs/syncthing.md).
            error.message = ErrorMessage.clean(path.isEmpty ? message : "\(path): \(message)")
            let entry = (error: error, path: path, message: message)
            if error.errorClass == .transient {
                if firstTransient == nil { firstTransient = entry }
            } else if first == nil {
                first = entry
            }
        }
        guard let shown = first ?? firstTransient else { return nil }
        // The other class's first error is counted too, so that the cycle carries both kinds.
        let others = first != nil ? (firstTransient.map { [$0.error] } ?? []) : []
        return (shown.error, shown.path, shown.message, others)
    }

    /// An item's error as the log shows it: without the `syncing: ` that `FolderErrors` puts
    /// before the cause, and without its trailing newline.
    static func message(_ error: String) -> String {
        let text = Self.trimmed(error)
        return text.hasPrefix("syncing: ") ? String(text.dropFirst("syncing: ".count)) : text
    }

    /// Syncthing ends some messages with a newline.
    static func trimmed(_ message: String) -> String {
        var text = Substring(message)
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        return String(text)
    }
}
