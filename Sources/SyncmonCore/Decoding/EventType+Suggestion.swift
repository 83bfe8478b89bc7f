extension EventType {
    /// What to say after an unknown event type, as `syncmon emit` and `syncmon replay` both do:
    /// `did you mean heartbeat?` for a near miss (``NearestName``), else the list of types.
    public static func suggestion(for typed: String) -> String {
        let names = Self.allCases.map(\.description)
        if let nearest = NearestName.nearest(to: typed, in: names) { return "did you mean \(nearest)?" }
        return "the types are " + names.joined(separator: ", ")
    }

    /// The `type` of a JSON object line, when it is a string: what a line rejected as
    /// `unknown_type` asked for, so that its rejection can name it. Nil for a line that is not a
    /// JSON object or has no string `type` at its top level.
    public static func typeName(of line: UnsafeRawBufferPointer) -> String? {
        var scanner = JSONScanner(line)
        do {
            try scanner.expect(UInt8(ascii: "{"))
            if scanner.consume(UInt8(ascii: "}")) { return nil }
            repeat {
                scanner.skipWhitespace()
                guard scanner.current == UInt8(ascii: "\"") else { return nil }
                let key = try scanner.withString { $0.map { String(decoding: $0, as: UTF8.self) } }
                try scanner.expect(UInt8(ascii: ":"))
                scanner.skipWhitespace()
                if key == "type", scanner.current == UInt8(ascii: "\"") {
                    return try scanner.withString { $0.map { String(decoding: $0, as: UTF8.self) } }
                }
                try scanner.skipValue()
            } while scanner.consume(UInt8(ascii: ","))
        } catch {
            return nil
        }
        return nil
    }
}
