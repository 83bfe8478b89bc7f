/// Why a setting's value was refused, in words that end with what to write instead: the flag or
/// key in front comes from whoever reads it (`--no-progress-after` or `line 3: no-progress-after`).
public struct SettingValueError: Error, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { self.message }
}
