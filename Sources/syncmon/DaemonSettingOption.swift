import ArgumentParser
import SyncmonCore
import SyncmonDaemon

// Where the command line meets the daemon's setting declarations (``DaemonSetting``): an
// option's name, help, checking and parsing come from its declaration. With `DaemonCommand`,
// the only file of the executable that imports SyncmonDaemon.

/// The name and help of a daemon option, taken from its setting's declaration, so that an
/// option is one line: `@Option(name: .setting(.listen), help: .setting(.listen)) var listen: [String] = []`.
extension NameSpecification {
    static func setting(_ setting: DaemonSetting) -> NameSpecification {
        .customLong(String((setting.flag ?? setting.key).dropFirst(2)))
    }

    /// A stall threshold's flag: `--no-progress-after`.
    static func threshold(_ reason: StallReason) -> NameSpecification {
        .setting(.threshold(reason))
    }
}

extension ArgumentHelp {
    static func setting(_ setting: DaemonSetting) -> ArgumentHelp {
        ArgumentHelp(SettingsReference.help(for: setting), valueName: setting.placeholder.lowercased())
    }

    /// A stall threshold's help.
    static func threshold(_ reason: StallReason) -> ArgumentHelp {
        .setting(.threshold(reason))
    }
}

/// The thresholds given, as the daemon's settings: checked and parsed by their declarations.
extension StallThresholdOptions {
    /// The thresholds given, as settings.
    var assignments: [SettingAssignment] {
        self.given.map { SettingAssignment(.threshold($0.reason), $0.text) }
    }

    func validate() throws {
        do {
            try SettingAssignment.check(self.assignments)
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// `base` with the thresholds given on the command line replaced (for `replay`).
    func applied(to base: StallThresholds) -> StallThresholds {
        var configuration = DaemonConfiguration.reference
        configuration.thresholds = base
        // Checked in `validate()`: no error is left here.
        try? SettingAssignment.apply(self.assignments, to: &configuration)
        return configuration.thresholds
    }
}
