extension CanaryFile {
    /// Reads a peer's file strictly: one JSON object with exactly the keys `v` (1), `host`,
    /// `seq` (a non-negative integer), `written` (RFC 3339) and `seen` (host → non-negative
    /// integer), each once, nothing after it, at most ``maximumSize`` bytes. `nil` for anything
    /// else: a peer file is input from another host and is never trusted further.
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> CanaryFile? {
        guard bytes.count <= Self.maximumSize else { return nil }
        var scanner = JSONScanner(bytes)
        do throws(MalformedJSON) {
            let file = try Self.object(&scanner)
            scanner.skipWhitespace()
            return scanner.isAtEnd ? file : nil
        } catch {
            return nil
        }
    }

    /// `parse` over an array of bytes.
    public static func parse(_ bytes: [UInt8]) -> CanaryFile? {
        bytes.withUnsafeBytes { Self.parse($0) }
    }

    /// The keys of the object, one bit each, so a repeated or missing key is refused.
    private enum Key: UInt8 {
        case version = 1, host = 2, seq = 4, written = 8, seen = 16
        static let all: UInt8 = 31
    }

    private static func object(_ scanner: inout JSONScanner) throws(MalformedJSON) -> CanaryFile? {
        try scanner.expect(UInt8(ascii: "{"))
        var present: UInt8 = 0
        var host: CanaryHost?
        var seq: Int64?
        var written: Timestamp?
        var seen: [CanaryHost: Int64] = [:]
        repeat {
            scanner.skipWhitespace()
            guard scanner.current == UInt8(ascii: "\"") else { throw MalformedJSON() }
            let key = try scanner.withString { bytes -> Key? in
                guard let bytes else { return nil }
                if InlineName.bytes(bytes, equal: "v") { return .version }
                if InlineName.bytes(bytes, equal: "host") { return .host }
                if InlineName.bytes(bytes, equal: "seq") { return .seq }
                if InlineName.bytes(bytes, equal: "written") { return .written }
                if InlineName.bytes(bytes, equal: "seen") { return .seen }
                return nil
            }
            guard let key, present & key.rawValue == 0 else { throw MalformedJSON() }
            present |= key.rawValue
            try scanner.expect(UInt8(ascii: ":"))
            scanner.skipWhitespace()
            switch key {
            case .version:
                guard try Self.count(&scanner) == Self.version else { throw MalformedJSON() }
            case .host:
                host = try Self.host(&scanner)
            case .seq:
                seq = try Self.count(&scanner)
            case .written:
                guard scanner.current == UInt8(ascii: "\"") else { throw MalformedJSON() }
                written = try scanner.withString { bytes in bytes.flatMap { RFC3339.parse($0) } }
                guard written != nil else { throw MalformedJSON() }
            case .seen:
                seen = try Self.seen(&scanner)
            }
        } while scanner.consume(UInt8(ascii: ","))
        try scanner.expect(UInt8(ascii: "}"))
        guard present == Key.all, let host, let seq, let written else { return nil }
        return CanaryFile(host: host, seq: seq, written: written, seen: seen)
    }

    /// A non-negative integer that fits `Int64`.
    private static func count(_ scanner: inout JSONScanner) throws(MalformedJSON) -> Int64 {
        let byte = scanner.current
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { throw MalformedJSON() }
        guard let value = try scanner.number().integer, value >= 0 else { throw MalformedJSON() }
        return value
    }

    /// A string that is a valid host name.
    private static func host(_ scanner: inout JSONScanner) throws(MalformedJSON) -> CanaryHost {
        guard scanner.current == UInt8(ascii: "\"") else { throw MalformedJSON() }
        guard let host = try scanner.withString({ $0.flatMap(CanaryHost.init(bytes:)) }) else { throw MalformedJSON() }
        return host
    }

    /// `{"HOST": SEQ, …}`, each host once.
    private static func seen(_ scanner: inout JSONScanner) throws(MalformedJSON) -> [CanaryHost: Int64] {
        try scanner.expect(UInt8(ascii: "{"))
        var seen: [CanaryHost: Int64] = [:]
        if scanner.consume(UInt8(ascii: "}")) { return seen }
        repeat {
            scanner.skipWhitespace()
            let host = try Self.host(&scanner)
            try scanner.expect(UInt8(ascii: ":"))
            scanner.skipWhitespace()
            let value = try Self.count(&scanner)
            guard seen.updateValue(value, forKey: host) == nil else { throw MalformedJSON() }
        } while scanner.consume(UInt8(ascii: ","))
        try scanner.expect(UInt8(ascii: "}"))
        return seen
    }
}
