import FuzzSupport
import SyncmonCore

/// A peer's canary file (docs/canary.md): bytes written by another host, read strictly.
///
/// Invariants: parsing never crashes, whatever the bytes; a file read is within the size limit;
/// and what is read, written back out, reads back as the same file (so what syncmon shows of a
/// peer is exactly what the peer wrote).
@c(LLVMFuzzerTestOneInput)
public func fuzzCanaryFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    guard let file = CanaryFile.parse(bytes) else { return 0 }
    invariant(bytes.count <= CanaryFile.maximumSize, "read a file of \(bytes.count) bytes, over the limit")
    invariant(file.seq >= 0 && file.seen.values.allSatisfy { $0 >= 0 }, "a negative count read: \(file)")
    let again = CanaryFile.parse(Array(file.encoded.utf8))
    invariant(again == file, "\(file) wrote \(file.encoded) which reads as \(String(describing: again))")
    return 0
}
