/// Where one place's value of a setting goes in the configuration: a property for the top of the
/// file and the flags, an entry of a section's table (one per engine, per source, …) for a section.
public struct SettingStore<Configuration: SettingsConfiguration, Value: Sendable>: Sendable {
    let section: SettingSection<Configuration>
    /// A list (`listen`, `subscribe`): repeatable, each value appended; the first value of a file
    /// or of the flags replaces the list before.
    let isList: Bool
    let set: @Sendable (inout Configuration, _ sectionName: String, Value) -> Void
    let clear: @Sendable (inout Configuration) -> Void
    /// What the configuration holds here, to tell a reload what changed.
    let current: @Sendable (Configuration) -> AnyHashable
    /// The value in `configuration` as the reference shows it (defaults).
    let describe: @Sendable (Configuration, SettingValue<Value>) -> String
}

extension SettingStore where Value: Hashable {
    /// A property of the configuration, set from the top of the file or a flag.
    public static func global(_ keyPath: any WritableKeyPath<Configuration, Value> & Sendable) -> Self {
        SettingStore(
            section: .global,
            isList: false,
            set: { configuration, _, value in configuration[keyPath: keyPath] = value },
            clear: { _ in },
            current: { AnyHashable($0[keyPath: keyPath]) },
            describe: { configuration, value in value.format(configuration[keyPath: keyPath]) }
        )
    }

    /// An optional property of the configuration (none by default).
    public static func global(_ keyPath: any WritableKeyPath<Configuration, Value?> & Sendable) -> Self {
        SettingStore(
            section: .global,
            isList: false,
            set: { configuration, _, value in configuration[keyPath: keyPath] = value },
            clear: { _ in },
            current: { AnyHashable($0[keyPath: keyPath]) },
            describe: { configuration, value in configuration[keyPath: keyPath].map(value.format) ?? "none" }
        )
    }

    /// A list property: the key is repeatable.
    public static func list(_ keyPath: any WritableKeyPath<Configuration, [Value]> & Sendable) -> Self {
        SettingStore(
            section: .global,
            isList: true,
            set: { configuration, _, value in configuration[keyPath: keyPath].append(value) },
            clear: { configuration in configuration[keyPath: keyPath] = [] },
            current: { AnyHashable($0[keyPath: keyPath]) },
            describe: { configuration, value in
                let values = configuration[keyPath: keyPath]
                return values.isEmpty ? "none" : values.map(value.format).joined(separator: ", ")
            }
        )
    }

    /// An entry of a section's table: `set` stores the value for the section's name; `table`
    /// reads the whole table (a reload compares it).
    public static func section(
        _ section: SettingSection<Configuration>,
        set: @escaping @Sendable (inout Configuration, String, Value) -> Void,
        table: @escaping @Sendable (Configuration) -> AnyHashable
    ) -> Self {
        SettingStore(
            section: section,
            isList: false,
            set: set,
            clear: { _ in },
            current: table,
            describe: { _, _ in "none" }
        )
    }
}
