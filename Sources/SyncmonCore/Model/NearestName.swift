/// The known name nearest a mistyped one, for "did you mean …?" everywhere syncmon suggests one:
/// configuration keys, web configuration keys, event types, commands and flags.
///
/// Edit distance over characters (a swap of two neighbours is one edit), ignoring case, at most a
/// third of the longer name (at least 1), so a name is only suggested when the typo could be one
/// (`stauts` → `status`, but `foo` is not near `json`); a name cut short by at most half (`api-key` for `api-key-file`,
/// `basic_auth_user` for `basic_auth_users`) counts as one edit.
public enum NearestName {
    /// The nearest of `names` to `typed`, or nil when none is near enough; the first of equals.
    public static func nearest(to typed: String, in names: [String]) -> String? {
        let typed = Array(typed.lowercased())
        var best: (name: String, distance: Int)? = nil
        for name in names {
            let candidate = Array(name.lowercased())
            let isCut = typed.count * 2 >= candidate.count && candidate.starts(with: typed)
            let distance = isCut ? 1 : Self.distance(typed, candidate)
            guard distance <= max(1, max(typed.count, candidate.count) / 3) else { continue }
            if best.map({ distance < $0.distance }) ?? true { best = (name, distance) }
        }
        return best?.name
    }

    /// Insertions, deletions, substitutions and swaps of two neighbours that turn `a` into `b`
    /// (the optimal string alignment distance): `wathc` is one edit from `watch`, as typed.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        var beforePrevious = Array(0...b.count)
        var previous = beforePrevious
        var row = previous
        for i in 1...a.count {
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { row[j] = min(row[j], beforePrevious[j - 2] + 1) }
            }
            (beforePrevious, previous, row) = (previous, row, beforePrevious)
        }
        return previous[b.count]
    }
}
