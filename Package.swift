// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]
#if arch(x86_64)
let avx2: [SwiftSetting] = [.unsafeFlags(["-O", "-target-cpu", "haswell"]), .define("QUIRE_AVX2")]
#else
let avx2: [SwiftSetting] = [.unsafeFlags(["-O"])]
#endif

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
        // The network's inner loops are unusable unoptimised (a page takes a minute in a debug
        // build): always optimise this target, so debug builds and the tests run it at real speed.
        .target(name: "InkRecognition", dependencies: ["InkKernels", "InkKernelsAVX2"], path: "Sources/InkRecognition",
                swiftSettings: strict + [.unsafeFlags(["-O"])]),
        // The network's loops, built twice from one file (InkKernelsAVX2/LSTMKernels.swift is a symlink):
        // for baseline x86-64 and for AVX2 + FMA; InkRecognition picks one at run time from the CPU.
        .target(name: "InkKernels", swiftSettings: strict + [.unsafeFlags(["-O"])]),
        .target(name: "InkKernelsAVX2", swiftSettings: strict + avx2),
        .target(name: "InkRender", dependencies: ["InkModel", "CCairo", "CJPEG"], swiftSettings: strict),
        .target(name: "Quire", dependencies: ["InkModel", "InkRecognition", "InkRender", "CCairo", "CX11"],
                swiftSettings: strict),
        .target(name: "QuireApp", dependencies: ["Quire", "CX11", "CCairo"], swiftSettings: strict),
        .executableTarget(name: "quire",
                          dependencies: ["Quire", "QuireApp", "InkRecognition", .product(name: "ArgumentParser", package: "swift-argument-parser")],
                          swiftSettings: strict),
        .executableTarget(name: "QuireFuzz", dependencies: ["Quire", "QuireApp", "InkRecognition"], swiftSettings: strict),
        .testTarget(name: "InkModelTests",
                    dependencies: ["InkModel", .product(name: "ZIPFoundation", package: "ZIPFoundation")], swiftSettings: strict),
        .testTarget(name: "InkRecognitionTests", dependencies: ["InkRecognition"], swiftSettings: strict),
        .testTarget(name: "InkRenderTests", dependencies: ["InkRender", "InkModel"], exclude: ["Golden"], swiftSettings: strict),
        .testTarget(name: "QuireTests", dependencies: ["Quire", "QuireApp", "quire", "CCairo", "CX11"], exclude: ["Fixtures"],
                    swiftSettings: strict),
        // X11 harness (Xvfb / Xorg+inputtest), window tests of `quire edit`, install test.
        .testTarget(name: "QuireAppTests", dependencies: ["quire", "QuireApp", "InkModel", "CX11", "CCairo"], swiftSettings: strict),
    ]
)
