/// Equality as JSON means it: object key order ignored, numbers compared by value (`1`, `1.0` and
/// `1e0` are equal), array order kept. (The written form is still kept for output; see
/// `jsonText`.)
extension JSONValue: Equatable {
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.semanticallyEquals(rhs)
    }
}
