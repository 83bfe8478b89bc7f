// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "syncmon",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "syncmon", targets: ["syncmon"]),
        .executable(name: "syncmon-bench", targets: ["SyncmonBenchmark"]),
        .library(name: "SyncmonCore", targets: ["SyncmonCore"]),
        .library(name: "SyncmonClient", targets: ["SyncmonClient"]),
        .library(name: "SyncmonAdapters", targets: ["SyncmonAdapters"]),
        // For the fuzz package in Fuzz/ (docs/fuzzing.md), which depends on this one by path.
        .library(name: "SyncmonDaemon", targets: ["SyncmonDaemon"]),
        .library(name: "SyncmonExposition", targets: ["SyncmonExposition"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.12.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.24.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        // The pure core: event model, decoder, state machines, stall detectors, status. No I/O.
        .target(name: "SyncmonCore"),
        // Adapters: what foreign sync tools say (Syncthing's REST API, …) turned into core events.
        // Pure like the core: bytes and times in, events out; no I/O, no clock.
        .target(name: "SyncmonAdapters", dependencies: ["SyncmonCore"]),
        // Prometheus text 0.0.4 / OpenMetrics 1.0 exposition writer. No I/O.
        .target(name: "SyncmonExposition"),
        // libsystemd, wrapped once.
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // zlib: gzip for /metrics, compressed off the event loop as it is rendered.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // rtnetlink's message layouts and constants (linux/rtnetlink.h), which Glibc does not
        // import: headers only, for the host network view.
        .systemLibrary(name: "CNetlink"),
        // journald log handler, sd_notify, socket activation: the only module that imports CSystemd.
        .target(
            name: "SyncmonSystemd",
            dependencies: [
                "CSystemd",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // For engines written in Swift: report events to the daemon without ever blocking.
        .target(
            name: "SyncmonClient",
            dependencies: [
                "SyncmonCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The running service: push ingest, HTTP, metrics, journald, sd_notify, persistence.
        .target(
            name: "SyncmonDaemon",
            dependencies: [
                "CNetlink",
                "CZlib",
                "SyncmonAdapters",
                "SyncmonCore",
                "SyncmonExposition",
                "SyncmonSystemd",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                // Syncthing's REST API: request/response over HTTP or HTTPS.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .executableTarget(
            name: "syncmon",
            dependencies: [
                "SyncmonAdapters",
                "SyncmonClient",
                "SyncmonCore",
                "SyncmonDaemon",
                "SyncmonSystemd",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: [
                // Resident memory: pack the ~58,000 relative relocations of a PIE (DT_RELR,
                // glibc 2.36+) and keep the dynamic symbol table to what is imported, so the
                // loader reads and dirties ~3 MB less at every start.
                .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic"])
            ]
        ),
        // `swift run -c release syncmon-bench`: the in-process hot-path benchmark.
        .executableTarget(
            name: "SyncmonBenchmark",
            dependencies: ["SyncmonCore", "SyncmonDaemon", "SyncmonExposition"]
        ),
        // Shared by the test targets: fixture loading, JSON subset matching, running the binary.
        .target(name: "SyncmonTestSupport", dependencies: ["SyncmonCore"]),
        .testTarget(name: "SyncmonCoreTests", dependencies: ["SyncmonCore", "SyncmonTestSupport"]),
        .testTarget(name: "SyncmonAdaptersTests", dependencies: ["SyncmonAdapters", "SyncmonCore"]),
        .testTarget(name: "SyncmonExpositionTests", dependencies: ["SyncmonExposition"]),
        .testTarget(
            name: "SyncmonClientTests",
            dependencies: [
                "SyncmonClient", "SyncmonCore", "SyncmonTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "SyncmonDaemonTests", dependencies: ["SyncmonDaemon", "SyncmonCore", "SyncmonTestSupport"]),
        .testTarget(
            name: "SyncmonSystemdTests",
            dependencies: [
                "SyncmonSystemd",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Runs the built `syncmon` binary from the outside.
        .testTarget(
            name: "SyncmonCLITests",
            dependencies: [
                "syncmon", "SyncmonCore", "SyncmonTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where [.executable, .test, .regular].contains(target.type) {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    target.swiftSettings = settings
}
