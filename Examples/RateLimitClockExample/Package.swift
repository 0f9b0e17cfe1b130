// swift-tools-version:6.2
import Foundation
import PackageDescription

// A client that waits out rate limits (RESTNetworking's `respondToRateLimiting`), tested against a
// 30-second window with both clocks virtual: the session's (UnderstudyTesting's `clock`) and the
// client's (`ManualRetryScheduler`), moved together by one `VirtualTime.advance(by:)`.
//
// Understudy is a path dependency (`../..`), named after its folder: see WeatherClientExample.
let understudyRoot = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("../..").standardizedFileURL
let understudyPackage = understudyRoot.lastPathComponent

let package = Package(
    name: "RateLimitClockExample",
    platforms: [.macOS(.v13)],
    products: [.library(name: "ItemsClient", targets: ["ItemsClient"])],
    dependencies: [.package(path: "../..")],
    targets: [
        .target(name: "ItemsClient", dependencies: [.product(name: "RESTNetworking", package: understudyPackage)]),
        .testTarget(
            name: "ItemsClientTests",
            dependencies: [
                "ItemsClient",
                .product(name: "RESTNetworking", package: understudyPackage),
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
