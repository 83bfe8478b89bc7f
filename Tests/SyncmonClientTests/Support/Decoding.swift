import Foundation
import SyncmonCore
import Testing

/// Decodes `line` with the daemon's own decoder, recording an issue when it is not an event.
func decodedEvent(_ line: String, fileID: String = #fileID, filePath: String = #filePath, sourceLine: Int = #line, column: Int = #column) -> Event? {
    let sourceLocation = SourceLocation(fileID: fileID, filePath: filePath, line: sourceLine, column: column)
    switch EventDecoder().decode(Array(line.utf8)) {
    case .event(let event):
        return event
    case .blank:
        Issue.record("blank line", sourceLocation: sourceLocation)
    case .rejected(let rejection):
        Issue.record("the daemon rejects \(line): \(rejection)", sourceLocation: sourceLocation)
    }
    return nil
}

/// The JSON object of a line, for checking keys the decoder does not keep.
func jsonObject(_ line: String) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
}

/// A failure digest built from codes (with retry-afters), as the decoder folds a list.
func digest(_ errors: SyncError...) -> FailureDigest {
    var digest = FailureDigest()
    for error in errors { digest.add(error) }
    return digest
}

/// A `SyncError` for a wire code.
func syncError(_ code: String, retryAfter seconds: Double? = nil, message: String? = nil) -> SyncError {
    SyncError(code: ErrorCode(name: InlineName(code)!), retryAfter: seconds.map { TimeSpan.seconds($0) }, message: message)
}
