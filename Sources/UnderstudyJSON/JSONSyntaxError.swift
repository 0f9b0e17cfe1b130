/// A document that is not JSON, with where the parser gave up.
struct JSONSyntaxError: Error, Sendable {
    var position: SourcePosition
    var message: String
    /// The value being read when the parser gave up (`stubs[0]`), `""` at the top level.
    var jsonPath: String = ""
}
