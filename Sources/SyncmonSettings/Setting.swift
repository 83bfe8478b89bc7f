/// One setting of a ``SettingsConfiguration``, declared once: its flag, its configuration-file
/// key and the sections it may appear in, its value's type and accepted forms, its default, what
/// a reload does with it, and its reference text.
///
/// From the declarations come the command's options (names and help), the file parser
/// (``ConfigFile``) and its errors, the sections, what a reload must restart for, and the
/// reference text (``ReferenceText``). The daemon declares its own as `DaemonSetting`
/// (Sources/SyncmonDaemon/Configuration/DaemonSetting+Declarations.swift).
public struct Setting<Configuration: SettingsConfiguration>: Sendable, CustomStringConvertible {
    /// How the setting is given on the command line.
    public enum Flag: Sendable, Equatable {
        /// `--KEY VALUE`, the key's own name.
        case key
        /// A flag of another name (`--web.config.file` for `web-config-file`).
        case named(String)
        /// `--KEY` without a value: sets a boolean to true.
        case onOff
        /// No flag: the configuration file only.
        case none
    }

    /// What a reload (SIGHUP) does with a changed value.
    public enum Reload: Sendable, Equatable {
        /// The new value applies at once.
        case atOnce
        /// Connections and requests accepted from then on use the new value.
        case newConnections
        /// Set up at start: the running daemon keeps the old value and the reload says so.
        case restart

        /// The reference's wording.
        public var reference: String {
            switch self {
            case .atOnce: "applies at once"
            case .newConnections: "applies to new connections"
            case .restart: "takes a restart"
            }
        }
    }

    /// The configuration-file key: `no-progress-after`.
    public let key: String
    /// The command-line flag with its dashes (`--no-progress-after`), or nil for a file-only key.
    public let flag: String?
    /// Whether the flag is written without a value (`--from-start`).
    public let flagIsOnOff: Bool
    /// The value's name in help: `DURATION`.
    public let placeholder: String
    /// The forms accepted, as every refusal says them.
    public let accepted: String
    /// The default, as the reference shows it.
    public let defaultText: String
    /// A value that shows the form, for the example file and tests.
    public let example: String
    /// Whether the key may be given several times, each adding to a list.
    public let isRepeatable: Bool
    /// Where the key may be written in the file; empty for a flag-only setting (`--config`).
    public let sections: [SettingSection<Configuration>]
    public let reload: Reload
    /// One sentence: what the setting does (help, man page, tables).
    public let summary: String
    /// More, for the man page, configuration.md and the example file; may be empty.
    public let details: String

    private let parseAndStore: @Sendable (inout Configuration, SettingSection<Configuration>, String, String) throws(SettingValueError) -> Void
    private let emptyLists: @Sendable (inout Configuration) -> Void
    private let values: @Sendable (Configuration) -> [AnyHashable]

    public var description: String { self.flag ?? self.key }

    /// Declares a setting whose values are `Value`, stored by `targets` (one per place it may be
    /// written). `inFile: false` makes a flag-only setting (`--config`).
    public init<Value: Sendable>(
        _ key: String,
        flag: Flag = .key,
        _ value: SettingValue<Value>,
        default defaultText: String? = nil,
        example: String? = nil,
        reload: Reload,
        summary: String,
        details: String = "",
        inFile: Bool = true,
        _ targets: SettingStore<Configuration, Value>...
    ) {
        self.key = key
        switch flag {
        case .key, .onOff: self.flag = "--" + key
        case .named(let name): self.flag = name
        case .none: self.flag = nil
        }
        self.flagIsOnOff = flag == .onOff
        self.placeholder = value.placeholder
        self.accepted = value.accepted
        let reference = Configuration.reference
        self.defaultText = defaultText ?? targets.first { $0.section == .global }.map { $0.describe(reference, value) } ?? "none"
        self.example = example ?? self.defaultText
        self.isRepeatable = targets.contains { $0.isList }
        self.sections = inFile ? targets.map(\.section) : []
        self.reload = reload
        self.summary = summary
        self.details = details
        self.parseAndStore = { configuration, section, name, text throws(SettingValueError) in
            let parsed = try value.parse(text)
            for target in targets where target.section == section { target.set(&configuration, name, parsed) }
        }
        self.emptyLists = { configuration in
            for target in targets { target.clear(&configuration) }
        }
        self.values = { configuration in targets.map { $0.current(configuration) } }
    }

    /// Parses `text` and stores it for the section `name` of kind `section` (the top of the file
    /// and the flags: `.global`, ""). The error says why, and what to write instead.
    public func assign(_ text: String, in section: SettingSection<Configuration> = .global, name: String = "", to configuration: inout Configuration)
        throws(SettingValueError)
    {
        try self.parseAndStore(&configuration, section, name, text)
    }

    /// Empties a list setting, before the first of a file's or the flags' values replaces it.
    public func clearList(in configuration: inout Configuration) {
        self.emptyLists(&configuration)
    }

    /// Whether `a` and `b` differ in this setting, anywhere it may be written.
    public func differs(_ a: Configuration, _ b: Configuration) -> Bool {
        self.values(a) != self.values(b)
    }

    /// Checks `text` without storing it anywhere (a flag's value, before anything runs).
    public func check(_ text: String) throws(SettingValueError) {
        var scratch = Configuration.reference
        try self.parseAndStore(&scratch, self.sections.first ?? .global, "", text)
    }
}
