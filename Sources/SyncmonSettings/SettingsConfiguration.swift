/// A configuration that settings are declared for: a value built from defaults, then a file
/// (``ConfigFile``), then command-line flags (``SettingOverride``), each setting declared once as
/// a ``Setting`` of it.
///
/// The daemon's `DaemonConfiguration` is one; this module knows nothing of what it holds.
public protocol SettingsConfiguration: Sendable {
    /// Every setting, in the order of help and the reference.
    static var settings: [Setting<Self>] { get }
    /// The defaults as the reference shows them, and the scratch value a flag is checked against.
    static var reference: Self { get }
    /// The line of each section's header in the file, by `WORD NAME`: for errors about a
    /// section as a whole, found after the file is read.
    var sectionLines: [String: Int] { get set }
}
