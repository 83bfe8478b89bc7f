/// A parsed Prometheus text (0.0.4) or OpenMetrics exposition, to check families and samples
/// by name and labels instead of by string search.
public struct MetricsText: Sendable {
    /// One sample line.
    public struct Sample: Sendable, CustomStringConvertible {
        public var name: String
        public var labels: [String: String]
        public var value: String
        /// A sample timestamp after the value, if the line has one (syncmon writes none).
        public var timestamp: String?

        public var number: Double? { Double(self.value) }

        public var description: String {
            let labels = self.labels.sorted { $0.key < $1.key }.map { "\($0.key)=\"\($0.value)\"" }.joined(separator: ",")
            return "\(self.name){\(labels)} \(self.value)" + (self.timestamp.map { " \($0)" } ?? "")
        }
    }

    /// `# HELP` texts and `# TYPE`s by family name.
    public private(set) var help: [String: String] = [:]
    public private(set) var types: [String: String] = [:]
    /// Family names in the order their `# TYPE` lines appear.
    public private(set) var familyOrder: [String] = []
    public private(set) var samples: [Sample] = []
    /// Whether the last line is `# EOF` (OpenMetrics).
    public private(set) var endsWithEOF = false

    public init(_ text: String) throws {
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(rawLine)
            if line.isEmpty { continue }
            if line == "# EOF" {
                self.endsWithEOF = true
                continue
            }
            if line.hasPrefix("# HELP ") {
                let rest = line.dropFirst("# HELP ".count)
                let name = rest.prefix { $0 != " " }
                self.help[String(name)] = String(rest.dropFirst(name.count + 1))
                continue
            }
            if line.hasPrefix("# TYPE ") {
                let parts = line.dropFirst("# TYPE ".count).split(separator: " ")
                guard parts.count == 2 else { throw TestSupportError("bad TYPE line: \(line)") }
                self.types[String(parts[0])] = String(parts[1])
                self.familyOrder.append(String(parts[0]))
                continue
            }
            if line.hasPrefix("#") { continue }
            self.samples.append(try Self.parseSample(line))
        }
    }

    /// Samples named exactly `name` whose labels include `labels`.
    public func samples(_ name: String, _ labels: [String: String] = [:]) -> [Sample] {
        self.samples.filter { sample in
            sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value }
        }
    }

    /// The value of the single sample named `name` with `labels` (nil when none or several).
    public func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        let matching = self.samples(name, labels)
        return matching.count == 1 ? matching[0].number : nil
    }

    private static func parseSample(_ line: String) throws -> Sample {
        let scalars = Array(line.unicodeScalars)
        var index = 0
        var name = ""
        while index < scalars.count, scalars[index] != "{", scalars[index] != " " {
            name.unicodeScalars.append(scalars[index])
            index += 1
        }
        var labels: [String: String] = [:]
        if index < scalars.count, scalars[index] == "{" {
            index += 1
            while index < scalars.count, scalars[index] != "}" {
                var key = ""
                while index < scalars.count, scalars[index] != "=" {
                    key.unicodeScalars.append(scalars[index])
                    index += 1
                }
                index += 1
                guard index < scalars.count, scalars[index] == "\"" else { throw TestSupportError("bad label in: \(line)") }
                index += 1
                var value = ""
                while index < scalars.count, scalars[index] != "\"" {
                    if scalars[index] == "\\", index + 1 < scalars.count {
                        index += 1
                        switch scalars[index] {
                        case "n": value += "\n"
                        case "\\": value += "\\"
                        case "\"": value += "\""
                        default: throw TestSupportError("bad escape in: \(line)")
                        }
                    } else {
                        value.unicodeScalars.append(scalars[index])
                    }
                    index += 1
                }
                guard index < scalars.count else { throw TestSupportError("unterminated label value in: \(line)") }
                index += 1
                labels[key] = value
                if index < scalars.count, scalars[index] == "," { index += 1 }
            }
            guard index < scalars.count else { throw TestSupportError("unterminated labels in: \(line)") }
            index += 1
        }
        let rest = String(String.UnicodeScalarView(scalars[index...])).split(separator: " ")
        guard !rest.isEmpty, rest.count <= 2 else { throw TestSupportError("bad sample line: \(line)") }
        return Sample(name: name, labels: labels, value: String(rest[0]), timestamp: rest.count == 2 ? String(rest[1]) : nil)
    }
}
