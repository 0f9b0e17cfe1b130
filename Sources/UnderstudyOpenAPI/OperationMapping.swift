import UnderstudyCore
import UnderstudyOpenAPIContract
import UnderstudyRegex

/// Which of the spec's operations a stub's request pattern can reach: its method, and its path
/// (`path`/`url` against each template after a `servers` base path; `pathPattern`/`urlPattern`
/// against sample paths of each template, then segment by segment, ``PathPatternSegments``).
enum OperationMapping {
    enum Result {
        case reached([OpenAPIOperation])
        case unreachable(String)
        /// The pattern cannot be mapped with certainty (a warning, not an error): why.
        case undecided(String)
    }

    static func operations(for request: RequestPattern, in spec: OpenAPISpec) -> Result {
        let method = request.method
        var byPath: [OpenAPIOperation]
        var shown: String
        switch request.path {
        case nil:
            return .unreachable("the stub's request gives no path, so it cannot be mapped to an operation of the spec")
        case .exact(let path), .exactTarget(let path):
            let concrete = String(
                path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            shown = concrete
            byPath = spec.contract.operations(forPath: concrete).operations
        case .pattern(let regex), .targetPattern(let regex):
            shown = "/\(regex.pattern)/"
            byPath = spec.operations.filter { operation in
                operation.samplePaths().contains { sample in
                    spec.basePaths.contains { base in
                        regex.matchesWhole(base + sample) || regex.matchesWhole(base + sample + "?x=1")
                    }
                }
            }
            if byPath.isEmpty {
                // No sample value fits (`ev_[a-z0-9]+`): read the pattern segment by segment.
                var isTarget = false
                if case .targetPattern(_)? = request.path { isTarget = true }
                let templates = spec.operations.reduce(into: [String]()) {
                    if !$0.contains($1.path) { $0.append($1.path) }
                }
                switch PathPatternSegments.reached(
                    pattern: regex.pattern, isTarget: isTarget, templates: templates, basePaths: spec.basePaths)
                {
                case .templates(let found):
                    byPath = spec.operations.filter { found.contains($0.path) }
                case .undecided(let why):
                    return .undecided(
                        "cannot tell which path of the spec \(shown) reaches (\(why)), so its responses are not "
                            + "checked; give `path`, or a pattern whose segments are literal or confined to one segment"
                    )
                }
            }
        }
        if byPath.isEmpty {
            let templates = Array(Set(spec.operations.map(\.path)))
            let nearest = templates.map { ($0, EditDistance.distance(shown, $0)) }.sorted {
                ($0.1, $0.0) < ($1.1, $1.0)
            }
            let suggestion = nearest.first.map { "; did you mean \($0.0)?" } ?? ""
            return .unreachable("no path of the spec matches \(shown)\(suggestion)")
        }
        guard let method else { return .reached(byPath) }
        let matching = byPath.filter { $0.method == method }
        if matching.isEmpty {
            let declared = Set(byPath.map(\.method)).sorted().joined(separator: ", ")
            return .unreachable("\(byPath[0].path) has no \(method) operation in the spec (it declares \(declared))")
        }
        return .reached(matching)
    }
}
