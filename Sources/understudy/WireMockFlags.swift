import ArgumentParser
import UnderstudyCore

/// The WireMock flags `serve`, `check` and `convert-wiremock` share: settings WireMock takes on its
/// own command line that change how its mappings read.
struct WireMockFlags: ParsableArguments {
    @Flag(
        name: .customLong("global-response-templating"),
        help:
            "WireMock's flag of the same name: render every WireMock mapping's response as a template, as if it listed the `response-template` transformer (native stubs are not affected)."
    )
    var globalResponseTemplating = false

    @Flag(
        help: ArgumentHelp(
            "A WireMock mapping Understudy cannot serve is an error (the root is refused), instead of being skipped with a warning.",
            discussion:
                "Without it, such a mapping is left out (listed by GET /__admin/health) and the rest of its root serves. Native stub files are always all or nothing."
        ))
    var strict = false

    /// The loader's options these flags give.
    var loadOptions: StubLoadOptions {
        StubLoadOptions(wireMockGlobalTemplating: globalResponseTemplating, strict: strict)
    }
}
