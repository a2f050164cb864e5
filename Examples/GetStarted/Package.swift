// swift-tools-version:6.0
import PackageDescription

// Where Quire's git repository is published: replace this placeholder with the URL you get Quire
// from. scripts/test-example redirects it (a SwiftPM mirror) to a clone of the working repository
// tagged 0.1.0, so the example resolves Quire by version, as any other package would.
let quireURL = "https://example.org/quire.git"

let package = Package(
    name: "GetStarted",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(url: quireURL, from: "0.1.0"),
    ],
    targets: [
        .executableTarget(name: "GetStarted", dependencies: [.product(name: "Quire", package: "quire")],
                          swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
