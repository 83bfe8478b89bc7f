import Logging
import NIOCore
import SyncmonAdapters
import SyncmonContract
import SyncmonCore
import SyncmonSources

/// A configured source that cannot start; `description` is the message to exit with.
package struct SourceCheckError: Error, CustomStringConvertible {
    package var description: String
}

extension DaemonConfiguration {
    /// Parses the sources once and checks, before anything starts, what each needs besides its
    /// URL (a Syncthing source's key file, a unit source's rules file, which stops the start
    /// naming file and line); each unit source's engine gets the unit adapter's stall
    /// thresholds (``UnitEventMapper/thresholds(configured:)``).
    package mutating func checkSources() throws(SourceCheckError) {
        let specs: [SourceSpec]
        do {
            specs = try self.sources()
        } catch {
            throw SourceCheckError(description: error.description)
        }
        do throws(SourceError) {
            for spec in specs where spec.needsCredential { try spec.checkRequirements(options: self.sourceOptions) }
        } catch {
            throw SourceCheckError(description: "\(error)")
        }
        for spec in specs {
            guard case .unit = spec.endpoint else { continue }
            do throws(SourceError) {
                try spec.checkRequirements(options: self.sourceOptions)
            } catch {
                throw SourceCheckError(description: "\(spec.name): \(error)")
            }
            self.engineThresholds[spec.name] = UnitEventMapper.thresholds(configured: self.engineThresholds[spec.name] ?? [:])
        }
    }

    /// What the sources are told of this configuration.
    var sourceOptions: SourceOptions {
        SourceOptions(
            stateDirectory: self.stateDirectory,
            maximumLineLength: self.maximumLineLength,
            subscribeFromStart: self.subscribeFromStart,
            settings: self.sourceSettings,
            environment: Self.processEnvironment
        )
    }

    /// The services for every configured source, and the registry their metrics come from.
    func subscribeServices(
        model: any SourceStateModel,
        group: any EventLoopGroup,
        clock: any ServiceClock,
        logger: Logger
    ) throws(DaemonError) -> (services: [SubscribeService], registry: SourceRegistry) {
        do {
            let specs = try self.sources()
            return try SubscribeService.make(specs: specs, options: self.sourceOptions, model: model, group: group, clock: clock, logger: logger)
        } catch let error as SourceSpec.ParseError {
            throw .configuration(error.description)
        } catch {
            throw .configuration("\(error)")
        }
    }
}
