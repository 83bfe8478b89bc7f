import FuzzSupport
import SyncmonCore
import SyncmonDaemon
import SyncmonSources

/// The daemon's configuration file parser (`--config`), on arbitrary text.
///
/// Invariants: a rejection names a line that exists; an accepted file only sets valid engine
/// names, positive counts, and absolute `api-key-file` paths; parsing is deterministic.
@c(LLVMFuzzerTestOneInput)
public func fuzzConfigFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let base = DaemonConfiguration(environment: ["HOME": "/nonexistent"], isRoot: false)
    let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }.count
    do {
        let configuration = try ConfigFile.apply(text, to: base)
        for name in configuration.engineThresholds.keys {
            invariant(EngineName.parse(name) != nil, "engine section \(name) accepted")
        }
        invariant(configuration.maximumPairs > 0 && configuration.maximumConnections > 0, "a count of zero accepted")
        for (name, settings) in configuration.sourceSettings {
            invariant(settings.apiKeyFile.map { $0.hasPrefix("/") } ?? true, "source \(name): relative api-key-file")
        }
        invariant((try? ConfigFile.apply(text, to: base)) == configuration, "a second parse differs")
    } catch {
        invariant((1...lines).contains(error.line), "\(error) names no line of \(lines)")
        _ = error.description
    }
    return 0
}
