// swift-tools-version:6.0
import Foundation
import PackageDescription

// A client written the way a third party would, tested with UnderstudyTesting.
//
// Understudy is a path dependency here (`../..`), and SwiftPM names a path dependency after its
// folder — so the package name in `.product(name:package:)` is that folder's name (`Understudy` in
// a checkout named so, but a clone may be named anything). Computed, so this example builds from
// any checkout. In your own package, do the same with the path to your checkout (the package has no
// published URL yet; the README's "Which part do I need" says how to depend on it).
let understudyRoot = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("../..").standardizedFileURL
let understudyPackage = understudyRoot.lastPathComponent

let package = Package(
    name: "WeatherClientExample",
    platforms: [.macOS(.v13)],
    products: [.library(name: "WeatherClient", targets: ["WeatherClient"])],
    dependencies: [.package(path: "../..")],
    targets: [
        .target(name: "WeatherClient"),
        .testTarget(
            name: "WeatherClientTests",
            dependencies: [
                "WeatherClient",
                .product(name: "UnderstudyTesting", package: understudyPackage),
            ]),
    ]
)
