import CSystemd
import Glibc

/// Sends entries to the local journald over its native protocol, through libsystemd's `sd_journal_sendv`.
///
/// `sd_journal_send` is variadic and cannot be called from Swift; `sd_journal_sendv` takes one `iovec` per
/// `NAME=value` field and takes care of the wire format (binary-safe lengths for multi-line values, the memfd
/// fallback for entries larger than a datagram).
package struct NativeJournalSink: JournalSink {
    /// Creates the sink; it holds no state, libsystemd opens and keeps its own socket.
    package init() {}

    package func send(_ entry: JournalEntry) throws(SystemdError) {
        let fields = entry.encodedFields()
        guard !fields.isEmpty else { return }

        // One contiguous buffer keeps every field's bytes alive and in place while libsystemd reads the iovecs.
        var storage: [UInt8] = []
        storage.reserveCapacity(fields.reduce(0) { $0 + $1.count })
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(fields.count)
        for field in fields {
            ranges.append(storage.count..<storage.count + field.count)
            storage.append(contentsOf: field)
        }

        let result: Int32 = storage.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return -EINVAL }
            var vectors = ranges.map { iovec(iov_base: base + $0.lowerBound, iov_len: $0.count) }
            return vectors.withUnsafeMutableBufferPointer { vectors in
                sd_journal_sendv(vectors.baseAddress, Int32(vectors.count))
            }
        }
        if result < 0 {
            throw SystemdError(operation: "sd_journal_sendv", returnValue: result)
        }
    }
}
