/// How far a request is from a pattern, to rank near misses the way WireMock does: each
/// condition gives a distance from 0 (holds) to 1 (nothing alike), graded where closeness means
/// something (an exact path or value one typo away is close), and the conditions are weighted —
/// the path counts most, then the method. Only the serving-independent, unmatched path uses it.
extension RequestPattern {
    /// Each condition's weight in a stub's total distance (WireMock's near-miss weights).
    enum DistanceWeight {
        static let path = 10.0
        static let method = 3.0
        static let query = 1.0
        static let headers = 1.0
        static let body = 1.0
    }

    /// Strings this many edits apart or more are unrelated (distance 1): grading stops there,
    /// which bounds the work per stub however long its path and however far the request is.
    static let gradedEdits = 12
    /// Values longer than this are compared as equal or not, never graded, so a huge header or
    /// body cannot make ranking expensive.
    static let gradedValueLimit = 256
    static let gradedBodyLimit = 1_024

    /// `base` plus the weighted distance of the request from this pattern; `nil` as soon as the
    /// total reaches `budget` (the distance of the worst near miss kept so far), so most stubs
    /// are dismissed after a comparison or two.
    @inline(__always)  // Lets the caller read the pattern in place through its `StubBox` rather than copy it out.
    func distance(from context: MatchContext, base: Double, budget: Double, name: NearMissName) -> Double? {
        var total = base
        if let method, method != context.method {
            total += DistanceWeight.method
            if total >= budget { return nil }
        }
        if let path {
            guard
                let pathDistance = Self.pathDistance(
                    path, context, name: name, below: (budget - total) / DistanceWeight.path)
            else { return nil }
            total += DistanceWeight.path * pathDistance
            if total >= budget { return nil }
        }
        if !query.isEmpty {
            let sum = query.reduce(0.0) { $0 + Self.valueDistance($1.matcher, context.queryValues($1.name)) }
            total += DistanceWeight.query * sum / Double(query.count)
            if total >= budget { return nil }
        }
        if !headers.isEmpty {
            let sum = headers.reduce(0.0) {
                $0
                    + Self.valueDistance(
                        $1.matcher, $1.valueForm.normalize(context.request.headers.values(for: $1.name)))
            }
            total += DistanceWeight.headers * sum / Double(headers.count)
            if total >= budget { return nil }
        }
        if !cookies.isEmpty {
            var sum = 0.0
            for condition in cookies {
                sum += Self.valueDistance(condition.matcher, context.cookieValues(condition.name))
            }
            total += DistanceWeight.headers * sum / Double(cookies.count)
            if total >= budget { return nil }
        }
        if let body, !Self.accepts(body, context) {
            total +=
                DistanceWeight.body * Self.bodyDistance(body, context, below: (budget - total) / DistanceWeight.body)
        }
        return total < budget ? total : nil
    }

    /// The path's distance, below `bound` or `nil`: the edit distance from an exact path over the
    /// longer length (1 from ``gradedEdits`` edits on); 1 for a pattern that does not match — or, when smaller, the request's last
    /// segment's distance from the stub's name (see ``NearMissName``).
    private static func pathDistance(
        _ path: PathMatcher, _ context: MatchContext, name: NearMissName, below bound: Double
    ) -> Double? {
        var distance: Double?
        switch path {
        case .exact(let wanted):
            if wanted == context.path { return 0 }
            distance = EditDistance.normalizedDistance(context.path, wanted, below: bound, maximumEdits: gradedEdits)
        case .pattern(let regex):
            if regex.matchesWhole(context.path) { return 0 }
            distance = bound > 1 ? 1 : nil
        case .exactTarget(let wanted):
            if wanted == context.target { return 0 }
            distance = EditDistance.normalizedDistance(context.target, wanted, below: bound, maximumEdits: gradedEdits)
        case .targetPattern(let regex):
            if regex.matchesWhole(context.target) { return 0 }
            distance = bound > 1 ? 1 : nil
        }
        if let named = name.pathDistance(below: min(distance ?? bound, bound)) { return named }
        return distance
    }

    /// 0 when the matcher accepts the values; for an exact value, the edit distance from the
    /// closest value received (graded as paths are); otherwise 1.
    static func valueDistance(_ matcher: ValueMatcher, _ values: [String]) -> Double {
        if matcher.accepts(values) { return 0 }
        guard case .equals(let wanted) = matcher, wanted.utf8.count <= gradedValueLimit else { return 1 }
        var best = 1.0
        for value in values where value.utf8.count <= gradedValueLimit {
            if let distance = EditDistance.normalizedDistance(value, wanted, below: best, maximumEdits: gradedEdits) {
                best = distance
            }
        }
        return best
    }

    /// For a body that missed: the edit distance from an exact body (both short); otherwise 1.
    private static func bodyDistance(_ matcher: BodyMatcher, _ context: MatchContext, below bound: Double) -> Double {
        guard case .equals(let wanted) = matcher, wanted.utf8.count <= gradedBodyLimit,
            context.request.body.count <= gradedBodyLimit
        else { return 1 }
        return EditDistance.normalizedDistance(
            context.bodyText, wanted, below: min(bound, 1), maximumEdits: gradedEdits) ?? 1
    }
}
