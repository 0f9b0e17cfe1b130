import ArgumentParser
import UnderstudyCore
import UnderstudyWireMock

/// `understudy convert-wiremock ROOT OUT`: writes native stub files from WireMock mappings.
struct ConvertWireMockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert-wiremock",
        abstract: "Convert a WireMock root (mappings/ and __files/) into a native stub file.",
        discussion:
            "Writes OUT/converted-from-wiremock.json with every stub in the order Understudy tries them, body files inlined (the files a templated bodyFileName can pick are copied to OUT/__files/). Prints what it could not convert, by stub id and feature. Exits 1 if the mappings do not load (errors as `understudy check` prints them)."
    )

    @Argument(help: "The WireMock root (a directory holding mappings/), or mapping files.")
    var root: String

    @Argument(help: "The directory to write the native stub file into (created if missing).")
    var out: String

    @OptionGroup(title: "WireMock")
    var wireMock: WireMockFlags

    func validate() throws {
        guard root != out else { throw ValidationError("ROOT and OUT must differ") }
    }

    func run() throws {
        let result: WireMockConverter.Result
        do {
            result = try WireMockConverter.convert(paths: [root], options: wireMock.loadOptions)
        } catch {
            for problem in error.errors { Console.out(problem.description) }
            Console.error(
                "understudy convert-wiremock: \(error.errors.count) error\(error.errors.count == 1 ? "" : "s"); nothing written"
            )
            throw ExitCode(1)
        }
        let target: String
        do {
            target = try WireMockConverter.write(result, toDirectory: out)
        } catch {
            Console.error("understudy convert-wiremock: cannot write into \(out): \(error)")
            throw ExitCode(1)
        }
        for note in result.notes { Console.out("not converted: \(note)") }
        let count = WireMockConverter.stubCount(result)
        Console.error(
            "understudy convert-wiremock: wrote \(count) stubs to \(target); \(result.notes.count) feature\(result.notes.count == 1 ? "" : "s") not converted"
        )
    }
}
