/// What the daemon's configuration says to every source, as one value from the configuration
/// to the sources: the sources never see the configuration itself.
package struct SourceOptions: Sendable {
    /// Where a source keeps its resume point.
    package var stateDirectory: String
    /// The longest event line in bytes (docs/configuration.md#limits).
    package var maximumLineLength: Int
    /// A `file:` source reads its file from the start rather than from its end.
    package var subscribeFromStart: Bool
    /// The `[source NAME]` sections, by name.
    package var settings: [String: SourceSettings]
    /// The process environment: systemd's `CREDENTIALS_DIRECTORY`.
    package var environment: [String: String]

    package init(
        stateDirectory: String,
        maximumLineLength: Int,
        subscribeFromStart: Bool,
        settings: [String: SourceSettings],
        environment: [String: String]
    ) {
        self.stateDirectory = stateDirectory
        self.maximumLineLength = maximumLineLength
        self.subscribeFromStart = subscribeFromStart
        self.settings = settings
        self.environment = environment
    }
}

/// A source that cannot be made from its settings (a missing key file, a rules file with a
/// problem); the daemon exits with it as a configuration error.
package struct SourceError: Error, CustomStringConvertible {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}
