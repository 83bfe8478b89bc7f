/// A field name that journald accepts.
///
/// journald silently drops any field whose name is not made of `[A-Z0-9_]`, starts with `_` or a digit, or is longer
/// than 64 bytes (`journal_field_valid` in systemd's journal-file.c). Holding names in this type makes an invalid name
/// impossible to send, so no metadata disappears without a trace.
public struct JournalFieldName: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The longest field name journald accepts, in bytes.
    public static let maximumLength = 64

    /// The prefix of every field syncmon derives from log metadata, so no metadata key can override a field that
    /// journald or systemd give a meaning (`PRIORITY`, `UNIT`, …).
    public static let metadataPrefix = "SYNCMON_"

    /// The metadata key that becomes the journal's well-known `MESSAGE_ID` field instead of a `SYNCMON_` field.
    public static let messageIDMetadataKey = "message_id"

    /// The validated name, as sent to journald.
    public let rawValue: String

    /// Creates a field name, or returns `nil` when journald would reject `rawValue`.
    public init?(_ rawValue: String) {
        guard Self.isValid(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    /// Creates a field name from a literal the caller knows to be valid.
    private init(known rawValue: String) {
        self.rawValue = rawValue
    }

    /// Whether journald accepts `name` as a field name.
    public static func isValid(_ name: String) -> Bool {
        let bytes = name.utf8
        guard let first = bytes.first, bytes.count <= Self.maximumLength else { return false }
        guard first != UInt8(ascii: "_"), !first.isASCIIDigit else { return false }
        return bytes.allSatisfy { $0.isASCIIUppercase || $0.isASCIIDigit || $0 == UInt8(ascii: "_") }
    }

    /// The field a swift-log metadata key is sent as, or `nil` when the key has no letters or digits at all.
    ///
    /// `message_id` becomes `MESSAGE_ID`. Every other key is upper-cased, each run of characters outside
    /// `[A-Za-z0-9]` becomes one `_`, and `SYNCMON_` is put in front unless the key already starts with it:
    /// `syncmon.engine` → `SYNCMON_ENGINE`, `a.b-c` → `SYNCMON_A_B_C`. Names longer than 64 bytes are cut to 64;
    /// a clash that this causes only yields a repeated field, which journald keeps.
    public init?(metadataKey key: String) {
        if key.lowercased() == Self.messageIDMetadataKey {
            self = .messageID
            return
        }
        var words: [String] = []
        var current: [UInt8] = []
        for byte in key.utf8 {
            if byte.isASCIIDigit || byte.isASCIIUppercase {
                current.append(byte)
            } else if byte.isASCIILowercase {
                current.append(byte - 0x20)
            } else if !current.isEmpty {
                words.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            }
        }
        if !current.isEmpty {
            words.append(String(decoding: current, as: UTF8.self))
        }
        guard !words.isEmpty else { return nil }
        var name = words.joined(separator: "_")
        if !name.hasPrefix(Self.metadataPrefix) {
            name = Self.metadataPrefix + name
        }
        // Only ASCII is left, so cutting at a byte count cannot split a character.
        self.init(known: String(name.prefix(Self.maximumLength)))
    }

    public var description: String { self.rawValue }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension JournalFieldName {
    /// The human-readable message.
    public static let message = Self(known: "MESSAGE")
    /// The 128-bit identifier of the kind of message, which the journal catalog is keyed by.
    public static let messageID = Self(known: "MESSAGE_ID")
    /// The syslog priority, `0` (emerg) to `7` (debug).
    public static let priority = Self(known: "PRIORITY")
    /// The program name that `journalctl -t` filters on.
    public static let syslogIdentifier = Self(known: "SYSLOG_IDENTIFIER")
    /// The source file of the log statement.
    public static let codeFile = Self(known: "CODE_FILE")
    /// The source line of the log statement.
    public static let codeLine = Self(known: "CODE_LINE")
    /// The function of the log statement.
    public static let codeFunction = Self(known: "CODE_FUNC")
    /// The swift-log label of the logger that wrote the entry.
    public static let loggerLabel = Self(known: "SYNCMON_LOGGER")
}

extension UInt8 {
    /// Whether the byte is `0`–`9`.
    fileprivate var isASCIIDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
    /// Whether the byte is `A`–`Z`.
    fileprivate var isASCIIUppercase: Bool { self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z") }
    /// Whether the byte is `a`–`z`.
    fileprivate var isASCIILowercase: Bool { self >= UInt8(ascii: "a") && self <= UInt8(ascii: "z") }
}
