/// The batch tools `syncmon wrap` understands: it adds the options that make their progress
/// machine-readable, reads that progress, and reads their exit statuses by their own tables
/// (docs/wrap.md).
public enum WrappedTool: String, CaseIterable, Sendable, CustomStringConvertible {
    case rclone, restic, rsync

    /// The tool a program path names, by its file name: `/usr/bin/rclone` is rclone. Only the
    /// exact name counts, so that a script called `rsync-mirror.sh` is not taken for rsync.
    public init?(program: String) {
        let name = program.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? program
        self.init(rawValue: name)
    }

    public var description: String { self.rawValue }
}

extension WrappedTool {
    /// A parser for one run of this tool, told which of its formats wrap turned on.
    public func outputParser(output: OutputOwnership) -> any ToolOutputParser {
        switch self {
        case .rclone: RcloneProgressParser(renderJSONLog: output.rcloneJSONLog, hideStats: output.rcloneStats)
        case .restic: ResticProgressParser(renderJSON: output.resticJSON)
        case .rsync: RsyncProgressParser(hideProgress: output.rsyncProgress)
        }
    }
}
