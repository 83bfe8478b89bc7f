import SyncmonCore

/// A `[source NAME]` section of the configuration file.
package struct SourceSettings: Sendable, Equatable {
    /// A file holding the source's API key (Syncthing), used when systemd's credential
    /// directory has none for the source. Read when the source connects, never logged.
    package var apiKeyFile: String?
    /// A `unit:` source's `unit`, `phase`, `database` and `rules` (docs/systemd-units.md).
    package var unit = UnitSection()

    package init(apiKeyFile: String? = nil) {
        self.apiKeyFile = apiKeyFile
    }
}
