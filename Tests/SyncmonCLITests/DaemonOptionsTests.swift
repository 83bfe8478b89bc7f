import ArgumentParser
import SyncmonCore
import SyncmonDaemon
import Testing

@testable import syncmon

/// `syncmon daemon`'s options against the settings' declarations: one option per declared flag,
/// each handing its value to its own setting, and bad values refused as usage errors.
@Suite("Daemon options")
struct DaemonOptionsTests {
    /// The daemon's flags as its help lists them.
    static var helpFlags: Set<String> {
        let help = DaemonCommand.helpMessage(columns: 400)
        let flags = help.matches(of: /--[a-z][a-z.-]*[a-z]/).map { String($0.output) }
        return Set(flags).subtracting(["--help", "--version"])
    }

    @Test("every declared flag is an option of the daemon, and every option is declared")
    func sameFlags() {
        let declared = Set(DaemonSetting.all.compactMap(\.flag))
        #expect(Self.helpFlags == declared, "undeclared: \(Self.helpFlags.subtracting(declared)); no option: \(declared.subtracting(Self.helpFlags))")
    }

    @Test("each option hands its value to its own setting", arguments: DaemonSetting.all.filter { $0.flag != nil }.map(\.key))
    func optionReachesSetting(key: String) throws {
        let setting = try #require(DaemonSetting.named(key))
        let arguments = setting.flagIsOnOff ? [setting.flag!] : [setting.flag!, setting.example]
        let command = try DaemonCommand.parse(arguments)
        let given = command.assignments.map { ($0.setting.key, $0.text) }
        #expect(given.count == 1)
        #expect(given.first?.0 == key)
        #expect(given.first?.1 == (setting.flagIsOnOff ? "true" : setting.example))
    }

    @Test("the help of each option is its declaration's")
    func helpFromDeclarations() {
        let help = DaemonCommand.helpMessage(columns: 10_000)
        for setting in DaemonSetting.all where setting.flag != nil {
            #expect(help.contains(SettingsReference.help(for: setting)), "\(setting.key)")
        }
    }

    @Test(
        "a bad flag value is a usage error (64) saying what is accepted",
        arguments: [
            (["--no-progress-after", "soon"], #"--no-progress-after: "soon" is not a duration; write a number with a unit"#),
            (["--log-level", "loud"], "write trace, debug, info, notice, warning, error or critical"),
            (["--log-target", "syslog"], "write auto, journald or stderr"),
            (["--host-network", "sideways"], "write auto, off, online or offline"),
            (["--max-engines", "0"], "write a whole number above 0"),
            (["--subscribe", "ftp://x"], #"--subscribe: "ftp://x": "#),
            (["--listen", ""], "--listen: empty; write host:port"),
            (["--listen", "127.0.0.1:99999"], #"--listen: "127.0.0.1:99999": the port 99999 is out of range; write a port from 1 to 65535"#),
            (["--listen", ":0"], "the port 0 is out of range"),
            (["--max-engines", "-5"], #"--max-engines: "-5" is not a positive number; write a whole number above 0"#),
            (["--no-progress-after", "-5s"], #"--no-progress-after: "-5s" is not a duration"#),
        ])
    func badValue(arguments: [String], message: String) {
        do {
            _ = try DaemonCommand.parse(arguments)
            Issue.record("\(arguments) parsed")
        } catch {
            #expect(DaemonCommand.exitCode(for: error) == ExitCode(64))
            #expect(DaemonCommand.message(for: error).contains(message), "\(DaemonCommand.message(for: error))")
        }
    }

    @Test("replay takes the same thresholds, from the same declarations")
    func replayThresholds() throws {
        let replay = try ReplayCommand.parse(["-", "--no-progress-after", "90s", "--no-recent-export-after", "1d"])
        let thresholds = replay.stallThresholds.applied(to: .defaults)
        #expect(thresholds.noProgress == .seconds(90 as Int64))
        #expect(thresholds.noRecentExport == .seconds(86_400 as Int64))
        #expect(thresholds.notSyncing == StallThresholds.defaults.notSyncing)
        #expect(throws: (any Error).self) { try ReplayCommand.parse(["-", "--retry-loop-after", "forever"]) }
    }
}
