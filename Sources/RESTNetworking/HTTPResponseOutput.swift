/// What every RESTNetworking request produces: the body and the response it came with.
public typealias HTTPResponseOutput = (data: Data, response: HTTPURLResponse)
