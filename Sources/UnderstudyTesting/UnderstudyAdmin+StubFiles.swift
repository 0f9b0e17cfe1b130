import Foundation

extension UnderstudyAdmin {
    /// Adds a stub file's stubs, reporting a refusal with the file's own name (the daemon only
    /// knows it as `<admin>`; line and column already point into the file, sent unchanged).
    func addStubs(stubFile path: String) async throws {
        do {
            try await addStubs(fileAt: path)
        } catch let UnderstudyError.admin(error) {
            var named = error
            named.message = "\(path): \(error.message)"
            named.errors = error.errors.map { problem in
                var problem = problem
                if problem.file == nil || problem.file == "<admin>" { problem.file = path }
                return problem
            }
            throw UnderstudyError.admin(named)
        }
    }
}
