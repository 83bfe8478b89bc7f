import SyncmonAdapters
import SyncmonCore

/// A configured source that cannot start; `description` is the message to exit with.
public struct SourceCheckError: Error, CustomStringConvertible {
    public var description: String
}

extension DaemonConfiguration {
    /// Parses the sources once and checks, before anything starts, what each needs besides its
    /// URL (a Syncthing source's key file, a unit source's rules file, which stops the start
    /// naming file and line); each unit source's engine gets the unit adapter's stall
    /// thresholds (``UnitEventMapper/thresholds(configured:)``).
    public mutating func checkSources() throws(SourceCheckError) {
        let specs: [SourceSpec]
        do {
            specs = try self.sources()
        } catch {
            throw SourceCheckError(description: error.description)
        }
        do throws(DaemonError) {
            for spec in specs where spec.needsCredential { try spec.checkRequirements(configuration: self) }
        } catch {
            throw SourceCheckError(description: "\(error)")
        }
        for spec in specs {
            guard case .unit = spec.endpoint else { continue }
            do throws(DaemonError) {
                try spec.checkRequirements(configuration: self)
            } catch {
                throw SourceCheckError(description: "\(spec.name): \(error)")
            }
            self.engineThresholds[spec.name] = UnitEventMapper.thresholds(configured: self.engineThresholds[spec.name] ?? [:])
        }
    }
}
