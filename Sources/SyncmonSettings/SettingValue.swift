import SyncmonCore

/// How one kind of setting value is written and read: the placeholder help shows (`DURATION`),
/// the forms accepted (which every refusal repeats), the parser, and how a value is written back
/// (the defaults in the reference).
public struct SettingValue<Value: Sendable>: Sendable {
    /// The value's name in help and the man page: `DURATION`, `HOST:PORT`.
    public let placeholder: String
    /// What may be written, as a sentence fragment: `auto, off, online or offline`.
    public let accepted: String
    package let parse: @Sendable (String) throws(SettingValueError) -> Value
    package let format: @Sendable (Value) -> String

    public init(
        placeholder: String,
        accepted: String,
        parse: @escaping @Sendable (String) throws(SettingValueError) -> Value,
        format: @escaping @Sendable (Value) -> String
    ) {
        self.placeholder = placeholder
        self.accepted = accepted
        self.parse = parse
        self.format = format
    }

    /// The refusal of `text` that is not `noun`, with the accepted forms.
    package static func refusal(_ text: String, isNot noun: String, accepted: String) -> SettingValueError {
        SettingValueError("\(Self.quoted(text)) is not \(noun); write \(accepted)")
    }

    /// `text` in double quotes, so an empty or spaced value shows as written.
    package static func quoted(_ text: String) -> String { "\"\(text)\"" }
}

extension SettingValue where Value == TimeSpan {
    /// A duration: `90s`, `5m`, `1h30m`, or plain seconds. `zero` says what `0` means, if anything.
    public static func duration(zero: String? = nil) -> Self {
        let accepted = "a number with a unit (250ms, 30s, 5m, 1h30m, 1.5h, 2d) or plain seconds (90)" + (zero.map { "; 0 \($0)" } ?? "")
        return SettingValue(placeholder: "DURATION", accepted: accepted) { text throws(SettingValueError) in
            guard let span = DurationParser.parse(text) else { throw Self.refusal(text, isNot: "a duration", accepted: accepted) }
            return span
        } format: { span in
            span == .zero && zero != nil ? "0" : DurationParser.format(span)
        }
    }
}

extension SettingValue where Value == Int {
    /// A positive whole number.
    public static var positiveInteger: Self {
        SettingValue(placeholder: "N", accepted: "a whole number above 0 (1, 2, 500)") { text throws(SettingValueError) in
            guard let number = Int(text), number > 0 else {
                throw Self.refusal(text, isNot: "a positive number", accepted: "a whole number above 0 (1, 2, 500)")
            }
            return number
        } format: {
            "\($0)"
        }
    }
}

extension SettingValue where Value == Bool {
    /// `true` or `false` (also `yes`/`no`, `1`/`0`).
    public static var boolean: Self {
        SettingValue(placeholder: "BOOL", accepted: "true or false (or yes/no, 1/0)") { text throws(SettingValueError) in
            switch text {
            case "true", "yes", "1": return true
            case "false", "no", "0": return false
            default: throw Self.refusal(text, isNot: "true or false", accepted: "true or false (or yes/no, 1/0)")
            }
        } format: {
            $0 ? "true" : "false"
        }
    }
}

extension SettingValue where Value == String {
    /// Any text that is not empty: an address or a path checked where it is used.
    public static func text(_ placeholder: String, accepted: String) -> Self {
        SettingValue(placeholder: placeholder, accepted: accepted) { text throws(SettingValueError) in
            guard !text.isEmpty else { throw SettingValueError("empty; write \(accepted)") }
            return text
        } format: {
            $0
        }
    }

    /// An absolute path.
    public static var absolutePath: Self {
        SettingValue(placeholder: "PATH", accepted: "an absolute path (starting with /)") { text throws(SettingValueError) in
            guard text.hasPrefix("/") else { throw Self.refusal(text, isNot: "an absolute path", accepted: "an absolute path (starting with /)") }
            return text
        } format: {
            $0
        }
    }
}

extension SettingValue where Value: CaseIterable & RawRepresentable, Value.RawValue == String {
    /// One of the enumeration's raw values.
    public static func choice(_ placeholder: String) -> Self {
        let names = Value.allCases.map(\.rawValue)
        let accepted = WordList.joined(names)
        return SettingValue(placeholder: placeholder, accepted: accepted) { text throws(SettingValueError) in
            guard let value = Value(rawValue: text) else {
                throw Self.refusal(text, isNot: "a \(placeholder.lowercased())", accepted: accepted)
            }
            return value
        } format: {
            $0.rawValue
        }
    }
}
