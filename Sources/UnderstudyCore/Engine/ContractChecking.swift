import UnderstudyHTTP

/// The seam serve-time contract checking plugs into (`serve --openapi`): the engine asks it about
/// every request before answering, and about every answer a stub gives. The checker lives outside
/// the engine (it needs the OpenAPI document and a JSON Schema validator); the engine only
/// journals and reports what it says. With no checker (``EngineConfiguration/contract`` nil) a
/// request costs one nil check.
///
/// Driven by the engine's thread, like the engine.
public protocol ContractChecking: AnyObject {
    /// Whether a violation refuses the request (`fail`: a 400 for the request's, a 500 for the
    /// stub's answer) rather than only being reported (`warn`: journaled and sent as a header).
    var refusesViolations: Bool { get }

    /// How `request` breaks the contract: no operation for its method and path, a missing or
    /// invalid parameter, a body the operation does not accept. Empty when it keeps it.
    func violations(in request: HTTPRequest) -> [ContractViolation]

    /// How a stub's answer to `request` breaks the contract (after templates render): a status,
    /// media type, header or body the operation does not declare. Empty when it keeps it.
    func violations(in response: HTTPResponse, answering request: HTTPRequest) -> [ContractViolation]
}
