import SyncmonCore

/// The keys of a `[source NAME]` section that make it a `unit:` source (docs/systemd-units.md):
/// `unit`, `phase`, `database`, `rules`, checked as the `unit:UNIT?…` form checks them.
extension DaemonSetting {
    public static let sourceUnit = DaemonSetting(
        "unit",
        flag: .none,
        .unitKey("unit", placeholder: "UNIT", accepted: "a .service or a .timer"),
        example: "unison-docs.service",
        reload: .restart,
        summary: "Makes the section a unit: source: the service (or the timer whose service) systemd runs.",
        details: "The same as `subscribe = NAME=unit:UNIT`; `phase`, `database` and `rules` may follow in the section.",
        .section(
            .source,
            set: { configuration, source, unit in configuration.sourceSettings[source, default: SourceSettings()].unitKeys["unit"] = unit },
            table: { AnyHashable($0.sourceSettings.compactMapValues { $0.unitKeys["unit"] }) }
        )
    )

    public static let sourcePhase = Self.unitSetting("phase", placeholder: "PHASE", accepted: "import, export or both", example: "export")
    public static let sourceDatabase = Self.unitSetting(
        "database", placeholder: "DATABASE", accepted: "1-64 characters of A-Z a-z 0-9 . _ -", example: "default"
    )
    public static let sourceRules = Self.unitSetting(
        "rules", placeholder: "PACK", accepted: "a shipped pack (unison, lsyncd, onedrive, rclone-bisync, nextcloudcmd) or an absolute path",
        example: "unison"
    )

    private static func unitSetting(_ key: String, placeholder: String, accepted: String, example: String) -> DaemonSetting {
        DaemonSetting(
            key,
            flag: .none,
            .unitKey(key, placeholder: placeholder, accepted: accepted),
            example: example,
            reload: .restart,
            summary: "A unit: source's \(key) (docs/systemd-units.md): \(accepted).",
            .section(
                .source,
                set: { configuration, source, value in configuration.sourceSettings[source, default: SourceSettings()].unitKeys[key] = value },
                table: { AnyHashable($0.sourceSettings.compactMapValues { $0.unitKeys[key] }) }
            )
        )
    }
}

extension SettingValue where Value == String {
    /// A value of a `unit:` source's key, checked by `UnitTarget` as the query form is.
    static func unitKey(_ key: String, placeholder: String, accepted: String) -> Self {
        SettingValue(placeholder: placeholder, accepted: accepted) { text throws(SettingValueError) in
            do throws(SourceSpec.ParseError) {
                if key == "unit" {
                    _ = try UnitTarget.parse(text)
                } else {
                    var check = UnitTarget(unit: "check.service")
                    try check.set(key, text) { SourceSpec.ParseError(source: "unit:check.service", message: $0) }
                }
            } catch {
                let prefix = key + ": "
                throw SettingValueError(error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message)
            }
            return text
        } format: {
            $0
        }
    }
}

extension DaemonConfiguration {
    /// `subscribe` and the `unit:` sources that `[source NAME]` sections with `unit` declare.
    public var subscribeWithSections: [String] {
        self.subscribe
            + self.sourceSettings.keys.sorted().compactMap { name in
                self.sourceSettings[name]?.unitKeys["unit"].map { "\(name)=unit:\($0)" }
            }
    }
}
