// swift-tools-version:6.1
import PackageDescription

// libFuzzer targets for syncmon's parsers (docs/fuzzing.md). A package of its own, so the
// sanitizer build never touches the main package's `swift build`; scripts/fuzz.sh builds it
// with the fuzzer and AddressSanitizer (docs/fuzzing.md, "How it is built").
//
// Adding a target: a line below, `Sources/<Name>/<Name>.swift` defining
// `@c(LLVMFuzzerTestOneInput)`, and seeds in `Corpus/<Name>/` (a `<Name>.dict` beside them is
// passed as `-dict=`). scripts/fuzz.sh finds every `Sources/Fuzz*` directory by itself.
let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
    ("FuzzEventDecoder", [.product(name: "SyncmonCore", package: "syncmon")]),
    ("FuzzLineFramer", [.product(name: "SyncmonCore", package: "syncmon")]),
    ("FuzzServerSentEvents", [.product(name: "SyncmonSources", package: "syncmon")]),
    ("FuzzConfigFile", [.product(name: "SyncmonDaemon", package: "syncmon"), .product(name: "SyncmonSources", package: "syncmon")]),
    (
        "FuzzHTTPRequest",
        [
            .product(name: "SyncmonDaemon", package: "syncmon"),
            .product(name: "SyncmonExposition", package: "syncmon"),
            .product(name: "SyncmonGzip", package: "syncmon"),
            .product(name: "SyncmonCore", package: "syncmon"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOEmbedded", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ]
    ),
    ("FuzzSyncthing", [.product(name: "SyncmonAdapters", package: "syncmon"), .product(name: "SyncmonCore", package: "syncmon")]),
    ("FuzzWrap", [.product(name: "SyncmonAdapters", package: "syncmon")]),
    ("FuzzWebConfig", [.product(name: "SyncmonWeb", package: "syncmon")]),
    ("FuzzCanaryFile", [.product(name: "SyncmonCore", package: "syncmon")]),
    ("FuzzRules", [.product(name: "SyncmonRules", package: "syncmon"), .product(name: "SyncmonCore", package: "syncmon")]),
]

let package = Package(
    name: "syncmon-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "syncmon", path: ".."),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
    ],
    targets: [
        // Carving one fuzz input into the pieces a target needs.
        .target(name: "FuzzSupport")
    ]
        + fuzzTargets.map { target in
            // One source file that is not main.swift: SwiftPM compiles it as a library
            // (-parse-as-library) and libFuzzer brings `main`.
            .executableTarget(name: target.name, dependencies: ["FuzzSupport"] + target.dependencies)
        },
    swiftLanguageModes: [.v6]
)
