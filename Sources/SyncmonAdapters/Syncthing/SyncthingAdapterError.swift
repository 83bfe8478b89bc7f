/// Why the adapter could not use what the I/O side handed it.
///
/// After either error the adapter wants a fresh snapshot (`needsSnapshot`): a body that does not
/// decode is most often a Syncthing that died in the middle of an answer (it sends the `200`
/// before it waits, so a cut-off long-poll looks like a short body).
public enum SyncthingAdapterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The body of `what` (a request path, or `/rest/events`) is not the JSON expected.
    case undecodable(what: String, detail: String)
    /// `SyncthingSnapshot.record` got an answer to a request the snapshot did not ask for.
    case unexpectedAnswer(SyncthingRequest)

    public var description: String {
        switch self {
        case .undecodable(let what, let detail): "undecodable answer to \(what): \(detail)"
        case .unexpectedAnswer(let request): "answer to a request the snapshot did not ask for: \(request)"
        }
    }
}
