/// Something that takes journal entries: journald itself in production, a recorder in tests.
package protocol JournalSink: Sendable {
    /// Sends one entry, or throws why it could not be delivered.
    func send(_ entry: JournalEntry) throws(SystemdError)
}
