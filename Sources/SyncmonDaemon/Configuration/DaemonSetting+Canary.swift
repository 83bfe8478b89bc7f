import SyncmonCore
import SyncmonSources

/// The canary's settings (docs/canary.md): `--canary ENGINE/DATABASE=PATH` and the keys of a
/// `[canary ENGINE/DATABASE]` section, stored in ``DaemonConfiguration/canaries`` and resolved
/// (defaults filled in, PATH checked) by ``CanarySetting/resolve(_:)`` at load.
extension ConfigSection {
    /// `[canary ENGINE/DATABASE]`: one canary, for the pair ENGINE/DATABASE.
    package static let canary = ConfigSection(
        word: "canary",
        nameForm: "ENGINE/DATABASE",
        purpose: """
            A canary proving that files cross between hosts (docs/canary.md): every host writes \
            PATH/.syncmon/canary-HOST.json every interval and reads the others'. Canaries are set \
            up at start: changes take a restart.
            """,
        examples: [
            """
            [canary syncthing/photos]
            path = /srv/photos
            interval = 60s
            late-after = 10m
            host = nas
            mode = both
            """
        ],
        refuse: { CanarySetting.pairKey($0) == nil ? "canary \($0): not ENGINE/DATABASE" : nil },
        open: { configuration, name in
            if configuration.canaries[name] == nil { configuration.canaries[name] = CanarySetting() }
        }
    )
}

extension SettingValue where Value == String {
    /// `ENGINE/DATABASE=PATH`, the value of `--canary`.
    static var canaryFlag: Self {
        let accepted = "ENGINE/DATABASE=PATH, PATH the folder the engine syncs"
        return SettingValue(placeholder: "ENGINE/DATABASE=PATH", accepted: accepted) { text throws(SettingValueError) in
            do throws(CanarySettingError) {
                _ = try CanarySetting.parseFlag(text)
            } catch {
                throw SettingValueError("\(Self.quoted(text)) is not \(accepted)")
            }
            return text
        } format: {
            $0
        }
    }
}

extension DaemonSetting {
    /// The canary settings, in the order of help and the reference.
    static let canarySettings: [DaemonSetting] = [.canaryPath, .canaryInterval, .canaryLateAfter, .canaryHost, .canaryMode]

    package static let canary = DaemonSetting(
        "canary",
        .canaryFlag,
        example: "syncthing/photos=/srv/photos",
        reload: .restart,
        summary: """
            A canary proving files cross (repeatable): ENGINE/DATABASE=PATH, PATH the synced folder, \
            the rest from its [canary ENGINE/DATABASE] section or the defaults (docs/canary.md).
            """,
        .list(\.canaryFlags)
    )

    /// A key of a `[canary …]` section, stored by `set` into that canary's setting.
    private static func canaryKey<Value: Sendable & Hashable>(
        _ key: String,
        _ value: SettingValue<Value>,
        default defaultText: String,
        example: String,
        summary: String,
        read: @escaping @Sendable (CanarySetting) -> Value?,
        set: @escaping @Sendable (inout CanarySetting, Value) -> Void
    ) -> DaemonSetting {
        DaemonSetting(
            key,
            flag: .none,
            value,
            default: defaultText,
            example: example,
            reload: .restart,
            summary: summary,
            SettingTarget<Value>.section(
                .canary,
                set: { configuration, name, value in set(&configuration.canaries[name, default: CanarySetting()], value) },
                table: { AnyHashable($0.canaries.compactMapValues(read)) }
            )
        )
    }

    package static let canaryPath = canaryKey(
        "path", .absolutePath, default: "none (required)", example: "/srv/photos",
        summary: "The folder the engine syncs: an existing directory, not a symbolic link (else exit 78); the canary lives in PATH/.syncmon/.",
        read: \.path
    ) { $0.path = $1 }

    package static let canaryInterval = canaryKey(
        "interval", .positiveDuration, default: "60s", example: "60s",
        summary: "How often this host writes its canary and reads the peers' at the latest (sooner on inotify).",
        read: \.interval
    ) { $0.interval = $1 }

    package static let canaryLateAfter = canaryKey(
        "late-after", .duration(zero: "disables the stall"), default: "10m", example: "10m",
        summary: "T of the stall canary_late.",
        read: \.lateAfter
    ) { $0.lateAfter = $1 }

    package static let canaryHost = canaryKey(
        "host", .canaryHost, default: "the host name", example: "nas",
        summary: "This host's name in the canary (the host name up to its first dot by default).",
        read: \.host
    ) { $0.host = $1 }

    package static let canaryMode = canaryKey(
        "mode", .choice("MODE"), default: "both", example: "both",
        summary: "both; receive for the receiving end of a one-way sync (only reads); send for its sending end (only writes).",
        read: \.mode
    ) { (setting: inout CanarySetting, mode: CanaryMode) in setting.mode = mode }
}

extension SettingValue where Value == TimeSpan {
    /// A duration above 0 (a canary's interval).
    static var positiveDuration: Self {
        let base = Self.duration()
        let accepted = base.accepted + ", above 0"
        return SettingValue(placeholder: base.placeholder, accepted: accepted) { text throws(SettingValueError) in
            let span = try base.parse(text)
            guard span > .zero else { throw Self.refusal(text, isNot: "a duration above 0", accepted: accepted) }
            return span
        } format: {
            base.format($0)
        }
    }
}

extension SettingValue where Value == String {
    /// A canary host name: 1–64 characters of `[A-Za-z0-9._-]`.
    static var canaryHost: Self {
        let accepted = "1–64 characters of A-Z a-z 0-9 . _ -"
        return SettingValue(placeholder: "HOST", accepted: accepted) { text throws(SettingValueError) in
            guard CanaryHost(text) != nil else { throw Self.refusal(text, isNot: "a host name", accepted: accepted) }
            return text
        } format: {
            $0
        }
    }
}
