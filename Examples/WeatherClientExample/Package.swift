// swift-tools-version:6.2
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

// CI, and the scripts, build the examples in the package's own .build (scripts/test, step
// examples-build), with UNDERSTUDY_EXAMPLES_IN_PACKAGE_BUILD set: Understudy with the traits that build
// has (scripts/lib/build-flags), so an example compiles only its own targets (SwiftPM passes a package's traits to
// all of its modules as compilation conditions: another set would compile them all again), and
// warnings as errors in the example's modules, as in the package's modules its users compile.
if Context.environment["UNDERSTUDY_EXAMPLES_IN_PACKAGE_BUILD"] != nil {
    package.dependencies[0] = .package(path: "../..", traits: ["AsyncHTTPClient"])
    for target in package.targets {
        target.swiftSettings = (target.swiftSettings ?? []) + [.treatAllWarnings(as: .error)]
    }
}
