import SyncmonCore

/// The daemon's reference (deploy/man/syncmon.8, docs/configuration.md,
/// deploy/syncmon.conf.example): the generic parts with what only the daemon says, the stall
/// thresholds apart (`replay` takes them too) and the example file's header.
extension ReferenceText where Configuration == DaemonConfiguration {
    /// The SYNOPSIS line of `syncmon daemon`: each option but the thresholds, then those as one.
    package static func manSynopsis() -> String {
        Self.manSynopsis("syncmon daemon", Self.flagged.filter { !Self.isThreshold($0) }, then: ["[\\fIstall thresholds\\fP]"])
    }

    /// The `.TP` entries of `syncmon daemon`'s options other than the thresholds.
    package static func manOptions() -> String {
        Self.manOptions(Self.flagged.filter { !Self.isThreshold($0) })
    }

    /// The stall thresholds' subsection, which `replay` shares.
    package static func manThresholds() -> String {
        var text = ".SS \"Stall thresholds (daemon and replay)\"\n"
        text += "A stall is raised once its condition has held for the threshold;\n\\fB0\\fP disables the detector.\n"
        text += "A threshold set in an \\fB[engine\\fP \\fIname\\fP\\fB]\\fP section applies to that engine only.\n"
        text += Self.roffLines("A duration is " + SettingValue<TimeSpan>.threshold.accepted + ".")
        return text + Self.manOptions(Self.flagged.filter(Self.isThreshold))
    }

    /// What a reload does, by setting.
    package static func markdownReload() -> String {
        Self.markdownReload(restart: "Take a restart (`systemctl restart syncmon`); a reload that changes them says so in its log entry")
    }

    /// deploy/syncmon.conf.example.
    package static func exampleFile() -> String {
        let header = [
            "# syncmon configuration file (example). Generated from the settings' declarations",
            "# (Sources/SyncmonDaemon/Configuration/DaemonSetting+Declarations.swift); a test keeps it so.",
            "#",
            "# Install as /etc/syncmon/syncmon.conf: `syncmon daemon` reads that path when it exists, or the",
            "# file named by --config. Command-line flags win over this file; this file wins over the",
            "# defaults. Reload with `systemctl reload syncmon` (SIGHUP). See docs/configuration.md.",
            "#",
            "# Syntax: `key = value`, one per line. Lines starting with # or ; are comments; a # later on a",
            "# line is part of the value. A value may be wrapped in double quotes. Unknown keys are errors.",
            "# Every setting below is commented out and shows its default, or an example when it has none.",
        ]
        let durations = Self.wrapped("Durations: \(Self.plain(SettingValue<TimeSpan>.threshold.accepted)).", width: 100, prefix: "# ")
        return Self.exampleFile(header: header + durations)
    }

    /// Whether `setting` is a stall threshold (its own part of the man page: replay takes them too).
    static func isThreshold(_ setting: DaemonSetting) -> Bool { setting.key.hasSuffix("-after") && setting.sections.contains(.engine) }
}
