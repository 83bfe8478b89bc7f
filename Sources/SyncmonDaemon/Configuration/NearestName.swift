/// The known name nearest a mistyped one, for "did you mean …?": Levenshtein distance over
/// characters, at most a third of the longer name (at least 1), so a name is only suggested
/// when the typo could be one; a name cut short by at most half (`api-key` for `api-key-file`)
/// counts as one edit.
enum NearestName {
    static func nearest(to typed: String, in names: [String]) -> String? {
        let typed = Array(typed)
        var best: (name: String, distance: Int)? = nil
        for name in names {
            let candidate = Array(name)
            let isCut = typed.count * 2 >= candidate.count && candidate.starts(with: typed)
            let distance = isCut ? 1 : Self.distance(typed, candidate)
            guard distance <= max(1, max(typed.count, candidate.count) / 3) else { continue }
            if best == nil || distance < best!.distance { best = (name, distance) }
        }
        return best?.name
    }

    /// Insertions, deletions and substitutions that turn `a` into `b`.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        var row = previous
        for i in 1...a.count {
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &row)
        }
        return previous[b.count]
    }
}
