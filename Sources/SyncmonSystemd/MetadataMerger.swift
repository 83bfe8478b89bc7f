import Logging

/// Merges the metadata layers of one log statement the way swift-log's own handlers do.
///
/// Both handlers use this, so a statement carries the same metadata whether it lands in the journal or on stderr.
enum MetadataMerger {
    /// The effective metadata: the handler's, then the provider's, then the statement's, later layers winning; an
    /// attached error adds `error.message` and `error.type`, as swift-log's `StreamLogHandler` does.
    static func merge(
        handler: Logger.Metadata,
        provider: Logger.MetadataProvider?,
        statement: Logger.Metadata?,
        error: (any Error)?
    ) -> Logger.Metadata {
        var metadata = handler
        if let provided = provider?.get(), !provided.isEmpty {
            metadata.merge(provided) { _, provided in provided }
        }
        if let statement, !statement.isEmpty {
            metadata.merge(statement) { _, statement in statement }
        }
        if let error {
            metadata["error.message"] = "\(error)"
            metadata["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        return metadata
    }
}
