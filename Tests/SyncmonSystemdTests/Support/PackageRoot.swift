import Foundation

/// Finds files of the package the tests belong to, wherever it is checked out.
enum PackageRoot {
    /// The package's root directory: the nearest ancestor of this source file that holds a `Package.swift`.
    static func directory(filePath: String = #filePath) throws -> URL {
        var directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory
            }
            directory.deleteLastPathComponent()
        }
        throw PackageRootError.notFound(filePath)
    }

    /// A file of the package, by its path relative to the root.
    static func file(_ relativePath: String) throws -> URL {
        try self.directory().appendingPathComponent(relativePath)
    }
}

/// Why the package root could not be found.
enum PackageRootError: Error, CustomStringConvertible {
    /// No directory above the given source file holds a `Package.swift`.
    case notFound(String)

    var description: String {
        switch self {
        case .notFound(let path): "no Package.swift above \(path)"
        }
    }
}
