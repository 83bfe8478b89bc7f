/// A set of labels rendered once into escaped bytes, `engine="notes",database="private"`, ready to be
/// copied into every sample line that carries it.
///
/// Rendering and escaping cost a pass over the values; with ~120 series per engine, doing it once per
/// engine (and once per fixed extra label such as `phase="import"`) instead of once per sample is most
/// of what keeps `/metrics` cheap. Label names come from code and are checked; values may be anything
/// (engine and database names arrive from outside) and are escaped.
///
/// Order is kept as given; the writer does not sort. The same label name must not appear both here and
/// in a label set combined with it on one sample.
public struct LabelSet: Sendable, Hashable {
    /// `name="escaped value"` pairs joined by commas, without braces; empty for no labels.
    private(set) var bytes: [UInt8]

    /// The label names, kept only to refuse duplicates when sets are combined.
    private var names: [String]

    /// No labels.
    public static let empty = LabelSet()

    /// No labels.
    public init() {
        self.bytes = []
        self.names = []
    }

    /// Labels from name/value pairs, in this order. Traps on an invalid or repeated label name, which
    /// is a programming error: names come from code.
    public init(_ labels: KeyValuePairs<String, String>) {
        self.init()
        for (name, value) in labels {
            self = self.appending(name, value)
        }
    }

    /// One label.
    public init(_ name: String, _ value: String) {
        self.init()
        self = self.appending(name, value)
    }

    /// Labels from name/value pairs, throwing instead of trapping on a bad name.
    public init(validating labels: [(name: String, value: String)]) throws(MetricDefinitionError) {
        self.init()
        for (name, value) in labels {
            try self.append(name, value)
        }
    }

    /// Whether there are no labels.
    public var isEmpty: Bool { self.bytes.isEmpty }

    /// The rendered form, `a="x",b="y"`, as it appears between the braces.
    public var rendered: String { String(decoding: self.bytes, as: UTF8.self) }

    /// This set plus one more label at the end. Traps on an invalid or repeated name.
    public func appending(_ name: String, _ value: String) -> LabelSet {
        var copy = self
        do {
            try copy.append(name, value)
        } catch {
            preconditionFailure("\(error)")
        }
        return copy
    }

    /// This set followed by `other`'s labels. Traps on a repeated name.
    public func appending(_ other: LabelSet) -> LabelSet {
        var copy = self
        for name in other.names {
            precondition(!copy.names.contains(name), "\(MetricDefinitionError.duplicateLabelName(name))")
        }
        if !copy.bytes.isEmpty, !other.bytes.isEmpty {
            copy.bytes.append(UInt8(ascii: ","))
        }
        copy.bytes.append(contentsOf: other.bytes)
        copy.names.append(contentsOf: other.names)
        return copy
    }

    /// Appends `name="value"` with the value escaped.
    private mutating func append(_ name: String, _ value: String) throws(MetricDefinitionError) {
        guard ExpositionNames.isValidLabelName(name) else { throw .invalidLabelName(name) }
        guard !self.names.contains(name) else { throw .duplicateLabelName(name) }
        if !self.bytes.isEmpty {
            self.bytes.append(UInt8(ascii: ","))
        }
        self.bytes.append(contentsOf: name.utf8)
        self.bytes.append(contentsOf: "=\"".utf8)
        Escaping.appendLabelValue(value, to: &self.bytes)
        self.bytes.append(UInt8(ascii: "\""))
        self.names.append(name)
    }
}
