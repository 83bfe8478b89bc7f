import Glibc
import Testing

@testable import SyncmonSystemd

/// The stderr writer, pointed at a pipe.
@Suite("Line writer")
struct FileDescriptorLineWriterTests {
    @Test("lines written from many threads arrive whole, one per line")
    func concurrentLines() async throws {
        var descriptors: [Int32] = [0, 0]
        try #require(pipe(&descriptors) == 0)
        let (readEnd, writeEnd) = (descriptors[0], descriptors[1])
        defer { close(readEnd) }

        let writer = FileDescriptorLineWriter(fileDescriptor: writeEnd)
        // Longer than PIPE_BUF (4 KiB), so a line can take several write(2) calls and only the lock keeps it whole.
        let payload = String(repeating: "x", count: 10_000)
        let writers = 8
        let linesPerWriter = 20

        // Drain the pipe while writing, or the writers would block on a full pipe.
        let reader = Task.detached { () -> [UInt8] in
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if count > 0 {
                    received.append(contentsOf: buffer.prefix(count))
                } else if count == 0 || errno != EINTR {
                    return received
                }
            }
        }
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<writers {
                group.addTask {
                    for line in 0..<linesPerWriter {
                        writer.write(line: "writer=\(index) line=\(line) \(payload)")
                    }
                }
            }
        }
        close(writeEnd)

        let lines = String(decoding: await reader.value, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "", "output ends with a newline")
        let written = lines.dropLast()
        #expect(written.count == writers * linesPerWriter)
        #expect(written.allSatisfy { $0.hasPrefix("writer=") && $0.hasSuffix(" \(payload)") })
        #expect(Set(written).count == writers * linesPerWriter)
    }
}
