import Testing

/// The tests that touch process-wide state: the environment libsystemd reads (`NOTIFY_SOCKET`, `WATCHDOG_*`,
/// `LISTEN_*`), descriptors 3 and up, and the host's journald.
///
/// Serialized, and the only place that changes the environment, because `setenv` is not thread-safe against
/// concurrent `getenv` or process spawning. The suites are nested in extensions, one file each.
@Suite("Against the real system", .serialized)
struct SystemIntegrationTests {}
