import SyncmonCore
import Testing

@testable import SyncmonAdapters

/// `UnitEventMapper`: a unit's failures become failed operations whose error carries the
/// unit's own last words (docs/systemd-units.md, docs/protocol.md), cleaned as every failure's message is.
@Suite("Unit event mapper")
struct UnitEventMapperTests {
    static let now = Timestamp(seconds: 1_795_000_000)
    static let failure = UnitFailure(code: "exit1", since: now)

    /// The failed operation's error among `effects`' events.
    static func failedErrors(_ effects: UnitEffects) -> [SyncError] {
        effects.events.compactMap {
            guard case .containerEvent(let operation) = $0.payload, operation.succeeded == false else { return nil }
            return operation.error
        }
    }

    @Test(
        "a failure's message is the unit's last journal line, cut and escaped; none when the journal had none",
        arguments: [
            (UnitAction.down(failure), "cannot open /srv/missing: No such file or directory", "cannot open /srv/missing: No such file or directory"),
            (.failing(failure), "bad\u{1B}[31m line", "bad\\u001b[31m line"),
            (
                .cycleEnded(started: now, ended: now, failure: failure), "rsync error: some files/attrs were not transferred (code 23)",
                "rsync error: some files/attrs were not transferred (code 23)"
            ),
        ]
    )
    func message(action: UnitAction, line: String, expected: String) throws {
        var mapper = UnitEventMapper(engine: InlineName("backup")!, database: Database("default")!, phases: [.export])
        let errors = Self.failedErrors(mapper.effects(of: action, oneshot: true, at: Self.now, message: line))
        #expect(errors.map(\.code.description) == ["exit1"])
        #expect(errors.map(\.message) == [expected])
        let silent = Self.failedErrors(mapper.effects(of: action, oneshot: true, at: Self.now))
        #expect(silent.map(\.message) == [nil])
    }

    @Test(
        "a unit systemd does not know makes the pair unknown with a notice, and no event; loaded, it is known again",
        arguments: [
            (UnitAction.notLoaded(loadState: .notFound), UnitPresence?.some(.missing(reason: "unit not-found")), true),
            (.notLoaded(loadState: .masked), .missing(reason: "unit masked"), true),
            (.loaded, .present, false),
            (.up, nil, false),
        ]
    )
    func presence(action: UnitAction, expected: UnitPresence?, notice: Bool) {
        var mapper = UnitEventMapper(engine: InlineName("ghost")!, database: Database("default")!, phases: [.export])
        let effects = mapper.effects(of: action, oneshot: false, at: Self.now)
        #expect(effects.presence == expected)
        #expect((effects.notice != nil) == notice)
        if expected != nil { #expect(effects.events.isEmpty && !effects.markDown) }
    }

    @Test(
        "a service seen running ties the pair (engineStarted); only `up` also ends the setup's failure, `running` keeps it",
        arguments: [
            (UnitAction.up, ["containerEvent", "containerEvent", "engineStarted"]),
            (.running, ["engineStarted"]),
        ]
    )
    func running(action: UnitAction, expected: [String]) {
        var mapper = UnitEventMapper(engine: InlineName("victim")!, database: Database("default")!, phases: [.export])
        let effects = mapper.effects(of: action, oneshot: false, at: Self.now)
        #expect(effects.events.map { String(describing: $0.payload).prefix { $0 != "(" } } == expected.map { Substring($0) })
        #expect(mapper.effects(of: action, oneshot: true, at: Self.now).events.allSatisfy { if case .engineStarted = $0.payload { false } else { true } })
    }
}
