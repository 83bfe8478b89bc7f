import SyncmonCore

/// A `[source NAME]` section of the configuration file. Public for the configuration fuzz target
/// (Fuzz/, a package of its own), which checks `apiKeyFile`.
public struct SourceSettings: Sendable, Equatable {
    /// A file holding the source's API key (Syncthing), used when systemd's credential
    /// directory has none for the source. Read when the source connects, never logged.
    public var apiKeyFile: String?
    /// A `unit:` source's `unit`, `phase`, `database` and `rules` (docs/systemd-units.md).
    package var unit = UnitSection()

    public init(apiKeyFile: String? = nil) {
        self.apiKeyFile = apiKeyFile
    }
}
