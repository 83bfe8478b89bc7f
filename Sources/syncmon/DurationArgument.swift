import ArgumentParser
import SyncmonCore

/// A duration on the command line: `90s`, `5m`, `1h30m`, or plain seconds.
struct DurationArgument: ExpressibleByArgument, Sendable {
    var span: TimeSpan

    init?(argument: String) {
        guard let span = DurationParser.parse(argument) else { return nil }
        self.span = span
    }

    init(_ span: TimeSpan) {
        self.span = span
    }

    var defaultValueDescription: String { DurationParser.format(self.span) }
}
