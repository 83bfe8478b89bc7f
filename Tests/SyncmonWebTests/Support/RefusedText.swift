import SyncmonWeb
import Testing

/// A text a web configuration parser must refuse, with the line the refusal names and words its
/// message must hold: the table rows of `YAMLReaderTests` and `WebConfigurationTests`.
struct RefusedText: CustomTestStringConvertible, Sendable {
    var name: String
    var yaml: String
    var line: Int
    var message: String
    var testDescription: String { self.name }

    /// The refusal `parse` gives this text; an issue is recorded, and nil returned, when it
    /// accepts the text or names another line or other words.
    @discardableResult
    func expectRefused<Parsed>(by parse: (String) throws(WebConfiguration.ParseError) -> Parsed) -> WebConfiguration.ParseError? {
        do {
            let parsed = try parse(self.yaml)
            Issue.record("accepted: \(parsed)")
            return nil
        } catch {
            #expect(error.line == self.line, "\(error)")
            #expect(error.message.contains(self.message), "\(error)")
            return error
        }
    }
}
