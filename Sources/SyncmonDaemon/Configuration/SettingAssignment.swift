/// A setting given on the command line: the flag's value as typed (`"true"` for an on/off flag).
/// The daemon's options turn into a list of these, checked before anything runs (a bad value is a
/// usage error, exit 64) and applied over the file's settings at start and on every reload.
public struct SettingAssignment: Sendable {
    public let setting: DaemonSetting
    public let text: String

    public init(_ setting: DaemonSetting, _ text: String) {
        self.setting = setting
        self.text = text
    }

    /// The assignments of an option that takes a value, once per time it was given.
    public static func given(_ setting: DaemonSetting, _ values: [String]) -> [SettingAssignment] {
        values.map { SettingAssignment(setting, $0) }
    }

    /// The assignment of an option given at most once.
    public static func given(_ setting: DaemonSetting, _ value: String?) -> [SettingAssignment] {
        value.map { [SettingAssignment(setting, $0)] } ?? []
    }

    /// The assignment of an on/off flag, when it was given.
    public static func given(_ setting: DaemonSetting, _ isOn: Bool) -> [SettingAssignment] {
        isOn ? [SettingAssignment(setting, "true")] : []
    }

    /// Checks every value; the error names the flag, the value and what to write instead.
    public static func check(_ assignments: [SettingAssignment]) throws(SettingValueError) {
        for assignment in assignments {
            do {
                try assignment.setting.check(assignment.text)
            } catch {
                throw SettingValueError("\(assignment.setting): \(error.message)")
            }
        }
    }

    /// Applies the flags over `configuration`: a repeated flag's values replace the list before.
    public static func apply(_ assignments: [SettingAssignment], to configuration: inout DaemonConfiguration) throws(SettingValueError) {
        var started = Set<String>()
        for assignment in assignments {
            let setting = assignment.setting
            if setting.isRepeatable, started.insert(setting.key).inserted { setting.clearList(in: &configuration) }
            do {
                try setting.assign(assignment.text, to: &configuration)
            } catch {
                throw SettingValueError("\(setting): \(error.message)")
            }
        }
    }
}
