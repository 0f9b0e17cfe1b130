import UnderstudyCore
import UnderstudyOpenAPIContract
import UnderstudyRegex

/// Which of the spec's operations a stub's request pattern can reach: its method, and its path
/// (`path`/`url` against each template after a `servers` base path; `pathPattern`/`urlPattern`
/// against sample paths of each template).
enum OperationMapping {
    enum Result {
        case reached([OpenAPIOperation])
        case unreachable(String)
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
