import ArgumentParser
import SyncmonDaemon

/// The name and help of a daemon option, taken from its setting's declaration, so that an
/// option is one line: `@Option(name: .setting(.listen), help: .setting(.listen)) var listen: [String] = []`.
extension NameSpecification {
    static func setting(_ setting: DaemonSetting) -> NameSpecification {
        .customLong(String((setting.flag ?? setting.key).dropFirst(2)))
    }
}

extension ArgumentHelp {
    static func setting(_ setting: DaemonSetting) -> ArgumentHelp {
        ArgumentHelp(SettingsReference.help(for: setting), valueName: setting.placeholder.lowercased())
    }
}
