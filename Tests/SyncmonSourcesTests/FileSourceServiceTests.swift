import Foundation
import SyncmonContractTesting
import SyncmonCore
import SyncmonTestSupport
import Testing

@testable import SyncmonSources

/// A `file:` source as a service on the manual clock (docs/subscribe.md): the lines its file
/// gains reach the model, a truncated file is read again from its start, and the offset is
/// kept across a restart. Real files, no daemon, no waiting on the host's clock.
@Suite("file: source on the manual clock")
struct FileSourceServiceTests {
    static let first = #"{"v":1,"type":"heartbeat","engine":"a","db":"shared","seq":1}"#
    static let second = #"{"v":1,"type":"heartbeat","engine":"a","db":"shared","seq":2}"#
    static let third = #"{"v":1,"type":"heartbeat","engine":"a","db":"shared","seq":3}"#

    @Test("lines in the file, then appended, then after a truncation, reach the model in order")
    func follows() async throws {
        let harness = try SourceHarness(name: "events", kind: "file")
        let path = harness.directory.path("events.jsonl")
        try Self.write(Self.first + "\n", to: path)
        let source = FileSource(path: path, fromStart: true, snapshot: nil)
        try await harness.run(source) {
            #expect(await harness.advance { harness.model.lines == [Self.first] }, "\(harness.model.lines)")
            try Self.append(Self.second + "\n", to: path)
            #expect(await harness.advance { harness.model.lines == [Self.first, Self.second] }, "\(harness.model.lines)")
            // copytruncate: the file starts again, shorter than what was read.
            try Self.write(Self.third + "\n", to: path)
            #expect(await harness.advance { harness.model.lines == [Self.first, Self.second, Self.third] }, "\(harness.model.lines)")
        }
    }

    @Test("a restarted source goes on from its saved offset: nothing lost, nothing twice")
    func resumes() async throws {
        let harness = try SourceHarness(name: "events", kind: "file")
        let path = harness.directory.path("events.jsonl")
        try Self.write(Self.first + "\n", to: path)
        await harness.run(FileSource(path: path, fromStart: true, snapshot: nil)) {
            #expect(await harness.advance { harness.model.lines == [Self.first] })
        }
        try Self.append(Self.second + "\n", to: path)
        await harness.run(FileSource(path: path, fromStart: true, snapshot: nil)) {
            #expect(await harness.advance { harness.model.lines == [Self.first, Self.second] }, "\(harness.model.lines)")
        }
    }

    @Test("a last line without its newline waits for it")
    func partialLine() async throws {
        let harness = try SourceHarness(name: "events", kind: "file")
        let path = harness.directory.path("events.jsonl")
        try Self.write(Self.first + "\n" + Self.second.prefix(10), to: path)
        try await harness.run(FileSource(path: path, fromStart: true, snapshot: nil)) {
            #expect(await harness.advance { harness.model.lines == [Self.first] })
            #expect(!(await harness.advance(until: { harness.model.lines.count > 1 }, steps: 4)), "\(harness.model.lines)")
            try Self.append(Self.second.dropFirst(10) + "\n", to: path)
            #expect(await harness.advance { harness.model.lines == [Self.first, Self.second] }, "\(harness.model.lines)")
        }
    }

    static func write(_ text: some StringProtocol, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    static func append(_ text: some StringProtocol, to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
    }
}
