import Logging

/// One journal entry: the ordered list of fields syncmon sends to journald for one log statement.
///
/// Built by pure code so the mapping from a swift-log statement to journal fields can be tested without journald.
public struct JournalEntry: Sendable, Equatable {
    /// One `NAME=value` assignment of an entry.
    public struct Field: Sendable, Equatable {
        /// The field's name.
        public var name: JournalFieldName
        /// The field's value; it may contain newlines, which the native protocol carries unchanged.
        public var value: String

        /// Creates a field.
        public init(name: JournalFieldName, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The program name every syncmon entry carries, so `journalctl -t syncmon` finds them all.
    public static let defaultSyslogIdentifier = "syncmon"

    /// The fields, in the order they are sent. A name may repeat; journald keeps every value.
    public var fields: [Field]

    /// Creates an entry from fields.
    public init(fields: [Field]) {
        self.fields = fields
    }

    /// Creates the entry for one log statement.
    ///
    /// The entry gets `MESSAGE`, `PRIORITY`, `SYSLOG_IDENTIFIER`, `CODE_FILE`, `CODE_LINE`, `CODE_FUNC` and, when
    /// `label` is not empty, `SYNCMON_LOGGER`; then one field per metadata key (see
    /// ``JournalFieldName/init(metadataKey:)``), in key order so equal statements give equal entries. Keys with no
    /// letters or digits cannot be named in the journal and are left out.
    ///
    /// - Parameters:
    ///   - level: The statement's level, sent as `PRIORITY`.
    ///   - message: The message; multi-line messages stay one entry.
    ///   - metadata: The merged metadata of the logger and the statement.
    ///   - label: The logger's label.
    ///   - file: The statement's file, usually `#fileID`.
    ///   - function: The statement's function.
    ///   - line: The statement's line.
    ///   - syslogIdentifier: The program name to send as `SYSLOG_IDENTIFIER`.
    public init(
        level: Logger.Level,
        message: String,
        metadata: Logger.Metadata,
        label: String,
        file: String,
        function: String,
        line: UInt,
        syslogIdentifier: String = Self.defaultSyslogIdentifier
    ) {
        var fields: [Field] = [
            Field(name: .message, value: message),
            Field(name: .priority, value: String(JournalPriority(level).rawValue)),
            Field(name: .syslogIdentifier, value: syslogIdentifier),
            Field(name: .codeFile, value: file),
            Field(name: .codeLine, value: String(line)),
            Field(name: .codeFunction, value: function),
        ]
        if !label.isEmpty {
            fields.append(Field(name: .loggerLabel, value: label))
        }
        fields.reserveCapacity(fields.count + metadata.count)
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            guard let name = JournalFieldName(metadataKey: key) else { continue }
            fields.append(Field(name: name, value: value.journalValue))
        }
        self.fields = fields
    }

    /// The values of every field called `name`, in order.
    public func values(of name: JournalFieldName) -> [String] {
        self.fields.lazy.filter { $0.name == name }.map(\.value)
    }

    /// Each field as the `NAME=value` bytes that `sd_journal_sendv` takes in one `iovec`.
    func encodedFields() -> [[UInt8]] {
        self.fields.map { field in
            var bytes: [UInt8] = []
            bytes.reserveCapacity(field.name.rawValue.utf8.count + 1 + field.value.utf8.count)
            bytes.append(contentsOf: field.name.rawValue.utf8)
            bytes.append(UInt8(ascii: "="))
            bytes.append(contentsOf: field.value.utf8)
            return bytes
        }
    }
}

extension Logger.MetadataValue {
    /// The value as one journal field: strings as they are, everything else as swift-log prints it.
    var journalValue: String {
        switch self {
        case .string(let string): string
        case .stringConvertible(let convertible): convertible.description
        case .array, .dictionary: self.description
        }
    }
}
