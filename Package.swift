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
        .library(name: "SyncmonWeb", targets: ["SyncmonWeb"]),
        .library(name: "SyncmonGzip", targets: ["SyncmonGzip"]),
        .library(name: "SyncmonExposition", targets: ["SyncmonExposition"]),
        .library(name: "SyncmonRules", targets: ["SyncmonRules"]),
        // For the fuzz package in Fuzz/: the SSE parser of stream sources.
        .library(name: "SyncmonSources", targets: ["SyncmonSources"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.12.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // Web configuration (exporter-toolkit's web-config.yml): YAML, and TLS on the listeners.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.29.0"),
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
        // PCRE2 (8-bit): the journal rules' expressions, with a bounded match time (docs/systemd-units.md#journal-rules).
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"])]
        ),
        // Journal rules: rules files and the shipped packs parsed, checked and matched. Pure: lines in,
        // event lines out; no I/O.
        .target(name: "SyncmonRules", dependencies: ["CPCRE2", "SyncmonCore"]),
        // glibc's heap controls (<malloc.h>: mallopt, malloc_trim), which the Glibc module
        // leaves out.
        .systemLibrary(name: "CMalloc"),
        // ThreadSanitizer's acquire/release annotations, weak: for SyncmonLock's `Locked`.
        .systemLibrary(name: "CThreadSanitizer"),
        // `Locked`, the one lock of every module below: a Mutex that ThreadSanitizer sees into.
        .target(name: "SyncmonLock", dependencies: ["CThreadSanitizer"]),
        // rtnetlink's message layouts and constants (linux/rtnetlink.h), which Glibc does not
        // import: headers only, for the host network view.
        .systemLibrary(name: "CNetlink"),
        // libcrypt (libxcrypt): crypt_rn verifies the bcrypt hashes of basic_auth_users.
        .systemLibrary(
            name: "CCrypt",
            pkgConfig: "libxcrypt",
            providers: [.apt(["libcrypt-dev"])]
        ),
        // journald log handler, sd_notify, socket activation: the only module that imports CSystemd.
        .target(
            name: "SyncmonSystemd",
            dependencies: [
                "CSystemd",
                "SyncmonLock",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // For engines written in Swift: report events to the daemon without ever blocking.
        .target(
            name: "SyncmonClient",
            dependencies: [
                "SyncmonCore",
                "SyncmonHost",
                "SyncmonLock",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The fleet simulator behind `syncmon simulate`: scripted engines driven through the
        // client. Apart from SyncmonClient so that adopters of the client do not compile it.
        .target(
            name: "SyncmonSimulation",
            dependencies: ["SyncmonClient", "SyncmonCore"]
        ),
        // The host as every syncmon process reads it: its clocks (`WallClock`, `MonotonicClock`),
        // the default paths, system errors in words. Small (the core and NIOCore), so that the
        // client library shares it with the daemon and the command line.
        .target(
            name: "SyncmonHost",
            dependencies: ["SyncmonCore", .product(name: "NIOCore", package: "swift-nio")]
        ),
        // The status API's two ends: the document's JSON (served by the daemon, read by the command
        // line) and the HTTP(S) client that fetches it through a web configuration. Apart from
        // SyncmonHost so that the client library does not compile AsyncHTTPClient and TLS.
        .target(
            name: "SyncmonStatusAPI",
            dependencies: [
                "SyncmonCore",
                "SyncmonHost",
                "SyncmonWeb",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // Blocking POSIX sockets and a minimal HTTP/1.1 client on them, for the command line, the
        // tests and the benchmark; nothing but Glibc. (The daemon and SyncmonClient use SwiftNIO.)
        .target(name: "SyncmonSockets"),
        // gzip for /metrics and large responses (zlib), compressed as it is rendered.
        .target(name: "SyncmonGzip", dependencies: ["CZlib"]),
        // The exporter-toolkit web configuration (TLS, basic auth) with its YAML reader and
        // bcrypt: a library in its own right, with no daemon in it.
        .target(
            name: "SyncmonWeb",
            dependencies: [
                "CCrypt",
                "SyncmonCore",
                "SyncmonLock",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // What every source (and sink) of the daemon builds on, and nothing of the daemon: the
        // service clock, the state model as a source sees it and its ingest entry, atomic files,
        // a wake-up signal, the thread that waits on blocking descriptors.
        .target(
            name: "SyncmonContract",
            dependencies: [
                "SyncmonCore",
                "SyncmonHost",
                "SyncmonLock",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // The daemon's sources apart from the daemon (docs/architecture.md): `--subscribe` streams,
        // files and Syncthing, systemd units, canaries, the host network. Built on SyncmonContract,
        // never on SyncmonDaemon.
        .target(
            name: "SyncmonSources",
            dependencies: [
                "CNetlink",
                "SyncmonAdapters",
                "SyncmonContract",
                "SyncmonCore",
                "SyncmonHost",
                "SyncmonLock",
                "SyncmonRules",
                "SyncmonStatusAPI",
                "SyncmonSystemd",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // For tests of sources and services: `ManualClock`, a `ServiceClock` moved by hand, and
        // `RecordingSourceModel`, a `SourceStateModel` that records what a source says.
        .target(name: "SyncmonContractTesting", dependencies: ["SyncmonContract", "SyncmonCore", "SyncmonLock"]),
        // Notification targets (docs/notifications.md): commands, sendmail and webhooks, each
        // delivery with a deadline, off the event loops.
        .target(
            name: "SyncmonNotify",
            dependencies: [
                "SyncmonCore",
                "SyncmonLock",
                "SyncmonSystemd",
                "SyncmonWeb",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // The settings framework (docs/architecture.md): settings declared once, a configuration
        // file parsed by them, flags over it, and their reference text (help, man page, Markdown,
        // example file). Generic over the configuration; pure: text in, values and text out.
        .target(name: "SyncmonSettings", dependencies: ["SyncmonCore"]),
        // The status page (docs/page.md): HTML written by one escaping writer, its CSS and script
        // embedded. Pure: the state model and the time in, bytes out.
        .target(name: "SyncmonPage", dependencies: ["SyncmonCore"]),
        // The running service: push ingest, HTTP, metrics, journald, sd_notify, persistence.
        .target(
            name: "SyncmonDaemon",
            dependencies: [
                "CMalloc",
                "CNetlink",
                "SyncmonAdapters",
                "SyncmonContract",
                "SyncmonCore",
                "SyncmonExposition",
                "SyncmonGzip",
                "SyncmonHost",
                "SyncmonLock",
                "SyncmonNotify",
                "SyncmonRules",
                "SyncmonSources",
                "SyncmonStatusAPI",
                "SyncmonSystemd",
                "SyncmonWeb",
                "SyncmonPage",
                "SyncmonSettings",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .executableTarget(
            name: "syncmon",
            dependencies: [
                "SyncmonAdapters",
                "SyncmonClient",
                "SyncmonCore",
                // `syncmon daemon` only (DaemonCommand and the settings' option glue).
                "SyncmonDaemon",
                "SyncmonSources",
                "SyncmonHost",
                "SyncmonRules",
                "SyncmonSimulation",
                "SyncmonSockets",
                "SyncmonStatusAPI",
                "SyncmonSystemd",
                "SyncmonWeb",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `swift run -c release syncmon-bench`: the in-process hot-path benchmark.
        .executableTarget(
            name: "SyncmonBenchmark",
            dependencies: ["SyncmonCore", "SyncmonDaemon", "SyncmonExposition", "SyncmonHost", "SyncmonRules", "SyncmonSockets", "SyncmonPage"]
        ),
        // Shared by the test targets: fixture loading, JSON subset matching, running the binary.
        .target(name: "SyncmonTestSupport", dependencies: ["SyncmonCore", "SyncmonSockets"]),
        .testTarget(name: "SyncmonCoreTests", dependencies: ["SyncmonCore", "SyncmonTestSupport"]),
        .testTarget(name: "SyncmonAdaptersTests", dependencies: ["SyncmonAdapters", "SyncmonCore"]),
        .testTarget(name: "SyncmonRulesTests", dependencies: ["SyncmonRules", "SyncmonCore", "SyncmonTestSupport"]),
        .testTarget(name: "SyncmonExpositionTests", dependencies: ["SyncmonExposition", "SyncmonLock", "SyncmonTestSupport"]),
        .testTarget(
            name: "SyncmonClientTests",
            dependencies: [
                "SyncmonClient", "SyncmonCore", "SyncmonLock", "SyncmonSimulation", "SyncmonSockets", "SyncmonTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "SyncmonWebTests", dependencies: ["SyncmonWeb"]),
        .testTarget(name: "SyncmonPageTests", dependencies: ["SyncmonPage", "SyncmonCore", "SyncmonSockets", "SyncmonTestSupport"]),
        .testTarget(name: "SyncmonGzipTests", dependencies: ["SyncmonGzip", "SyncmonTestSupport"]),
        .testTarget(name: "SyncmonSocketsTests", dependencies: ["SyncmonLock", "SyncmonSockets"]),
        .testTarget(
            name: "SyncmonDaemonTests",
            dependencies: [
                "SyncmonDaemon", "SyncmonCore", "SyncmonHost", "SyncmonLock", "SyncmonSockets", "SyncmonStatusAPI", "SyncmonSystemd",
                "SyncmonTestSupport", "SyncmonWeb", "SyncmonContract", "SyncmonContractTesting", "SyncmonSources",
                .product(name: "Logging", package: "swift-log"),
                // NIOAsyncTestingChannel: the daemon's channel handlers tested without sockets.
                .product(name: "NIOEmbedded", package: "swift-nio"),
                // The SSE request as AsyncHTTPClient sends it (StreamHandlerTests).
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .testTarget(name: "SyncmonSettingsTests", dependencies: ["SyncmonSettings"]),
        // The sources' pure parts and services, without the daemon.
        .testTarget(
            name: "SyncmonSourcesTests",
            dependencies: [
                "SyncmonContract", "SyncmonContractTesting", "SyncmonCore", "SyncmonLock", "SyncmonSources", "SyncmonTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "SyncmonSystemdTests",
            dependencies: [
                "SyncmonLock",
                "SyncmonSockets",
                "SyncmonSystemd",
                "SyncmonTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Notification routes: their settings, targets and the real binary delivering.
        .testTarget(
            name: "SyncmonNotifyTests",
            dependencies: [
                "SyncmonCore", "SyncmonDaemon", "SyncmonNotify", "SyncmonSockets", "SyncmonSystemd", "SyncmonTestSupport",
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Runs the built `syncmon` binary from the outside.
        .testTarget(
            name: "SyncmonCLITests",
            dependencies: [
                "syncmon", "SyncmonCore", "SyncmonDaemon", "SyncmonSockets", "SyncmonTestSupport",
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
