// swift-tools-version:6.2
import Foundation
import PackageDescription

// An API client on RESTNetworking that talks HTTPS through AsyncHTTPClient, so its tests can trust
// Understudy's per-process CA on Linux without the machine's trust store (URLSession there honours
// only the store). Tested with UnderstudyTesting, one daemon, a TLS session per certificate mode.
//
// Understudy is a path dependency (`../..`) named after its folder, so the package name below is
// computed (see Examples/WeatherClientExample/Package.swift). AsyncHTTPClient and swift-nio-ssl are
// declared because the client's API names their types (`HTTPClient`, `TLSConfiguration`). The
// AsyncHTTPClient trait turns on Understudy's AsyncHTTPClient modules (RESTNetworkingAsyncHTTPClient,
// UnderstudyTestingAsyncHTTPClient): without it they are empty, and SwiftNIO is not in the graph. The
// AsyncHTTPClient trait turns on Understudy's AsyncHTTPClient modules (RESTNetworkingAsyncHTTPClient,
// UnderstudyTestingAsyncHTTPClient): without it they are empty, and SwiftNIO is not in the graph.
let understudyRoot = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("../..").standardizedFileURL
let understudyPackage = understudyRoot.lastPathComponent

let package = Package(
    name: "HTTPSClientExample",
    platforms: [.macOS(.v13)],
    products: [.library(name: "StatusClient", targets: ["StatusClient"])],
    dependencies: [
        .package(path: "../..", traits: ["AsyncHTTPClient"]),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        .target(
            name: "StatusClient",
            dependencies: [
                .product(name: "RESTNetworking", package: understudyPackage),
                .product(name: "RESTNetworkingAsyncHTTPClient", package: understudyPackage),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]),
        .testTarget(
            name: "StatusClientTests",
            dependencies: [
                "StatusClient",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "UnderstudyTesting", package: understudyPackage),
                .product(name: "UnderstudyTestingAsyncHTTPClient", package: understudyPackage),
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
