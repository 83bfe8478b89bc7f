import SyncmonCore

#if canImport(Glibc)
import Glibc
#endif

extension CanaryDirectory {
    /// Reads every `canary-*.json` in the directory but `own`'s: regular files only, opened
    /// with `O_NOFOLLOW`, at most 64 KiB each. Missing directory: no peers yet (the engine has
    /// not brought any), not an error.
    func readPeers(except own: CanaryHost) throws(Failure) -> [CanaryPeerRead] {
        let descriptor: Int32
        do throws(Failure) {
            descriptor = try self.openDirectory(create: false)
        } catch {
            var status = stat()
            if lstat(self.directory, &status) != 0, errno == ENOENT, lstat(self.path, &status) == 0 { return [] }
            throw error
        }
        // `fdopendir` takes the descriptor over: closedir closes it.
        guard let stream = fdopendir(descriptor) else {
            close(descriptor)
            throw Failure(description: "\(self.directory): \(Self.errorText(errno))")
        }
        defer { closedir(stream) }
        var reads: [CanaryPeerRead] = []
        let ownName = own.fileName
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasPrefix("canary-"), name.hasSuffix(".json"), name != ownName else { continue }
            reads.append(Self.read(name, in: dirfd(stream)))
        }
        return reads
    }

    /// One entry, read without following a link and without reading past 64 KiB.
    static func read(_ name: String, in directory: Int32) -> CanaryPeerRead {
        // O_NONBLOCK: a FIFO named like a canary must not block the daemon on open.
        let descriptor = openat(directory, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ELOOP { return .notRegular(name: name) }
            return .unreadable(name: name, reason: Self.errorText(errno))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .unreadable(name: name, reason: Self.errorText(errno)) }
        guard status.st_mode & S_IFMT == S_IFREG else { return .notRegular(name: name) }
        guard Int(status.st_size) <= CanaryFile.maximumSize else { return .tooLarge(name: name, size: Int64(status.st_size)) }
        // One byte more than its size: a file that grew past 64 KiB since fstat is still told
        // apart. Sized by the file, so thousands of small stale files cost little each read.
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0 {
                if errno == EINTR { continue }
                return .unreadable(name: name, reason: Self.errorText(errno))
            }
            if got == 0 { break }
            count += got
        }
        guard count <= CanaryFile.maximumSize else { return .tooLarge(name: name, size: Int64(count)) }
        return .file(name: name, bytes: Array(bytes[..<count]))
    }
}
