import SyncmonCore

/// Reads rsync's output (rsync 3.2): `--info=progress2` records on standard output are
/// progress, `rsync: …` lines on standard error are problems, and `@ERROR: …` (from a daemon)
/// or `rsync error: …` is the failure's message (docs/wrap.md).
///
/// Progress records are separated by `\r`, not `\n`, so the caller splits standard output on
/// both. rsync prints one at most every second and only while data moves: silence is the stall.
/// A record is `  1238099  21%  998.05kB/s    0:00:03 (xfr#1, to-chk=3/5)`; with `--no-h` the
/// bytes are plain digits, otherwise they carry the locale's separators or (`-hh`) a unit
/// suffix. Progress is the bytes changing (for per-file `--progress` records they restart at
/// each file) or `xfr#` growing.
public struct RsyncProgressParser: ToolOutputParser {
    /// wrap added `--info=progress2`: the records are read, not shown.
    let hideProgress: Bool
    private var previousBytes: Int64?
    private var previousTransfers: Int64 = 0
    private var daemonError: String?
    /// The first `rsync: …` line: what went wrong, where the final line only says that
    /// something did ("see previous errors").
    private var firstError: String?
    /// The final `rsync error: …` (or `rsync warning: …`) line.
    private var finalError: String?

    public init(hideProgress: Bool) {
        self.hideProgress = hideProgress
    }

    /// A daemon's `@ERROR: …`, which says more than the `rsync error: … (code 5)` after it;
    /// else the first error rsync reported and its final line.
    public var lastError: String? {
        if let daemonError = self.daemonError { return daemonError }
        return [self.firstError, self.finalError].compactMap { $0 }.joined(separator: "; ").nilIfEmpty
    }

    /// One progress record's fields.
    struct Record: Equatable {
        var bytes: Int64
        var transfers: Int64?
    }

    public mutating func read(_ line: String, from stream: ToolOutputStream) -> ParsedLine {
        switch stream {
        case .standardOutput:
            guard let record = Self.record(line) else { return ParsedLine() }
            var delta = ProgressDelta()
            if let previous = self.previousBytes {
                if record.bytes != previous { delta.bytes = max(1, record.bytes - previous) }
            } else if record.bytes > 0 {
                delta.bytes = record.bytes
            }
            if let transfers = record.transfers {
                delta.files = max(0, transfers - self.previousTransfers)
                self.previousTransfers = max(self.previousTransfers, transfers)
            }
            self.previousBytes = record.bytes
            return ParsedLine(delta.isProgress ? [.progress(delta)] : [], display: self.hideProgress ? .hidden : .unchanged)
        case .standardError:
            if line.hasPrefix("@ERROR: ") {
                self.daemonError = line
            } else if line.hasPrefix("rsync error: ") || line.hasPrefix("rsync warning: ") {
                self.finalError = line
            } else if line.hasPrefix("rsync: ") {
                // "rsync: [sender] send_files failed to open "/x": Permission denied (13)"
                if self.firstError == nil { self.firstError = line }
                return ParsedLine([.problem(ToolProblem(.itemFailed, message: line))])
            }
            return ParsedLine()
        }
    }

    /// A progress record, or `nil` for any other line (file names, the final totals).
    static func record(_ line: String) -> Record? {
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard fields.count >= 4, fields[1].hasSuffix("%"), fields[2].hasSuffix("/s"),
            fields[3].contains(":"), let bytes = Self.number(fields[0])
        else { return nil }
        var transfers: Int64?
        if fields.count >= 5, fields[4].hasPrefix("(xfr#") {
            transfers = Int64(fields[4].dropFirst(5).prefix { $0.isASCII && $0.isNumber })
        }
        return Record(bytes: bytes, transfers: transfers)
    }

    /// `1238099`, `1,238,099`, `1.238.099` or `1.24M`.
    static func number(_ text: Substring) -> Int64? {
        guard let first = text.first, first.isASCII, first.isNumber else { return nil }
        let units: [Character: Double] = ["K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15]
        if let last = text.last, let unit = units[last] {
            // Beyond what an Int64 holds (`99999999999P`, `1e999K`) is not a count rsync prints.
            guard let value = Double(text.dropLast().replacing(",", with: ".")), value * unit < 9.2e18 else { return nil }
            return Int64(value * unit)
        }
        let digits = text.filter { $0 != "," && $0 != "." }
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(digits)
    }
}

extension String {
    /// `nil` for the empty string.
    var nilIfEmpty: String? { self.isEmpty ? nil : self }
}
