/// Somewhere whole log lines go: stderr in production, an in-memory buffer in tests.
package protocol LogLineWriter: Sendable {
    /// Writes `line` and a newline as one unit, never interleaved with another line.
    func write(line: String)
}
