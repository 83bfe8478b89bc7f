import Logging
import SyncmonDaemon

/// Where the client library's few log lines go while `syncmon wrap` runs: warnings and worse
/// to standard error as `syncmon wrap: warning: …`, so that they reach the job's journal next
/// to the tool's own output; anything quieter is dropped.
struct WrapLogHandler: LogHandler {
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
            printError("syncmon wrap: \(event.level): \(text)")
            return
        }
        // The engine and database are the job's own; the socket and the error say what went wrong.
        let details = merged.filter { $0.key == "syncmon.socket" || $0.key == "error" }
            .sorted { $0.key < $1.key }.map { "\($0.key.replacing("syncmon.", with: "")): \($0.value)" }
        printError("syncmon wrap: \(event.level): \(event.message)" + (details.isEmpty ? "" : " (\(details.joined(separator: ", ")))"))
    }
}
