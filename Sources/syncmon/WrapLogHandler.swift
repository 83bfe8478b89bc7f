import Logging
import SyncmonHost
import SyncmonSystemd

/// Where the client library's few log lines go while `syncmon wrap` runs: warnings and worse
/// to standard error, read like the daemon's terminal line (``TerminalLogFormatter``) —
/// `2026-11-25T16:02:21.123Z warning photos/private: Lost the connection to the syncmon daemon;
/// reconnecting (socket: /run/syncmon/events.sock, error: …)` — so that they reach the job's
/// journal next to the tool's own output; anything quieter is dropped.
struct WrapLogHandler: LogHandler {
    /// The job's pair, which every line is about.
    let pair: String
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .warning

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { self.metadata[key] }
        set { self.metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = self.metadata.merging(event.metadata ?? [:]) { $1 }
        // Events left undelivered at the end: wrap says so itself, naming the run.
        if merged["syncmon.queued"] != nil { return }
        // The daemon cannot be reached: say what to do, not the system call that failed.
        if let socket = merged["syncmon.socket"], let code = merged["syncmon.errno"].flatMap({ Int32("\($0)") }) {
            let text =
                "\(event.message)".hasPrefix("Cannot reach")
                ? PushSocketAdvice.cannotReach("\(socket)", errno: code) + "; the command runs all the same"
                : "\(event.message) (\(socket): \(SystemErrorText.words(code)))"
            printError(Self.line(time: LogTime.now(), level: event.level, pair: self.pair, text: text))
            return
        }
        // The engine and database are the job's own; the socket and the error say what went wrong.
        let details = merged.filter { $0.key == "syncmon.socket" || $0.key == "error" }
            .sorted { $0.key < $1.key }.map { "\($0.key.replacing("syncmon.", with: "")): \($0.value)" }
        let text = "\(event.message)" + (details.isEmpty ? "" : " (\(details.joined(separator: ", ")))")
        printError(Self.line(time: LogTime.now(), level: event.level, pair: self.pair, text: text))
    }

    /// The line for one statement: time, level, the job's pair, what happened.
    static func line(time: LogTime, level: Logger.Level, pair: String, text: String) -> String {
        TerminalLogFormatter.line(time: time, level: level, message: "\(pair): \(text)", metadata: [:])
    }
}
