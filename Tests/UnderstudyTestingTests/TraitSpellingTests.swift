import Foundation
import Testing
import UnderstudyTesting

/// One spelling for the trait's stubs: files and typed stubs in one list, with or without
/// `stubs:` (issue 48, item 8: `.understudy(stubs: "x.json", Stub.post(…))` did not compile).
@Suite("UnderstudyTesting: the trait takes stub files and typed stubs in one list")
struct TraitSpellingTests {
    @Test(.understudy(stubs: Fixtures.path("echo.json"), Stub.get("/spelling/typed").respond(.status(204))))
    func filesAndTypedStubsUnderStubs() async throws {
        let understudy = try #require(Understudy.current)
        #expect(try await HTTP.send("GET", "/harness/hello", to: understudy) == (200, "hello"))
        #expect(try await HTTP.send("GET", "/spelling/typed", to: understudy).status == 204)
    }

    @Test(.understudy(Stub.get("/spelling/typed").respond(.status(204)), Fixtures.path("echo.json")))
    func typedStubsAndFilesWithoutALabel() async throws {
        let understudy = try #require(Understudy.current)
        #expect(try await HTTP.send("GET", "/harness/hello", to: understudy) == (200, "hello"))
        #expect(try await HTTP.send("GET", "/spelling/typed", to: understudy).status == 204)
    }

    @Test func theArrayFormSplitsPathsFromTypedStubsInOrder() {
        let trait: UnderstudyTrait = .understudy(
            stubs: ["a.json", Stub.get("/one").respond(.status(200)), "b", Stub.get("/two").respond(.status(200))])
        #expect(trait.stubs == ["a.json", "b"])
        #expect(trait.installing.count == 2)
        let empty: UnderstudyTrait = .understudy()
        #expect(empty.stubs.isEmpty && empty.installing.isEmpty)
    }
}
