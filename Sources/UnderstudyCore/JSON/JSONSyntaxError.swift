/// A document that is not JSON, with where the parser gave up.
struct JSONSyntaxError: Error, Sendable {
    var position: SourcePosition
    var message: String
}
