/// Compact JSON text in written order, numbers as written: what the test kit sends to the daemon,
/// and what failure messages show. Written by ``JSONWriter``, the package's one escaper.
extension JSONValue: CustomStringConvertible {
    public var description: String { jsonText }

    /// The value as compact JSON text, members in order, numbers as written.
    public var jsonText: String {
        String(decoding: jsonBytes, as: UTF8.self)
    }
}
