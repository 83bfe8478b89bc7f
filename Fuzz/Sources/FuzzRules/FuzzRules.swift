import FuzzSupport
import SyncmonCore
import SyncmonRules

/// The rules file parser and the matching of lines (SPEC §10.4), on arbitrary input: the input's
/// first line (up to a NUL byte) is a rules file, the rest journal messages, one a line.
///
/// Invariants: a rejection names a line that exists; an accepted file's every emitted event
/// decodes (its emits were checked with sample captures, so what captures fill in may still be
/// rejected, but never crash) and fits the line limit; matching is deterministic.
@c(LLVMFuzzerTestOneInput)
public func fuzzRules(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let split = bytes.firstIndex(of: 0) ?? bytes.endIndex
    let text = String(decoding: bytes[..<split], as: UTF8.self)
    let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }.count
    let pack: RulePack
    do {
        pack = try RulesFile.parse(text, file: "fuzz.rules")
    } catch {
        invariant((1...max(1, lines)).contains(error.line), "\(error) names no line of \(lines)")
        return 0
    }
    let messages = split < bytes.endIndex ? bytes[(split + 1)...].split(separator: 0x0A, omittingEmptySubsequences: false) : []
    for message in messages.prefix(64) {
        let line = JournalLine(bytes: message, time: Timestamp(seconds: 1_795_000_000))
        let evaluation = pack.evaluate(line)
        let again = pack.evaluate(line)
        invariant(evaluation.match?.rule.name == again.match?.rule.name, "matching is not deterministic")
        for event in evaluation.match?.events(engine: "fuzz", database: "default") ?? [] {
            invariant(event.utf8.count <= 65_536, "an event over the line limit")
            _ = EventDecoder().decode(Array(event.utf8))
        }
    }
    return 0
}
