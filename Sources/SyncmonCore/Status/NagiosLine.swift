/// `syncmon status --format nagios`: the whole status as one line in the Nagios plugin output
/// convention, for Nagios, Icinga and anything else that runs check commands.
///
/// ```
/// SYNCMON CRITICAL - 2 of 20 critical: notes/private stalled (not_syncing), photos/private error (quotaExceeded) | ok=18 warning=0 critical=2 unknown=0
/// ```
///
/// Monitoring systems show the text before ` | ` (often only its start) and graph the perfdata
/// after it, so the text leads with the verdict and the pairs that need a look, worst first, and
/// stays short: at most ``maximumListedProblems`` pairs and about ``maximumProblemText``
/// characters of them, then how many more there are. The state word is the same severity
/// `syncmon status` exits with.
public enum NagiosLine {
    /// The most problem pairs named before "… and K more".
    public static let maximumListedProblems = 8
    /// About how many characters of problem pairs are listed before "… and K more" (one pair is
    /// always listed, whatever its length).
    public static let maximumProblemText = 300

    /// The line for `rows` and `sources` (without a newline). `engine` is the `--engine` asked
    /// for, if any: it names what is missing when there are no rows. Failing sources lead the
    /// text (critical: the engines behind them cannot be seen); the perfdata counts pairs only.
    public static func render(rows: [StatusRow], sources: [SourceStatus] = [], engine: String? = nil) -> String {
        let severities = rows.map(\.summary.severity)
        let worst = StatusDocument.severity(rows: rows, sources: sources)
        let perfdata = self.perfdata(severities)
        let failing = sources.filter(\.isFailing).map { source in
            self.sanitized("source \(source.name) not connected (\(self.shortened(source.lastError ?? source.state.description)))")
        }
        let lead = failing.isEmpty ? "" : self.list(failing) + "; "
        guard !rows.isEmpty else {
            let text = engine.map { "no engine named \(self.sanitized($0)) is tracked" } ?? "no engines tracked"
            return "SYNCMON \(worst) - \(lead)\(text) | \(perfdata)"
        }
        guard Severity.worst(of: severities) != .ok else {
            let pairs = rows.count == 1 ? "1 engine/database pair" : "\(rows.count) engine/database pairs"
            return "SYNCMON \(worst) - \(lead)\(pairs) ok | \(perfdata)"
        }
        // Problems worst first; within a severity in the order the daemon listed them (by engine,
        // then database), so the line reads the same from one check to the next.
        let problems = rows.enumerated()
            .filter { $0.element.summary.severity != .ok }
            .sorted { lhs, rhs in
                let (left, right) = (lhs.element.summary.severity, rhs.element.summary.severity)
                return left == right ? lhs.offset < rhs.offset : self.isWorse(left, than: right)
            }
            .map { self.describe($0.element) }
        let worstOfRows = Severity.worst(of: severities)
        let worstCount = severities.filter { $0 == worstOfRows }.count
        return "SYNCMON \(worst) - \(lead)\(worstCount) of \(rows.count) \(worstOfRows.description.lowercased()): \(self.list(problems)) | \(perfdata)"
    }

    /// The most characters of a source's error a line carries: enough for its hint.
    static let maximumSourceErrorText = 120

    /// `text` cut to ``maximumSourceErrorText`` characters, ending in `…` when cut.
    static func shortened(_ text: String) -> String {
        text.count > self.maximumSourceErrorText ? String(text.prefix(self.maximumSourceErrorText - 1)) + "…" : text
    }

    /// The line when the daemon could not be asked (exit 3). No perfdata: nothing was counted, and
    /// zeros would draw a false dip in the graphs.
    public static func unreachable(reason: String) -> String {
        self.unknown("daemon unreachable: \(reason)")
    }

    /// An UNKNOWN line saying `text`, for a check that could not be made (a bad argument, say).
    public static func unknown(_ text: String) -> String {
        "SYNCMON UNKNOWN - \(self.sanitized(text))"
    }

    /// What to say in brackets after a problem pair's summary, or `nil` when there is nothing to
    /// add: the stall reasons of a `stalled` pair; for `error` and `retrying`, the error code of the
    /// first failed phase in the order setup, import, export; behind a summary that outranks
    /// `error`, the actionable failure it hides (`no_network (setup failed: folderError)`), which
    /// needs a look whether or not the network comes back.
    public static func problemDetail(of row: StatusRow) -> String? {
        switch row.summary {
        case .stalled:
            return row.stalls.isEmpty ? nil : row.stalls.map(row.describe).joined(separator: ",")
        case .error, .retrying:
            // The outstanding failure: a retry in progress still shows what it keeps failing with.
            return row.outstandingFailure.map { "\($0.failure.error.code)" }
        default:
            return StatusDetail.hiddenFailure(of: row).map { "\($0.phase) failed: \($0.failure.error.code)" }
        }
    }

    /// `engine/database summary (detail)`.
    static func describe(_ row: StatusRow) -> String {
        let text = "\(row.key) \(row.summary)"
        guard let detail = self.problemDetail(of: row) else { return self.sanitized(text) }
        return self.sanitized("\(text) (\(detail))")
    }

    /// The problems joined by ", ", cut at ``maximumListedProblems`` pairs or
    /// ``maximumProblemText`` characters, whichever comes first.
    static func list(_ problems: [String]) -> String {
        var text = ""
        var listed = 0
        for problem in problems {
            let next = listed == 0 ? problem : text + ", " + problem
            guard listed == 0 || (listed < self.maximumListedProblems && next.count <= self.maximumProblemText) else { break }
            text = next
            listed += 1
        }
        let more = problems.count - listed
        return more > 0 ? "\(text), … and \(more) more" : text
    }

    /// `ok=N warning=N critical=N unknown=N`: rows per severity.
    static func perfdata(_ severities: [Severity]) -> String {
        [Severity.ok, .warning, .critical, .unknown]
            .map { severity in "\(severity.description.lowercased())=\(severities.filter { $0 == severity }.count)" }
            .joined(separator: " ")
    }

    /// Whether `lhs` is the more severe of two different severities, in the order of
    /// ``Severity/worst(of:)`` (critical, unknown, warning, ok).
    static func isWorse(_ lhs: Severity, than rhs: Severity) -> Bool {
        lhs != rhs && Severity.worst(of: [lhs, rhs]) == lhs
    }

    /// `text` made safe for a plugin's output line: `|` starts the perfdata and a line break ends
    /// the first line, so error codes and reasons (which engines and the network supply) cannot
    /// carry either.
    static func sanitized(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "|": result.append("/")
            case _ where scalar.properties.generalCategory == .control: result.append(" ")
            default: result.append(scalar)
            }
        }
        return String(result)
    }
}
