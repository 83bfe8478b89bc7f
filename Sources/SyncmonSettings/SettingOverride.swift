/// A setting given on the command line: the flag's value as typed (`"true"` for an on/off flag).
/// A command's options turn into a list of these, checked before anything runs (a bad value is a
/// usage error) and applied over the file's settings at start and on every reload.
public struct SettingOverride<Configuration: SettingsConfiguration>: Sendable {
    public let setting: Setting<Configuration>
    public let text: String

    public init(_ setting: Setting<Configuration>, _ text: String) {
        self.setting = setting
        self.text = text
    }

    /// The assignments of an option that takes a value, once per time it was given.
    public static func given(_ setting: Setting<Configuration>, _ values: [String]) -> [SettingOverride] {
        values.map { SettingOverride(setting, $0) }
    }

    /// The assignment of an option given at most once.
    public static func given(_ setting: Setting<Configuration>, _ value: String?) -> [SettingOverride] {
        value.map { [SettingOverride(setting, $0)] } ?? []
    }

    /// The assignment of an on/off flag, when it was given.
    public static func given(_ setting: Setting<Configuration>, _ isOn: Bool) -> [SettingOverride] {
        isOn ? [SettingOverride(setting, "true")] : []
    }

    /// Checks every value; the error names the flag, the value and what to write instead.
    public static func check(_ assignments: [SettingOverride]) throws(SettingValueError) {
        for assignment in assignments {
            do {
                try assignment.setting.check(assignment.text)
            } catch {
                throw SettingValueError("\(assignment.setting): \(error.message)")
            }
        }
    }

    /// Applies the flags over `configuration`: a repeated flag's values replace the list before.
    public static func apply(_ assignments: [SettingOverride], to configuration: inout Configuration) throws(SettingValueError) {
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
