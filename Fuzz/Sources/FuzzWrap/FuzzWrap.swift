import FuzzSupport
import SyncmonAdapters
import SyncmonCore

/// `syncmon wrap`'s output parsers: rclone's JSON log, restic's `--json` messages and rsync's
/// `--info=progress2` lines, behind the line splitter that cuts a tool's output.
///
/// The first byte picks the tool, its display options and the stream; the rest is the output.
/// Invariants: splitting loses no byte and keeps lines within the limit; progress never goes
/// negative; a report's event payload can be made for every phase.
@c(LLVMFuzzerTestOneInput)
public func fuzzWrap(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let (selector, rest) = input.selectorAndRest
    let flag = selector & 0x10 != 0
    let stream: ToolOutputStream = selector & 0x20 != 0 ? .standardOutput : .standardError
    var parser: any ToolOutputParser
    switch selector & 0x03 {
    case 0: parser = RcloneProgressParser(renderJSONLog: flag, hideStats: selector & 0x40 != 0)
    case 1: parser = ResticProgressParser(renderJSON: flag)
    default: parser = RsyncProgressParser(hideProgress: flag)
    }
    let limit = 512
    var splitter = LineSplitter(splitsOnCarriageReturn: selector & 0x03 >= 2, maximumLength: limit)
    var lines = splitter.feed(rest)
    if let last = splitter.finish() { lines.append(last) }
    invariant(lines.flatMap(\.raw) == Array(rest), "the splitter lost or added bytes")

    for line in lines {
        invariant(line.bytes.count <= limit, "a line of \(line.bytes.count) bytes over \(limit)")
        let parsed = parser.read(line.text, from: stream)
        for report in parsed.reports {
            if case .progress(let delta) = report {
                invariant(delta.bytes >= 0 && delta.files >= 0 && delta.checks >= 0 && delta.deletes >= 0, "negative progress \(delta)")
            }
            for phase in [Phase.import, .export, .setup] { _ = report.payload(for: phase) }
        }
    }
    _ = parser.lastError
    return 0
}
