// swift-tools-version:6.2
import Foundation
import PackageDescription

// A payments client's webhook receiver (`PaymentsWebhooks`: Stripe's signature check, a stale
// timestamp refused, each event processed once), tested against deliveries the daemon really sent:
// signed as Stripe signs, retried after a 500 (so the same event arrives twice), and wrong on purpose.
// The HMAC is swift-crypto's, as a Swift server would use; the package already resolves it (through
// swift-certificates), so the example adds no new checkout.
//
// Understudy is a path dependency (`../..`), named after its folder: see WeatherClientExample.
let understudyRoot = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("../..").standardizedFileURL
let understudyPackage = understudyRoot.lastPathComponent

let package = Package(
    name: "WebhookReceiverExample",
    platforms: [.macOS(.v13)],
    products: [.library(name: "PaymentsWebhooks", targets: ["PaymentsWebhooks"])],
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.0.0"..<"5.0.0"),
    ],
    targets: [
        .target(name: "PaymentsWebhooks", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(
            name: "PaymentsWebhooksTests",
            dependencies: [
                "PaymentsWebhooks",
                .product(name: "UnderstudyTesting", package: understudyPackage),
            ]),
    ]
)

// CI, and the scripts, build the examples in the package's own .build (scripts/test, step
// examples-build), with UNDERSTUDY_EXAMPLES_IN_PACKAGE_BUILD set: Understudy with the traits that build
// has (scripts/lib/build-flags), so an example compiles only its own targets, and warnings as errors in the
// example's modules (see RateLimitClockExample).
if Context.environment["UNDERSTUDY_EXAMPLES_IN_PACKAGE_BUILD"] != nil {
    package.dependencies[0] = .package(path: "../..", traits: ["AsyncHTTPClient"])
    for target in package.targets {
        target.swiftSettings = (target.swiftSettings ?? []) + [.treatAllWarnings(as: .error)]
    }
}
