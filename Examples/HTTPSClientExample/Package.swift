// swift-tools-version:6.1
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
                .product(name: "UnderstudyTesting", package: understudyPackage),
                .product(name: "UnderstudyTestingAsyncHTTPClient", package: understudyPackage),
            ]),
    ]
)
