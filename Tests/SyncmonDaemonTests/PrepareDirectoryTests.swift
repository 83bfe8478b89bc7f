import SyncmonContract
import Testing

@testable import SyncmonDaemon

#if canImport(Glibc)
import Glibc
#endif

/// Directories of the state file and the push socket are created on demand, where the path
/// says: an absolute path from the root, a relative one from the working directory.
@Suite("Directories created on demand")
struct PrepareDirectoryTests {
    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    @Test("a relative --state-dir is created under the working directory, not under /")
    func relative() throws {
        // Under .build, which git ignores, in the working directory the tests run in.
        let base = ".build/prepare-directory-\(getpid())"
        defer { _ = rmdir(base + "/state"); _ = rmdir(base) }
        try AtomicFile.prepareDirectory(of: base + "/state/state.json")
        #expect(Self.isDirectory(base + "/state"))
        #expect(!Self.isDirectory("/" + base))
    }

    @Test("an absolute path is created with its parents")
    func absolute() throws {
        let base = "/tmp/syncmon-prepare-\(getpid())"
        defer { _ = rmdir(base + "/a/b"); _ = rmdir(base + "/a"); _ = rmdir(base) }
        try AtomicFile.prepareDirectory(of: base + "/a/b/events.sock")
        #expect(Self.isDirectory(base + "/a/b"))
    }
}
