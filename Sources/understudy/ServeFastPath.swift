import ArgumentParser

/// How the binary starts: `understudy serve …` parsed by `ServeCommand` as the root of its own
/// arguments, anything else by `Understudy.main()`.
///
/// ArgumentParser builds a command's argument table (`ArgumentSet`: a `Mirror` of a fresh
/// instance and an `ArgumentDefinition` per option, through generic code that looks types up
/// by mangled name) each time it asks about the command: parsing `serve` under `Understudy` builds
/// `ServeCommand`'s four times (twice to ask whether it captures all remaining arguments, once to
/// parse, once to ask whether it collects unrecognized ones), about 1.4 M instructions each, the
/// largest part of a start (issues 40 and 46). Parsed as the root, it is built twice.
///
/// Only a plain successful parse is taken from this path; it is the same parser (ArgumentParser,
/// the same `ServeCommand` type, its `validate()`), so the values are the ones `Understudy.main()`
/// would decode. Anything else (`--help`, `--version`, a completion request, a parse or validation
/// error) throws or yields another command here, and the arguments are parsed again from the
/// start by `Understudy.main()`, which prints exactly what it always did (usage lines name
/// `understudy serve`; `--version` is the root's).
enum ServeFastPath {
    static func runOrParseAsUsual(_ arguments: [String]) {
        guard arguments.count > 1, arguments[1] == ServeCommand.configuration.commandName,
            let parsed = try? ServeCommand.parseAsRoot(Array(arguments.dropFirst(2))),
            let serve = parsed as? ServeCommand
        else {
            Understudy.main()
            return
        }
        do {
            try serve.run()
        } catch {
            // As `Understudy.main()` ends a command whose `run()` throws (an `ExitCode`, mostly).
            Understudy.exit(withError: error)
        }
    }
}
