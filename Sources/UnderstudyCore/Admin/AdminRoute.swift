import UnderstudyHTTP

/// One admin endpoint: a method, a path pattern under `/__admin`, the ports it exists on, and the
/// handler that answers it. ``AdminRoutes`` lists them all.
package struct AdminRoute: Sendable {
    /// Which admin API a route belongs to: the daemon's main port, a session's port, or both.
    package enum World: Sendable {
        case main, session, both

        func includes(_ isSession: Bool) -> Bool {
            switch self {
            case .both: return true
            case .main: return !isSession
            case .session: return isSession
            }
        }
    }

    /// One segment of a pattern: a literal, or a parameter handed to the handler in order.
    enum Segment: Equatable, Sendable {
        case literal(String)
        case parameter
    }

    let method: String
    /// The pattern as written (`requests/{seq}/near-misses`), for messages and tests.
    let pattern: String
    let segments: [Segment]
    let world: World
    let handler: @Sendable (AdminCall) -> HTTPAnswer

    /// A route whose handler answers now.
    package init(
        _ method: String, _ pattern: String, _ world: World, _ handler: @escaping @Sendable (AdminCall) -> HTTPResponse
    ) {
        self.init(method, pattern, world, answering: { .now(handler($0)) })
    }

    /// A route whose handler may answer later (a long poll).
    init(
        _ method: String, _ pattern: String, _ world: World,
        answering handler: @escaping @Sendable (AdminCall) -> HTTPAnswer
    ) {
        self.method = method
        self.pattern = pattern
        self.segments = pattern.split(separator: "/").map { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? .parameter : .literal(String(part))
        }
        self.world = world
        self.handler = handler
    }

    /// The parameters when `path` (decoded segments after `/__admin`) fits the pattern; nil otherwise.
    func parameters(_ path: [String]) -> [String]? {
        guard path.count == segments.count else { return nil }
        var parameters: [String] = []
        for (segment, part) in zip(segments, path) {
            switch segment {
            case .literal(let literal): if literal != part { return nil }
            case .parameter: parameters.append(part)
            }
        }
        return parameters
    }

    /// Literal segments count for more than parameters, so `scenarios/reset` wins over
    /// `scenarios/{name}` whatever order the table lists them in.
    var specificity: Int {
        segments.reduce(0) { $0 + ($1 == .parameter ? 0 : 1) }
    }
}
