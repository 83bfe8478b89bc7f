import SyncmonExposition

/// Runs `body` against a fresh writer and returns the finished exposition as a string, so golden tests
/// can compare whole outputs.
func render(_ format: ExpositionFormat, _ body: (inout ExpositionWriter) -> Void) -> String {
    var writer = ExpositionWriter(format: format, capacity: 256)
    body(&writer)
    return String(decoding: writer.finish(), as: UTF8.self)
}
