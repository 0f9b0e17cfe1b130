// swift-tools-version:6.2
import PackageDescription

// Layers, one way: stub files → UnderstudyStubs (model, loader) → UnderstudyCore (engine, journal,
// admin) → UnderstudyServer (libevent transport) → understudy (CLI). RESTNetworking is the client
// library proven against the daemon; UnderstudyTesting is what test suites use to drive it.

/// Combine on Apple platforms, OpenCombine elsewhere; RESTNetworking hides the choice behind one shim.
let combineDependencies: [Target.Dependency] = [
    .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux, .windows, .android])),
    .product(
        name: "OpenCombineFoundation", package: "OpenCombine",
        condition: .when(platforms: [.linux, .windows, .android])),
    .product(
        name: "OpenCombineDispatch", package: "OpenCombine", condition: .when(platforms: [.linux, .windows, .android])),
]

// Package traits (docs/development.md, "Package traits"): what a package depending on this one builds.
// None is on by default, so a package that depends on UnderstudyTesting or RESTNetworking resolves and
// builds neither SwiftNIO, swift-nio-ssl (BoringSSL), swift-crypto, AsyncHTTPClient, OpenAPIKit nor
// Yams: SwiftPM leaves a package out of the graph when every target dependency on it is conditional on
// a trait that is off. This package's scripts build .build with AsyncHTTPClient (scripts/lib/build-flags)
// and the release builds in .build-serve, understudy-openapi's among them, with both.
let asyncHTTPClient: TargetDependencyCondition? = .when(traits: ["AsyncHTTPClient"])
let openAPI: TargetDependencyCondition? = .when(traits: ["OpenAPI"])

