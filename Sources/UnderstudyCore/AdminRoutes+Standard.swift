/// The table the daemon serves: the native routes and those of the format adapters it speaks.
/// Composed here, at the top of the module, so the native admin API knows no adapter.
extension AdminRoutes {
    static let standard = AdminRoutes(adapters: [WireMockAdmin.adapter])
}
