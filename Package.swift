// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]
// No unsafeFlags for anyone who depends on Quire: SwiftPM refuses them in a dependency taken by version.
// Only Quire's own scripts (scripts/test, scripts/run, .ci/run) set QUIRE_DEV_FLAGS=1, which
// optimises the recognizer in debug builds: the tests read real handwriting, and an unoptimised
// network is several times slower. Release builds are optimised anyway and need no flag.
let devFlags = Context.environment["QUIRE_DEV_FLAGS"] == "1"
let optimizeInDebug: [SwiftSetting] = devFlags ? [.unsafeFlags(["-O"], .when(configuration: .debug))] : []
let optimizeCInDebug: [CSetting] = devFlags ? [.unsafeFlags(["-O2"], .when(configuration: .debug))] : []

let package = Package(
    name: "Quire",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Quire", targets: ["Quire"]),
        .executable(name: "quire", targets: ["quire"]),
        // The in-process fuzz driver of tools/fuzz (clipboard, configuration, editor sessions).
        .executable(name: "quire-fuzz", targets: ["QuireFuzz"]),
    ],
    dependencies: [
        .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.3"),
    ],
    targets: [
        .systemLibrary(name: "CX11", path: "Sources/CX11", pkgConfig: "x11",
                       providers: [.apt(["libx11-dev", "libxi-dev", "libxtst-dev"])]),
        .systemLibrary(name: "CCairo", path: "Sources/CCairo", pkgConfig: "cairo",
                       providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CJPEG", path: "Sources/CJPEG", pkgConfig: "libjpeg",
                       providers: [.apt(["libjpeg-dev"])]),
        .systemLibrary(name: "CQuireZlib", path: "Sources/CQuireZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"])]),
        .target(name: "InkModel",
                dependencies: [.product(name: "ZIPFoundation", package: "ZIPFoundation"), "CQuireZlib"],
                swiftSettings: strict),
        .target(name: "InkRecognition", dependencies: ["CInkKernels"], path: "Sources/InkRecognition",
                swiftSettings: strict + optimizeInDebug),
        // The network's inner loops, in C so that one binary holds a baseline x86-64 and an AVX2 + FMA
        // build of them (a function attribute, not a compiler flag); InkRecognition picks one at run time.
        .target(name: "CInkKernels", cSettings: optimizeCInDebug),
        .target(name: "InkRender", dependencies: ["InkModel", "InkMath", "CCairo", "CJPEG"], swiftSettings: strict),
        // Other programs' ink files (InkML, Xournal++), read into and written from InkModel parts.
        .target(name: "InkFormats", dependencies: ["InkModel"], swiftSettings: strict),
        // Handwritten math: the expression tree, its LaTeX/MathML/text forms, the solver, the recognizer.
        .target(name: "InkMath", dependencies: ["InkModel", "InkRecognition"], swiftSettings: strict + optimizeInDebug),
        .target(name: "Quire", dependencies: ["InkModel", "InkRecognition", "InkRender", "InkFormats", "InkMath"],
                swiftSettings: strict),
        // Kiosk forms: a spec, one part and editor per field, values, and submissions in SQLite or
        // PostgreSQL (through a local SQLite outbox).
        .target(name: "QuireForms", dependencies: ["Quire", "InkModel", "InkRender", .product(name: "GRDB", package: "GRDB.swift"),
                                                   .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log")],
                swiftSettings: strict),
        .target(name: "QuireApp", dependencies: ["Quire", "QuireForms", "InkFormats", "CX11"], swiftSettings: strict),
        // Evaluation, benchmarks and synthetic data: for the CLI and the fuzzer, not in the `Quire` product.
        .target(name: "QuireTools", dependencies: ["Quire", "InkRecognition", "InkMath"], swiftSettings: strict),
        .executableTarget(name: "quire",
                          dependencies: ["Quire", "QuireApp", "QuireForms", "QuireTools", "InkRecognition", "InkMath", "InkFormats", .product(name: "ArgumentParser", package: "swift-argument-parser")],
                          swiftSettings: strict),
        .executableTarget(name: "QuireFuzz", dependencies: ["Quire", "QuireApp", "QuireTools", "InkRecognition"], swiftSettings: strict),
        // Helpers shared by the test targets (temporary folders, error expectations, fixtures); tests only.
        .target(name: "QuireTestSupport", dependencies: ["InkModel"], path: "Tests/QuireTestSupport", swiftSettings: strict),
        .testTarget(name: "InkModelTests",
                    dependencies: ["InkModel", "QuireTestSupport", .product(name: "ZIPFoundation", package: "ZIPFoundation")], swiftSettings: strict),
        .testTarget(name: "InkFormatsTests", dependencies: ["InkFormats", "InkModel", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
                    exclude: ["Fixtures"], swiftSettings: strict),
        .testTarget(name: "InkRecognitionTests", dependencies: ["InkRecognition", "QuireTools", "QuireTestSupport"], swiftSettings: strict),
        .testTarget(name: "InkMathTests", dependencies: ["InkMath", "InkModel"], swiftSettings: strict),
        .testTarget(name: "InkRenderTests", dependencies: ["InkRender", "InkModel", "InkMath", "QuireTools"], exclude: ["Golden"], swiftSettings: strict),
        .testTarget(name: "QuireTests", dependencies: ["Quire", "QuireApp", "QuireTools", "InkMath", "QuireTestSupport", "quire", "CCairo", "CX11"], exclude: ["Fixtures"],
                    swiftSettings: strict),
        .testTarget(name: "QuireFormsTests", dependencies: ["QuireForms", "QuireApp", "Quire", "InkModel", "QuireTestSupport", "quire"],
                    exclude: ["Fixtures"], swiftSettings: strict),
        // X11 harness (Xvfb / Xorg+inputtest), window tests of `quire edit`, install test.
        .testTarget(name: "QuireAppTests", dependencies: ["quire", "QuireApp", "InkModel", "QuireTestSupport", "CX11", "CCairo"],
                    exclude: ["Fixtures"], swiftSettings: strict),
    ]
)
