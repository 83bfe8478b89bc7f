import SyncmonCore
// The settings framework is SyncmonSettings; the daemon's declarations are written against it,
// and whoever imports the daemon (the executable's option glue, the tests) reads them through
// its API, so it comes with the daemon.
@_exported import SyncmonSettings

/// One setting of `syncmon daemon`, declared once (DaemonSetting+Declarations.swift): from the
/// declarations come the daemon's options (names and help), the file parser and its errors, the
/// per-engine, per-source, canary and notify sections, the reload's "takes a restart" list
/// (``ReloadService``), and the reference (``SettingsReference``).
package typealias DaemonSetting = Setting<DaemonConfiguration>

/// A place in the daemon's configuration file: the top, or a section (ConfigSection.swift).
package typealias ConfigSection = SettingSection<DaemonConfiguration>

/// Where one place's value of a daemon setting goes in ``DaemonConfiguration``.
package typealias SettingTarget<Value: Sendable> = SettingStore<DaemonConfiguration, Value>

/// A daemon setting given on the command line, checked before anything runs (a bad value is a
/// usage error, exit 64) and applied over the file's settings at start and on every reload.
package typealias SettingAssignment = SettingOverride<DaemonConfiguration>

/// The reference text of the daemon's settings (SettingsReference+Daemon.swift).
package typealias SettingsReference = ReferenceText<DaemonConfiguration>

extension DaemonConfiguration: SettingsConfiguration {
    package static var settings: [DaemonSetting] { DaemonSetting.all }
}

extension ConfigFile {
    /// The flag (and file key) of a stall threshold: `not-syncing-after`, ….
    package static func flag(for reason: StallReason) -> String {
        String(reason.description.map { $0 == "_" ? "-" : $0 }) + "-after"
    }
}
