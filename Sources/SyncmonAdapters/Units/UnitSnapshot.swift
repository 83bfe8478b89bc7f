import SyncmonCore

/// What systemd says of a service at one moment: the properties of its `org.freedesktop.systemd1.Unit`
/// and `.Service` interfaces that the mapping of docs/systemd-units.md reads, merged from the first read and
/// every `PropertiesChanged` signal since.
public struct UnitSnapshot: Sendable, Equatable {
    public var loadState: UnitLoadState
    public var activeState: UnitActiveState
    /// The service's own state: `running`, `auto-restart`, `dead`, `exited`, `start`, ….
    public var subState: UnitSubState
    public var result: UnitResult
    /// How the main process ended, as waitid(2) says: 1 `CLD_EXITED`, 2 `CLD_KILLED`, 3 `CLD_DUMPED`; 0 none yet.
    public var execMainCode: Int32
    /// The exit status, or the signal number when killed.
    public var execMainStatus: Int32
    /// Automatic restarts since the unit was last started by request.
    public var restarts: UInt32
    /// The type of the unit's pending job (`start`, `stop`, `restart`, …), `nil` when none.
    public var jobType: String?
    /// `Type=` of the service: `simple`, `exec`, `forking`, `notify`, `oneshot`, `dbus`, `idle`.
    public var serviceType: String
    /// The program of `ExecStart` (its first command), for the exit status tables of known tools.
    public var program: String?
    /// `ExecMainStartTimestamp` and `ExecMainExitTimestamp` (0 when never), realtime.
    public var mainStarted: Timestamp?
    public var mainExited: Timestamp?
    /// `ExecMainPID`: the main process, kept by systemd after it exited (its journal lines carry
    /// it as `_PID`, which tells its last line from the next run's first).
    public var mainPID: UInt32? = nil

    public init(
        loadState: UnitLoadState = .loaded,
        activeState: UnitActiveState,
        subState: UnitSubState,
        result: UnitResult = .success,
        execMainCode: Int32 = 0,
        execMainStatus: Int32 = 0,
        restarts: UInt32 = 0,
        jobType: String? = nil,
        serviceType: String = "simple",
        program: String? = nil,
        mainStarted: Timestamp? = nil,
        mainExited: Timestamp? = nil
    ) {
        self.loadState = loadState
        self.activeState = activeState
        self.subState = subState
        self.result = result
        self.execMainCode = execMainCode
        self.execMainStatus = execMainStatus
        self.restarts = restarts
        self.jobType = jobType
        self.serviceType = serviceType
        self.program = program
        self.mainStarted = mainStarted
        self.mainExited = mainExited
    }

    /// A oneshot service: each activation is one cycle.
    public var isOneshot: Bool { self.serviceType == "oneshot" }

    /// The failure this snapshot shows, as wrap writes codes (docs/wrap.md): `exit<N>` or the tool's
    /// code, `signal<NAME>`, else the `Result` word (`watchdog`, `timeout`, `start-limit-hit`, …).
    public var failureCode: String? {
        switch self.result {
        case .success: return nil
        case .exitCode:
            let tool = self.program.flatMap(WrappedTool.init(program:))
            return ExitStatusTable.outcome(of: .exited(self.execMainStatus), tool: tool, program: self.program ?? "", lastError: nil).code
                ?? "exit\(self.execMainStatus)"
        case .signal:
            return "signal" + SignalNames.name(self.execMainStatus)
        case .other(let word):
            return word
        }
    }
}
