import UnderstudyCore

// WireMock's admin routes: the one list of them, as `UnderstudyCore/Admin/AdminRoutes.swift` is the
// one list of the native ones. The handlers and hooks are in `WireMockAdmin.swift`; the
// registration is `WireMockSupport.install()`. `scripts/check-layers` checks that routes are
// declared in these two files only.

extension WireMockAdmin {
    /// The routes WireMock's adapter registers beside the native ones.
    static let routes: [AdminRoute] = [
        AdminRoute("GET", "", .both, status),
        AdminRoute("GET", "mappings", .both, { listMappings($0.adminEngine) }),
        AdminRoute("POST", "mappings", .both, { saveMapping($0.adminEngine, $0.request.body, id: nil) }),
        AdminRoute("DELETE", "mappings", .both, { deleteMappings($0.adminEngine) }),
        AdminRoute("POST", "mappings/reset", .both, resetMappings),
        AdminRoute("GET", "mappings/{id}", .both, getMapping),
        AdminRoute("PUT", "mappings/{id}", .both, putMapping),
        AdminRoute("DELETE", "mappings/{id}", .both, deleteMapping),
        AdminRoute("POST", "requests/reset", .both, clearRequests),
        AdminRoute("GET", "requests/unmatched", .both, unmatchedRequests),
        AdminRoute("POST", "scenarios/reset", .both, resetScenarios),
        AdminRoute("PUT", "scenarios/{name}/state", .both, ScenariosAdmin.set),
    ]
}
