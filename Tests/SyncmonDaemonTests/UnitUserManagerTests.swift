import SyncmonCore
import SyncmonDaemon
import SyncmonSources
import SyncmonSystemd
import Testing

/// `unit:` sources on a user's systemd manager (docs/user-sessions.md): `?user=NAME` and
/// `user = NAME`, the manager a source follows, the journal fields of its lines, and the retry
/// while a user manager does not run. `root` is the one user every host knows.
@Suite("unit: sources: user managers")
struct UnitUserManagerTests {
    @Test(arguments: [
        ("unit:a.service?user=root", UnitTarget(unit: "a.service", user: "root"), "a.service?user=root"),
        ("unit:a.timer?phase=export&user=root", UnitTarget(unit: "a.timer", phases: [.export], user: "root"), "a.timer?phase=export&user=root"),
        ("unit:a.service", UnitTarget(unit: "a.service"), "a.service"),
    ])
    func queryFormTakesTheUser(entry: String, expected: UnitTarget, text: String) throws {
        let spec = try SourceSpec.parse("docs=" + entry)
        #expect(spec.endpoint == .unit(expected))
        #expect(expected.text == text)
    }

    @Test(arguments: ["unit:a.service?user=no-such-user-syncmon", "unit:a.service?phase=both&user=nobody-syncmon-x"])
    func anUnknownUserIsRefused(entry: String) {
        #expect {
            try SourceSpec.parse(entry)
        } throws: { error in
            (error as? SourceSpec.ParseError)?.message.contains("user: a user this host knows") == true
        }
    }

    @Test func sectionFormTakesTheUser() throws {
        let base = DaemonConfiguration(environment: ["HOME": "/home/test"], isRoot: true)
        let configuration = try ConfigFile.apply("[source sync]\nunit = syncthing.service\nuser = root\n", to: base)
        #expect(try configuration.sources().map(\.endpoint) == [.unit(UnitTarget(unit: "syncthing.service", user: "root"))])
    }

    @Test func sectionFormNamesTheLineOfAnUnknownUser() {
        let base = DaemonConfiguration(environment: ["HOME": "/home/test"], isRoot: true)
        #expect {
            try ConfigFile.apply("[source sync]\nunit = syncthing.service\nuser = no-such-user-syncmon\n", to: base)
        } throws: { error in
            (error as? ConfigFile.ParseError).map { $0.line == 3 && $0.message.contains("no-such-user-syncmon") } == true
        }
    }

    @Test(
        "without user, a source follows the manager syncmon runs under",
        arguments: [
            (UInt32(0), ["XDG_RUNTIME_DIR": "/run/user/0"], SystemdManager.system),
            (1500, ["XDG_RUNTIME_DIR": "/run/user/1500"], .currentUser),
            (1500, [:], .system),
            (1500, ["XDG_RUNTIME_DIR": ""], .system),
        ])
    func ambientManager(uid: UInt32, environment: [String: String], expected: SystemdManager) throws {
        #expect(try UnitTarget(unit: "a.service").manager(userID: uid, environment: environment) == expected)
    }

    @Test func aNamedUserIsThatUsersManager() throws {
        let target = UnitTarget(unit: "a.service", user: "root")
        #expect(try target.manager(userID: 0, environment: [:]) == .user(name: "root", uid: 0))
    }

    @Test(arguments: [
        (SystemdManager.system, ["_SYSTEMD_UNIT=a.service"], nil as String?),
        (.user(name: "alice", uid: 1500), ["_SYSTEMD_USER_UNIT=a.service", "_UID=1500"], "/run/user/1500/systemd/private"),
    ])
    func journalAndBusOfAManager(manager: SystemdManager, matches: [String], socket: String?) {
        #expect(manager.journalMatches(unit: "a.service") == matches)
        #expect(manager.privateSocket == socket)
    }

    @Test func aUserManagerThatDoesNotRunCannotBeOpened() {
        // A uid no one has: its manager's socket does not exist.
        #expect(throws: SystemdError.self) { try SystemdBus(manager: .user(name: "ghost", uid: 3_999_999)) }
    }

    @Test(arguments: [(1, 1.0), (2, 2.0), (3, 3.0), (4, 3.0), (100, 3.0)])
    func anAbsentManagerIsLookedForEveryFewSeconds(failures: Int, seconds: Double) {
        #expect(UserManagerRetry.standard.delay(after: failures) == seconds)
    }
}
