// swift-tools-version:6.0
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
