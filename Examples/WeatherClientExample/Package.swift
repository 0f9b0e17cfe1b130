// swift-tools-version:6.0
import Foundation
import PackageDescription

// A client written the way a third party would, tested with UnderstudyTesting.
//
// Understudy is a path dependency here (`../..`), and SwiftPM names a path dependency after its
// folder — so the package name in `.product(name:package:)` is that folder's name (`Understudy` in
// a checkout named so, but a clone may be named anything). Computed, so this example builds from
// any checkout. In your own package, depend on it by URL instead:
//     .package(url: "https://github.com/OWNER/Understudy", from: "1.0.0")
//     .product(name: "UnderstudyTesting", package: "Understudy")
let understudyRoot = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("../..").standardizedFileURL
let understudyPackage = understudyRoot.lastPathComponent

let package = Package(
    name: "WeatherClientExample",
    platforms: [.macOS(.v13)],
    products: [.library(name: "WeatherClient", targets: ["WeatherClient"])],
    dependencies: [.package(path: "../..")],
    targets: [
        .target(name: "WeatherClient"),
        .testTarget(name: "WeatherClientTests", dependencies: [
            "WeatherClient",
            .product(name: "UnderstudyTesting", package: understudyPackage),
        ]),
    ]
)
