/// A document that is not JSON, with where the parser gave up.
package struct JSONSyntaxError: Error, Sendable {
    package var position: SourcePosition
    package var message: String
    /// The value being read when the parser gave up (`stubs[0]`), `""` at the top level.
    package var jsonPath: String = ""

    package init(position: SourcePosition, message: String, jsonPath: String = "") {
        self.position = position
        self.message = message
        self.jsonPath = jsonPath
    }
}
