/// One element of an HTTP `Accept` header (`type/subtype;param=value;q=0.5`), parsed just far enough
/// for content negotiation.
///
/// Parsing is forgiving in the way scrapers need: an element that cannot be parsed, or whose `q` is
/// malformed, is skipped rather than failing the whole header, because the response must always be
/// something the scraper can read (text 0.0.4 at worst).
struct MediaRange: Equatable {
    /// Lower-cased media type, e.g. `application`, or `*`.
    var type: Substring
    /// Lower-cased media subtype, e.g. `openmetrics-text`, or `*`.
    var subtype: Substring
    /// The `version` parameter, unquoted, if present.
    var version: Substring?
    /// The weight in thousandths (`q=0.5` is 500). Integers keep ties exact: `0.3` and `0.30` compare equal.
    var weight: Int

    /// Parses one comma-separated element of an `Accept` header; `nil` when it is malformed.
    init?(parsing element: Substring) {
        var parts = element.split(separator: ";", omittingEmptySubsequences: false).makeIterator()
        guard let mediaType = parts.next() else { return nil }
        let typeAndSubtype = MediaRange.trimmed(mediaType).split(separator: "/", omittingEmptySubsequences: false)
        guard typeAndSubtype.count == 2, !typeAndSubtype[0].isEmpty, !typeAndSubtype[1].isEmpty else { return nil }
        self.type = Substring(typeAndSubtype[0].lowercased())
        self.subtype = Substring(typeAndSubtype[1].lowercased())
        self.version = nil
        self.weight = 1000

        while let parameter = parts.next() {
            let trimmedParameter = MediaRange.trimmed(parameter)
            // Tolerate a stray `;` (e.g. `text/plain;;q=0.5`) instead of dropping the whole element.
            if trimmedParameter.isEmpty { continue }
            guard let equals = trimmedParameter.firstIndex(of: "=") else { return nil }
            let name = MediaRange.trimmed(trimmedParameter[..<equals]).lowercased()
            var value = MediaRange.trimmed(trimmedParameter[trimmedParameter.index(after: equals)...])
            if value.count >= 2, value.first == "\"", value.last == "\"" {
                value = value.dropFirst().dropLast()
            }
            switch name {
            case "q":
                guard let weight = MediaRange.parseWeight(value) else { return nil }
                self.weight = weight
            case "version":
                self.version = value
            default:
                // `charset`, `escaping` and the like do not change what we can serve: syncmon emits
                // only legacy-valid names, UTF-8 encoded, which every escaping scheme accepts as is.
                continue
            }
        }
    }

    /// How specifically this range names `type/subtype` with a `version` we can serve, or `nil` when
    /// it does not cover it. RFC 9110 §12.5.1: a more specific range overrides a less specific one.
    ///
    /// - Parameter acceptsVersion: whether a `version` parameter value names a version we produce.
    /// - Returns: 0 for `*/*`, 1 for `type/*`, 2 for `type/subtype`, 3 for `type/subtype;version=…`.
    func specificity(type: String, subtype: String, acceptsVersion: (Substring) -> Bool) -> Int? {
        if self.type == "*" {
            // `*/subtype` is not a valid range; only `*/*` is.
            return self.subtype == "*" ? 0 : nil
        }
        guard self.type == type else { return nil }
        if self.subtype == "*" { return 1 }
        guard self.subtype == subtype else { return nil }
        guard let version = self.version else { return 2 }
        return acceptsVersion(version) ? 3 : nil
    }

    /// Parses an RFC 9110 `qvalue` (`0`, `0.5`, `1.000`, at most three decimals) into thousandths.
    static func parseWeight(_ text: Substring) -> Int? {
        let utf8 = Array(text.utf8)
        guard let first = utf8.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
        var weight = Int(first - UInt8(ascii: "0")) * 1000
        if utf8.count == 1 { return weight }
        guard utf8[1] == UInt8(ascii: "."), utf8.count <= 5 else { return nil }
        var scale = 100
        for digit in utf8.dropFirst(2) {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            weight += Int(digit - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        return weight <= 1000 ? weight : nil
    }

    /// Drops the optional whitespace (spaces and tabs) HTTP allows around separators.
    static func trimmed(_ text: Substring) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = text.firstIndex(where: { !isSpace($0) }) else { return text[text.endIndex...] }
        let end = text.lastIndex(where: { !isSpace($0) })!
        return text[start...end]
    }
}
