/// `Accept-Encoding` negotiation for every response (RFC 9110 §12.5.3).
public enum ContentCoding {
    /// Whether the request's `Accept-Encoding` values admit gzip: `gzip` or `x-gzip` with a
    /// non-zero weight, or else `*` with a non-zero weight. No header, no gzip.
    public static func acceptsGzip(_ values: [String]) -> Bool {
        var gzipWeight: Double?
        var anyWeight: Double?
        for value in values {
            for item in value.split(separator: ",") {
                let parts = item.split(separator: ";")
                guard let first = parts.first else { continue }
                let coding = first.trimmingSpaces.lowercased()
                var weight = 1.0
                for parameter in parts.dropFirst() {
                    let pair = parameter.split(separator: "=", maxSplits: 1)
                    if pair.count == 2, pair[0].trimmingSpaces.lowercased() == "q" {
                        weight = Double(pair[1].trimmingSpaces) ?? 0
                    }
                }
                switch coding {
                case "gzip", "x-gzip": gzipWeight = max(gzipWeight ?? 0, weight)
                case "*": anyWeight = weight
                default: break
                }
            }
        }
        return (gzipWeight ?? anyWeight ?? 0) > 0
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = self.firstIndex(where: { !isSpace($0) }), let end = self.lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[start...end]
    }
}
