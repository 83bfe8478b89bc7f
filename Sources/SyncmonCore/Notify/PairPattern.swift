/// One `engines` glob of a notification route: `*` any run of characters, `?` one, matched
/// against `ENGINE/DATABASE` when the pattern has a `/`, else against `ENGINE` alone.
public struct PairPattern: Equatable, Sendable, CustomStringConvertible {
    /// The pattern as written.
    public let description: String
    private let pattern: [UInt8]
    private let matchesDatabase: Bool

    public init(_ pattern: String) {
        self.description = pattern
        self.pattern = Array(pattern.utf8)
        self.matchesDatabase = pattern.utf8.contains(UInt8(ascii: "/"))
    }

    /// Whether `pair` matches.
    public func matches(_ pair: PairKey) -> Bool {
        let name = self.matchesDatabase ? pair.description : pair.engine.description
        return Self.glob(self.pattern[...], Array(name.utf8)[...])
    }

    /// Glob matching with one backtracking point, the last `*`: linear in practice, and the
    /// names are at most 129 bytes.
    static func glob(_ pattern: ArraySlice<UInt8>, _ text: ArraySlice<UInt8>) -> Bool {
        var p = pattern.startIndex
        var t = text.startIndex
        var star: (pattern: Int, text: Int)?
        while t < text.endIndex {
            if p < pattern.endIndex, pattern[p] == UInt8(ascii: "?") || pattern[p] == text[t] {
                p += 1
                t += 1
            } else if p < pattern.endIndex, pattern[p] == UInt8(ascii: "*") {
                star = (p, t)
                p += 1
            } else if let last = star {
                p = last.pattern + 1
                t = last.text + 1
                star = (last.pattern, last.text + 1)
            } else {
                return false
            }
        }
        while p < pattern.endIndex, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.endIndex
    }
}
