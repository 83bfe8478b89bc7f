import SyncmonAdapters

/// What `syncmon wrap` runs and how it reads it: the tool (told or found through wrappers),
/// the command with the tool's progress options added, and whether the output goes through
/// wrap's pipes (docs/wrap.md).
struct WrapPlan: Equatable {
    /// `--tool`.
    enum ToolChoice: String, CaseIterable, Sendable {
        case auto, rclone, restic, rsync, none
    }

    /// The tool whose output is parsed; `nil` for any other command.
    var tool: WrappedTool?
    /// The command to run.
    var arguments: [String]
    /// Variables added to its environment.
    var environment: [String: String]
    /// Which formats wrap turned on (to hide or re-render).
    var output: OutputOwnership
    /// Something to tell the user about the plan (an explicit tool that is not run directly).
    var notice: String?

    /// The output goes through pipes to be parsed; an unknown command keeps wrap's own
    /// descriptors, so that it sees the terminal (or journal) it would see without wrap.
    var piped: Bool { self.tool != nil }

    /// The plan for `command` with `--tool choice`, in an environment `environment`.
    init(command: [String], choice: ToolChoice, environment: [String: String]) {
        self.arguments = command
        self.environment = [:]
        self.output = OutputOwnership()
        self.notice = nil
        let index = CommandWrappers.programIndex(in: command)
        let found = index.flatMap { WrappedTool(program: command[$0]) }
        switch choice {
        case .none:
            self.tool = nil
            return
        case .auto:
            self.tool = found
        case .rclone, .restic, .rsync:
            self.tool = WrappedTool(rawValue: choice.rawValue)
        }
        guard let tool = self.tool else { return }
        // An explicit tool also covers a renamed binary (`restic_0.14.0_linux_amd64`); a shell
        // or a script running the tool gets no options added, only its output read.
        guard let index, found == tool || CommandWrappers.fileName(command[index]).hasPrefix(tool.rawValue) else {
            self.notice =
                "\(command.first ?? "the command") does not run \(tool) directly: its output is read, but no options are added; "
                + "give it \(Self.options(of: tool)) yourself for progress"
            return
        }
        let invocation = ToolInvocation(arguments: command, tool: tool, programIndex: index, environment: environment)
        self.arguments = invocation.arguments
        self.environment = invocation.environment
        self.output = invocation.output
    }

    /// The options wrap would add, for the notice.
    static func options(of tool: WrappedTool) -> String {
        switch tool {
        case .rclone: "--use-json-log --stats 5s --stats-log-level NOTICE"
        case .restic: "--json (for backup)"
        case .rsync: "--info=progress2 --no-h"
        }
    }
}