/// The modules a package using the test kit or the client library compiles: warnings are errors in them,
/// since each one shows in every package that depends on them (and SwiftPM passes no warning settings
/// to a package fetched by URL, so dependents are not held to this).
let dependentFacing: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
    name: "Understudy",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "understudy", targets: ["understudy"]),
        // The OpenAPI commands (OpenAPIKit, Yams), which `understudy` runs from beside itself.
        .executable(name: "understudy-openapi", targets: ["understudy-openapi"]),
        .library(name: "UnderstudyCore", targets: ["UnderstudyCore"]),
        .library(name: "UnderstudyServer", targets: ["UnderstudyServer"]),
        .library(name: "UnderstudyTesting", targets: ["UnderstudyTesting"]),
        .library(name: "UnderstudyJSON", targets: ["UnderstudyJSON"]),
        .library(name: "UnderstudyStubFormat", targets: ["UnderstudyStubFormat"]),
        .library(name: "RESTNetworking", targets: ["RESTNetworking"]),
        // AsyncHTTPClient (SwiftNIO, swift-nio-ssl) as a RESTTransport, in its own products so that
        // depending on RESTNetworking or UnderstudyTesting alone builds none of it.
        .library(name: "RESTNetworkingAsyncHTTPClient", targets: ["RESTNetworkingAsyncHTTPClient"]),
        .library(name: "UnderstudyTestingAsyncHTTPClient", targets: ["UnderstudyTestingAsyncHTTPClient"]),
    ],
    traits: [
        .trait(
            name: "AsyncHTTPClient",
            description: """
                RESTNetworkingAsyncHTTPClient and UnderstudyTestingAsyncHTTPClient on AsyncHTTPClient, SwiftNIO, \
                swift-nio-ssl and swift-certificates. Off: those two modules are empty.
                """),
        .trait(
            name: "OpenAPI",
            description: """
                understudy-openapi (`check --openapi`, `generate`, `serve --openapi`) on OpenAPIKit and Yams. Off: \
                the binary only says how to build it with the trait.
                """),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        .package(url: "https://github.com/apple/swift-http-structured-headers", from: "1.7.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        // `swift package generate-documentation` for the DocC catalogs by hand (scripts/docs runs docc
        // itself, without a build); a plugin only, nothing links it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // OpenAPI 3.0/3.1 documents (`check --openapi`); Yams reads YAML specs. Only UnderstudyOpenAPI, and
        // so only the understudy-openapi binary, links them.
        .package(url: "https://github.com/mattpolzin/OpenAPIKit", from: "6.4.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // The one JSON value type, shared by the engine and the test kit (which must not depend on the engine).
        // JSON reading and writing: the value type, the parser (positions kept), the one writer and escaper.
        .target(name: "UnderstudyJSON", swiftSettings: dependentFacing),
        // The stub file format: its vocabulary (every object's keys, every enumerated value) and the
        // typed builders that write it. Depends only on the JSON value; the loader validates against it.
        .target(name: "UnderstudyStubFormat", dependencies: ["UnderstudyJSON"], swiftSettings: dependentFacing),
        // The linear-time regex engine stubs' `matches` patterns compile with. Depends on nothing.
        .target(name: "UnderstudyRegex"),
        // swift-mustache 2.1.1, vendored with a small patch so that it imports FoundationEssentials, not
        // Foundation: full Foundation (and ICU) would cost the daemon's start-up and idle memory.
        // Vendor/swift-mustache/UNDERSTUDY.md says what changed and how to go back to upstream. A target
        // of this package, not a package(path:) dependency: SwiftPM refuses a package required by URL
        // that depends on a local package, and packages that use the test kit add Understudy by URL.
        // Named apart from upstream's `Mustache` so a package that also uses upstream can link both.
        .target(name: "UnderstudyMustache", path: "Vendor/swift-mustache/Sources/Mustache"),
        // The vocabulary the transport and the engine share: requests, responses, header fields,
        // deliveries and their outcomes, deferred replies, the world clock, and the responder seam
        // (`HTTPResponder`, `JournalTicket`, `TransportHooks`). Below both; no sockets, no engine.
        .target(name: "UnderstudyHTTP", dependencies: ["UnderstudyStubFormat"]),
        // Response templates (`"template": true`, rendered with UnderstudyMustache) and what they read:
        // the request's lazily decoded view (`MatchContext`), time formats, the seeded generator, the
        // "did you mean" distance. Below Core, so that anything sending a templated body (responses
        // now, webhooks next) renders it with the one vocabulary.
        .target(name: "UnderstudyTemplates", dependencies: ["UnderstudyHTTP", "UnderstudyJSON", "UnderstudyMustache"]),
        // The compiled stub model (`Stub`, `RequestPattern`, the matchers, `StubSet`, the XML seam) and
        // the loader that reads native stub files into it (`StubLoader`, `StubDecoder`, `StubCompiler`,
        // the `StubFormatAdapter` seam). Below Core, so that whatever needs stubs without the engine
        // (the WireMock adapter's decoding, XML matching, a stub checker) builds on it alone.
        .target(
            name: "UnderstudyStubs",
            dependencies: [
                "UnderstudyHTTP",
                "UnderstudyJSON",
                "UnderstudyRegex",
                "UnderstudyStubFormat",
                "UnderstudyTemplates",
            ]),
        // Pure Swift: the matching engine, journal, native admin API and sessions. No sockets, no C.
        .target(
            name: "UnderstudyCore",
            dependencies: [
                "UnderstudyHTTP",
                "UnderstudyJSON",
                "UnderstudyRegex",
                "UnderstudyStubFormat",
                "UnderstudyStubs",
                "UnderstudyTemplates",
            ],
            // The admin page's files, embedded at build time by the plugin (not SwiftPM resources:
            // no bundle to find and no file to read at run time).
            exclude: ["Admin/UI/index.html", "Admin/UI/app.js", "Admin/UI/app.css", "Admin/UI/icon.svg"],
            plugins: ["EmbedAdminPage"]
        ),
        // WireMock's mapping files, roots, templates and admin API: an adapter that decodes into the
        // engine's stubs and registers through the seams (StubFormatAdapters, AdminRoutes.install).
        // Core does not import it; the CLIs install it (WireMockSupport.install) at start-up.
        .target(
            name: "UnderstudyWireMock",
            dependencies: ["UnderstudyCore", "UnderstudyJSON", "UnderstudyStubFormat"]),
        // Recording: exchanges (from a journal or a HAR file) into native stub files, HAR export, and their
        // admin routes, registered through Core's AdminRoutes.install. Core does not import it; the CLI
        // installs it (RecordingModule.install) at start-up.
        .target(
            name: "UnderstudyRecording",
            dependencies: ["UnderstudyCore", "UnderstudyJSON", "UnderstudyStubFormat"]),
        // Writes text files as Swift string literals; the EmbedAdminPage plugin runs it.
        .executableTarget(name: "understudy-embed"),
        .plugin(name: "EmbedAdminPage", capability: .buildTool(), dependencies: ["understudy-embed"]),
        // libevent's headers behind a module map and a small shim. With CLibeventTLS below, the package's
        // only C, and UnderstudyServer is the only module that imports either.
        .systemLibrary(
            name: "CLibevent",
            pkgConfig: "libevent",
            providers: [.apt(["libevent-dev"]), .brew(["libevent"])]
        ),
        // TLS for the transport, header-only like CLibevent: certificate generation, SSL contexts,
        // libevent's OpenSSL bufferevents (libevent-dev's libevent_openssl, libssl-dev) and webhooks'
        // HMAC. Without pkgConfig or `link`, like CCurl: the daemon dlopens libssl.so.3 and
        // libevent_openssl when an HTTPS port or a webhook signature first needs them, so a start
        // without TLS does not load and relocate OpenSSL (Sources/CLibeventTLS/shim.h).
        .systemLibrary(
            name: "CLibeventTLS",
            providers: [.apt(["libevent-dev", "libssl-dev"]), .brew(["libevent", "openssl"])]
        ),
        // nghttp2, the HTTP/2 codec behind the transport's HTTP/2 connections (h2c and h2 over TLS),
        // header-only like the other shims (libnghttp2-dev).
        .systemLibrary(
            name: "CNghttp2",
            pkgConfig: "libnghttp2",
            providers: [.apt(["libnghttp2-dev"]), .brew(["nghttp2"])]
        ),
        // zlib (zlib1g-dev), which the transport compresses a stub's body with (`compress`): header-only,
        // and dlopened like CCurl (libz.so.1 the first time a body is compressed), so the daemon's start
        // does not load it. The shim also declares brotli's one-shot encoder (no -dev needed), opened
        // through the same loader (libbrotlienc.so.1, Debian's libbrotli1) when a stub asks for `br`.
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // libcurl (libcurl4-openssl-dev), the client that proxying stubs forward with, on its
        // multi-socket interface. Header-only, and deliberately without pkgConfig or `link`: the
        // daemon dlopens libcurl.so.4 when a stub first proxies, so a daemon without proxy stubs does
        // not load libcurl and its ~25 dependencies at start-up (Sources/CCurl/shim.h).
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),
        // libxml2 for XML body matching, dlopened like CCurl (libxml2.so.2 when the first XML stub
        // compiles) and needing no -dev package: the shim declares the ABI-stable part it uses.
        .systemLibrary(name: "CXML", providers: [.apt(["libxml2"])]),
        // XML body matching (`xmlEquals`, `xPath`) on libxml2: the stub model's XMLMatching seam.
        .target(name: "UnderstudyXML", dependencies: ["UnderstudyStubs", "CXML"]),
        // The HTTP/1.1 and HTTP/2 transport on libevent's bufferevents: the one module that imports the
        // C shims; no C type in its public API.
        .target(
            name: "UnderstudyServer",
            dependencies: [
                "UnderstudyCore", "UnderstudyHTTP", "CLibevent", "CLibeventTLS", "CNghttp2", "CCurl", "CZlib",
            ]),
        // JSON Schema (draft 2020-12 as OpenAPI 3.1 uses it, and OpenAPI 3.0's schema object) over JSONValue.
        .target(name: "UnderstudyJSONSchema", dependencies: ["UnderstudyJSON", "UnderstudyRegex"]),
        // What an OpenAPI document promises as plain JSON values (documents, operations, base paths) and
        // the serve-time checker behind `serve --openapi` (the engine's ContractChecking seam). No
        // OpenAPIKit and no YAML: the document is read and judged by UnderstudyOpenAPI.
        .target(
            name: "UnderstudyOpenAPIContract",
            dependencies: ["UnderstudyCore", "UnderstudyJSON", "UnderstudyJSONSchema", "UnderstudyRegex"]
        ),
        // Stubs checked against an OpenAPI document: spec loading ($refs across files), operation mapping,
        // response checks with located errors.
        .target(
            name: "UnderstudyOpenAPI",
            dependencies: [
                "UnderstudyJSON",
                "UnderstudyJSONSchema",
                "UnderstudyOpenAPIContract",
                "UnderstudyRegex",
                "UnderstudyStubFormat",
                "UnderstudyCore",
                .product(name: "OpenAPIKit", package: "OpenAPIKit", condition: openAPI),
                .product(name: "OpenAPIKit30", package: "OpenAPIKit", condition: openAPI),
                .product(name: "Yams", package: "Yams", condition: openAPI),
            ]
        ),
        // The one blocking HTTP/1.1 exchange with a daemon's admin API over loopback TCP (connect with a
        // deadline, Content-Length, chunked and close-delimited replies): the CLI's `record --session` and the
        // test kit both call it. No Foundation, no C shim, so either may link it without weight.
        .target(name: "UnderstudyLoopbackHTTP", swiftSettings: dependentFacing),
        // RFC 6455's protocol logic with no socket: the server side's frame parser (every §5 rule, the
        // close codes of §7.4), the frame writer with issue 45's deliberately bad frames, and the
        // handshake's pure parts (SHA-1 injected: no crypto here). No Foundation, no C; not wired into
        // the transport yet (ARCHITECTURE.md).
        .target(name: "UnderstudyWebSocket"),
        // The CLI only parses arguments and calls the libraries.
        .executableTarget(
            name: "understudy",
            dependencies: [
                "UnderstudyCore",
                "UnderstudyServer",
                "UnderstudyOpenAPIContract",
                "UnderstudyXML",
                "UnderstudyWireMock",
                "UnderstudyRecording",
                "UnderstudyLoopbackHTTP",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // mimalloc as the daemon's allocator on Linux (Debian's libmimalloc-dev): with glibc's,
            // malloc took ~8 % of a keep-alive request's cycles (perf) against ~2.4 % in the C evhttp
            // server, and user time per request was 3.6-5.1 µs against 2.6-2.9 µs with mimalloc
            // (scripts/benchmark/RESULTS.md). Linking it ahead of libc makes it the process's malloc.
            linkerSettings: [.linkedLibrary("mimalloc", .when(platforms: [.linux]))]
        ),
        // `check --openapi`, `generate` and the contract `serve --openapi` reads: the only binary that links
        // OpenAPIKit and Yams, so the daemon's start does not pay for them.
        .executableTarget(
            name: "understudy-openapi",
            dependencies: [
                "UnderstudyCore",
                "UnderstudyJSON",
                "UnderstudyOpenAPI",
                "UnderstudyXML",
                "UnderstudyWireMock",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "UnderstudyTesting",
            dependencies: ["UnderstudyJSON", "UnderstudyStubFormat", "UnderstudyLoopbackHTTP"],
            swiftSettings: dependentFacing),
        // Micro-benchmark of the engine alone (requests/s through `handle`), run by scripts/bench-engine.
        .executableTarget(name: "understudy-engine-bench", dependencies: ["UnderstudyCore"]),
        // RFC 9651 structured fields: the IETF RateLimit draft's `RateLimit`/`RateLimit-Policy` headers.
        .target(
            name: "RESTNetworking",
            dependencies: combineDependencies + [
                .product(name: "RawStructuredFieldValues", package: "swift-http-structured-headers")
            ],
            swiftSettings: dependentFacing
        ),
        // RESTTransport on AsyncHTTPClient. swift-certificates classifies a refused chain (expired, not
        // yet valid, untrusted): NIOSSL reports all of them as one CERTIFICATE_VERIFY_FAILED.
        .target(
            name: "RESTNetworkingAsyncHTTPClient",
            dependencies: [
                "RESTNetworking",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: asyncHTTPClient),
                .product(name: "NIOCore", package: "swift-nio", condition: asyncHTTPClient),
                .product(name: "NIOPosix", package: "swift-nio", condition: asyncHTTPClient),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: asyncHTTPClient),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: asyncHTTPClient),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: asyncHTTPClient),
                .product(name: "X509", package: "swift-certificates", condition: asyncHTTPClient),
            ],
            swiftSettings: dependentFacing
        ),
        // The kit's AsyncHTTPClient trust helper (`tlsConfiguration()`), apart so that UnderstudyTesting
        // users who never touch SwiftNIO don't build it.
        .target(
            name: "UnderstudyTestingAsyncHTTPClient",
            dependencies: [
                "UnderstudyTesting", .product(name: "NIOSSL", package: "swift-nio-ssl", condition: asyncHTTPClient),
            ],
            swiftSettings: dependentFacing
        ),

        // The stub-level helpers (loadErrors, temporary directories) UnderstudyStubsTests and the
        // engine-level test targets share: a plain target under Tests/, built only for the tests.
        .target(
            name: "UnderstudyStubsTestSupport", dependencies: ["UnderstudyStubs"],
            path: "Tests/UnderstudyStubsTestSupport"),
        // The engine-level helpers the four test targets below share (makeEngine, jsonObject, …; it
        // re-exports the stub-level ones): a plain target under Tests/, built only for the tests.
        .target(
            name: "UnderstudyCoreTestSupport", dependencies: ["UnderstudyCore", "UnderstudyStubsTestSupport"],
            path: "Tests/UnderstudyCoreTestSupport"),
        .testTarget(
            name: "UnderstudyCoreTests",
            dependencies: [
                "UnderstudyCore", "UnderstudyJSON", "UnderstudyRegex", "UnderstudyStubFormat", "UnderstudyXML",
                "UnderstudyWireMock", "UnderstudyCoreTestSupport", "UnderstudyTemplates",
            ]),
        // One test target per library module: each module's tests build and run without Core's.
        .testTarget(name: "UnderstudyJSONTests", dependencies: ["UnderstudyJSON"]),
        .testTarget(name: "UnderstudyRegexTests", dependencies: ["UnderstudyRegex"]),
        .testTarget(name: "UnderstudyTemplatesTests", dependencies: ["UnderstudyTemplates", "UnderstudyJSON"]),
        .testTarget(
            name: "UnderstudyStubsTests",
            dependencies: [
                "UnderstudyStubs", "UnderstudyStubFormat", "UnderstudyRegex", "UnderstudyXML",
                "UnderstudyStubsTestSupport",
            ]),
        .testTarget(name: "UnderstudyStubFormatTests", dependencies: ["UnderstudyStubFormat", "UnderstudyStubs"]),
        .testTarget(
            name: "UnderstudyXMLTests",
            dependencies: ["UnderstudyXML", "UnderstudyCore", "UnderstudyWireMock", "UnderstudyCoreTestSupport"]),
        .testTarget(
            name: "UnderstudyWireMockTests",
            dependencies: ["UnderstudyWireMock", "UnderstudyCore", "UnderstudyRecording", "UnderstudyCoreTestSupport"]),
        .testTarget(
            name: "UnderstudyRecordingTests",
            dependencies: ["UnderstudyRecording", "UnderstudyCore", "UnderstudyCoreTestSupport"]),
        .testTarget(
            name: "UnderstudyServerTests",
            dependencies: ["UnderstudyServer", "UnderstudyCore", "understudy"],
            exclude: ["Fixtures"]  // stub files the tests load by path, not resources
        ),
        // The transport's protocol logic with no socket: the HTTP/1.1 codec byte for byte (every case of
        // Tests/BlackBox/test_http1_conformance.py, mirrored by mirror_conformance.py) and the HTTP/2 session's.
        .testTarget(
            name: "UnderstudyTransportTests",
            dependencies: ["UnderstudyServer", "UnderstudyCore"],
            exclude: ["mirror_conformance.py"]
        ),
        .testTarget(name: "UnderstudyOpenAPITests", dependencies: ["UnderstudyOpenAPI"]),
        // Every RFC 6455 framing rule the server enforces, whole and one byte at a time; no socket.
        .testTarget(name: "UnderstudyWebSocketTests", dependencies: ["UnderstudyWebSocket"]),
        .testTarget(
            name: "UnderstudyJSONSchemaTests",
            dependencies: ["UnderstudyJSONSchema", "UnderstudyJSON"],
            exclude: ["Fixtures"]  // the official test suite's files, read by path
        ),
        .testTarget(
            name: "RESTNetworkingTests",
            dependencies: [
                "RESTNetworking", "RESTNetworkingAsyncHTTPClient", "UnderstudyTesting",
                "UnderstudyTestingAsyncHTTPClient", "understudy",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: asyncHTTPClient),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: asyncHTTPClient),
            ] + combineDependencies
        ),
        // The loopback client's response parser (no sockets) and one exchange with the real daemon.
        .testTarget(
            name: "UnderstudyLoopbackHTTPTests",
            dependencies: ["UnderstudyLoopbackHTTP", "UnderstudyTesting", "understudy"]
        ),
        .testTarget(
            name: "UnderstudyTestingTests",
            dependencies: ["UnderstudyTesting", "understudy"],
            exclude: ["Fixtures"]  // stub files the sessions load by path, not resources
        ),
    ]
)
