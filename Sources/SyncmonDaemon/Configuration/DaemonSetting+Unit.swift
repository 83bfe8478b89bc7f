import SyncmonCore
import SyncmonSources

/// The keys of a `[source NAME]` section that make it a `unit:` source (docs/systemd-units.md):
/// `unit`, `phase`, `database`, `rules`, `user`, checked as the `unit:UNIT?…` form checks them.
extension DaemonSetting {
    package static let sourceUnit = DaemonSetting(
        "unit",
        flag: .none,
        SettingValue(placeholder: "UNIT", accepted: "a .service or a .timer") { text throws(SettingValueError) in
            do throws(SourceSpec.ParseError) {
                return try UnitTarget.parse(text)
            } catch {
                throw SettingValueError(error.message)
            }
        } format: {
            $0.text
        },
        example: "unison-docs.service",
        reload: .restart,
        summary: "Makes the section a unit: source: the service (or the timer whose service) systemd runs.",
        details: "The same as `subscribe = NAME=unit:UNIT`; `phase`, `database` and `rules` may follow in the section.",
        .section(
            .source,
            set: { configuration, source, target in configuration.sourceSettings[source, default: SourceSettings()].unit.target = target },
            table: { AnyHashable($0.sourceSettings.compactMapValues { $0.unit.target }) }
        )
    )

    package static let sourcePhase = Self.unitSetting(
        "phase", \.phases, placeholder: "PHASE", accepted: "import, export or both", example: "export",
        parse: UnitTarget.phases, format: UnitTarget.phaseText
    )
    package static let sourceDatabase = Self.unitSetting(
        "database", \.database, placeholder: "DATABASE", accepted: "1-64 characters of A-Z a-z 0-9 . _ -", example: "default",
        parse: UnitTarget.database, format: \.description
    )
    package static let sourceRules = Self.unitSetting(
        "rules", \.rules, placeholder: "PACK",
        accepted: "a shipped pack (unison, lsyncd, onedrive, rclone-bisync, nextcloudcmd) or an absolute path", example: "unison",
        parse: UnitTarget.rules, format: { $0 }
    )
    /// A system syncmon following a unit of a user's own manager (docs/user-sessions.md).
    package static let sourceUser = Self.unitSetting(
        "user", \.user, placeholder: "USER",
        accepted: "a user this host knows, whose user manager runs the unit", example: "root",
        parse: UnitTarget.user, format: { $0 }
    )

    /// One of `phase`, `database`, `rules` and `user`: parsed by `UnitTarget`'s own parser for the key,
    /// its message without the `key: ` that the query form puts first.
    private static func unitSetting<Value: Sendable & Hashable>(
        _ key: String,
        _ field: any WritableKeyPath<UnitSection, Value?> & Sendable,
        placeholder: String,
        accepted: String,
        example: String,
        parse: @escaping @Sendable (String) throws(UnitTarget.KeyError) -> Value,
        format: @escaping @Sendable (Value) -> String
    ) -> DaemonSetting {
        let value = SettingValue(placeholder: placeholder, accepted: accepted) { text throws(SettingValueError) in
            do throws(UnitTarget.KeyError) {
                return try parse(text)
            } catch {
                let prefix = key + ": "
                throw SettingValueError(error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message)
            }
        } format: {
            format($0)
        }
        return DaemonSetting(
            key,
            flag: .none,
            value,
            example: example,
            reload: .restart,
            summary: "A unit: source's \(key) (docs/systemd-units.md): \(accepted).",
            .section(
                .source,
                set: { configuration, source, value in configuration.sourceSettings[source, default: SourceSettings()].unit[keyPath: field] = value },
                table: { AnyHashable($0.sourceSettings.compactMapValues { $0.unit[keyPath: field] }) }
            )
        )
    }
}

extension DaemonConfiguration {
    /// Every configured source, each parsed once: `subscribe`'s entries, then the `unit:`
    /// sources that `[source NAME]` sections with `unit` declare (by name); a unit source's
    /// section keys are applied to it.
    package func sources() throws(SourceSpec.ParseError) -> [SourceSpec] {
        let sections = self.sourceSettings.keys.sorted().compactMap { name -> SourceSpec? in
            guard let target = self.sourceSettings[name]?.unit.target else { return nil }
            return SourceSpec(name: name, endpoint: .unit(target), url: "unit:" + target.text)
        }
        return try SourceSpec.parseAll(self.subscribe, adding: sections).map { spec in
            guard case .unit(let target) = spec.endpoint, let section = self.sourceSettings[spec.name]?.unit else { return spec }
            var spec = spec
            spec.endpoint = .unit(section.applied(to: target))
            return spec
        }
    }
}
