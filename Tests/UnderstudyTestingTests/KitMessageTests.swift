import Foundation
import Testing
import UnderstudyTesting

/// The kit's error messages read as sentences: no `Optional(...)`, no stray suggestion, no raw
/// Cocoa error for a missing stub file, and a deleted session's handle says it was deleted.
@Suite("UnderstudyTesting: messages")
struct KitMessageTests {
    @Test func aWaitTimeoutListsEachArrivalWithItsPlainStatus() async throws {
        let session = try await Understudy.session(stubs: [Fixtures.path("echo.json")], name: "kit-wait-message")
        defer { session.stopWithoutWaiting() }
        #expect(try await HTTP.send("GET", "/harness/hello", to: session).status == 200)
        do {
            _ = try await session.admin.waitForRequests(path: "/harness/hello", count: 2, timeout: 0.2)
            Issue.record("two requests never arrived, yet the wait returned")
        } catch let error as UnderstudyError {
            let text = error.description
            #expect(text.contains("#1 GET /harness/hello → 200"), "\(text)")
            #expect(!text.contains("Optional"), "\(text)")
        }
    }

    /// A user whose new shell lost `UNDERSTUDY_BIN` is told the one command that makes a plain
    /// `swift test` find the daemon (issue 48, item 11).
    @Test func aMissingBinarySaysHowToPutItBesideTheTests() throws {
        do {
            _ = try UnderstudyBinaryLocator.locate(environment: ["UNDERSTUDY_BIN": "/nonexistent/understudy"])
            Issue.record("a binary that does not exist was found")
        } catch {
            let text = error.description
            #expect(text.contains("run `swift build --product understudy`"), "\(text)")
            #expect(text.contains("UNDERSTUDY_BIN"), "\(text)")
            #expect(text.contains("/nonexistent/understudy"), "names where it looked: \(text)")
        }
    }

    @Test func aRefusedTypoNamesItsSuggestionOnce() async throws {
        let session = try await Understudy.session(name: "kit-install-message")
        defer { session.stopWithoutWaiting() }
        do {
            try await session.install(
                Stub(json: ["id": "typo", "request": ["path": "/typo"], "responses": [["statsu": 200]]]))
            Issue.record("the daemon accepted `statsu`")
        } catch let error as StubInstallError {
            let line = try #require(error.description.split(separator: "\n").last.map(String.init))
            #expect(
                line.hasSuffix("unknown key `statsu`; did you mean `status`? (at stubs[0].responses[0].statsu)"),
                "\(line)")
            #expect(!error.description.contains("; status"), "\(error.description)")
        }
    }

    @Test func aMissingStubFileInTheTraitSaysWhereItLooked() async throws {
        let test = try #require(Test.current)
        let trait: UnderstudyTrait = .understudy(stubs: "stubs/no-such-file.json")
        do {
            try await trait.provideScope(for: test, testCase: nil) {
                Issue.record("the test ran without its stub file")
            }
            Issue.record("a missing stub file was not reported")
        } catch {
            let text = "\(error)"
            let cwd = FileManager.default.currentDirectoryPath
            #expect(
                text.hasPrefix(
                    "no stub file or directory at stubs/no-such-file.json (looked for \(cwd)/stubs/no-such-file.json"),
                "\(text)")
            #expect(text.contains("the test process's current directory, \(cwd)"), "\(text)")
            #expect(text.contains("#filePath"), "\(text)")
            #expect(!text.contains("NSCocoaErrorDomain"), "\(text)")
            #expect(error.localizedDescription == text)
        }
    }

    @Test func aDeletedSessionsHandleSaysItWasDeleted() async throws {
        let session = try await Understudy.session(stubs: [Fixtures.path("echo.json")], name: "kit-deleted-message")
        #expect(try await session.admin.requests().isEmpty)
        let before = Date()
        await session.stop()
        do {
            _ = try await session.admin.requests()
            Issue.record("a deleted session answered")
        } catch {
            let text = "\(error)"
            #expect(text.contains("this session (\(try #require(session.sessionID))) was deleted (at "), "\(text)")
            #expect(text.contains("no longer reaches it"), "\(text)")
            #expect(!text.contains("cannot connect"), "\(text)")
            // The time it names is when stop() ran (whole seconds at least agree).
            let stamp = try #require(text.split(separator: "(at ").last?.prefix { $0 != ")" })
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let deleted = try #require(formatter.date(from: String(stamp)), "\(stamp)")
            #expect(deleted.timeIntervalSince(before) > -1)
            #expect(deleted.timeIntervalSince(before) < 60)
        }
    }
}
