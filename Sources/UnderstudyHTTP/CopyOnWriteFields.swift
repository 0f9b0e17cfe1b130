/// A value type's stored fields kept in one shared class instance, so copying the value is one
/// retain instead of a retain (and later a release) for each of its strings and arrays.
///
/// ``HTTPRequest`` and ``HTTPResponse`` keep their fields this way: each is copied several times
/// on its way through the engine, the journal and the transport. ``modify(_:)`` copies the
/// fields first when another value shares them, so value semantics are unchanged; reads go
/// through `_read`, so reading one field retains only that field. Inlinable, like the accessors
/// built on it: the engine and the transport read these fields from other modules on every request.
@usableFromInline
struct CopyOnWriteFields<Fields: Sendable>: @unchecked Sendable {
    /// Mutated only through `modify`, that is while one value alone holds it, so sharing it across
    /// threads is safe; no access overlaps another, so the runtime's exclusivity checks are off.
    @usableFromInline
    final class Box {
        @usableFromInline @exclusivity(unchecked) var fields: Fields

        @inlinable
        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    @usableFromInline var box: Box

    @inlinable
    init(_ fields: Fields) {
        box = Box(fields)
    }

    /// The fields, read in place.
    @inlinable
    var fields: Fields {
        _read { yield box.fields }
    }

    /// Changes the fields, after copying them if another value shares them.
    @inlinable @inline(__always)
    mutating func modify<Result>(_ change: (inout Fields) -> Result) -> Result {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
        return change(&box.fields)
    }
}
